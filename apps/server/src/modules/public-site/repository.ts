import { and, asc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events, eventSeries } from '../../db/schema/index.js';

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

/** Issue 28: the URL name of the series a date belongs to (its public page /series/{urlName}), for the ticket menu's "All dates". */
export async function seriesUrlNameOf(db: Db, tenantId: string, seriesId: string | null): Promise<string | null> {
  if (!seriesId) return null;
  const [row] = await db
    .select({ urlName: eventSeries.urlName })
    .from(eventSeries)
    .where(and(eq(eventSeries.tenantId, tenantId), eq(eventSeries.id, seriesId)));
  return row?.urlName ?? null;
}
