import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { isEventPublicSql } from '../../db/rules-sql.js';
import { events } from '../../db/schema/index.js';

/** A tenant's events the public may see (core isEventPublic), soonest first. */
export function listPublicEvents(db: Db, tenantId: string) {
  return db
    .select({ urlName: events.urlName, name: events.name, status: events.status, startDateTime: events.startDateTime, updatedAt: events.updatedAt })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), isEventPublicSql(events.status, events.publishedAt)))
    .orderBy(asc(events.startDateTime), asc(events.urlName))
    .limit(5000);
}
