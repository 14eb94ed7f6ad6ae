import { and, asc, eq, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events } from '../../db/schema/index.js';

/** A tenant's events the public may see (published, or cancelled after publishing), soonest first. */
export function listPublicEvents(db: Db, tenantId: string) {
  return db
    .select({ urlName: events.urlName, name: events.name, status: events.status, startDateTime: events.startDateTime, updatedAt: events.updatedAt })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), or(eq(events.status, 'published'), and(eq(events.status, 'cancelled'), isNotNull(events.publishedAt)))))
    .orderBy(asc(events.startDateTime), asc(events.urlName))
    .limit(5000);
}
