import { and, asc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events } from '../../db/schema/index.js';

/**
 * A tenant's events on sale that have not ended (or have no date yet), soonest first: the public
 * /events page's list. An event without an end counts as running until six hours after its start.
 */
export function listUpcomingPublishedEvents(db: Db, tenantId: string, now: Date) {
  const endedBefore = new Date(now.getTime() - 6 * 3600_000);
  return db
    .select({ urlName: events.urlName })
    .from(events)
    .where(
      and(
        eq(events.tenantId, tenantId),
        eq(events.status, 'published'),
        or(isNull(events.startDateTime), gte(sql`coalesce(${events.endDateTime}, ${events.startDateTime})`, endedBefore), gte(events.endDateTime, now)),
      ),
    )
    .orderBy(sql`${events.startDateTime} asc nulls last`, asc(events.urlName))
    .limit(100);
}
