import { and, asc, count, eq, inArray, max, min, sql } from 'drizzle-orm';
import { PAID_ORDER_STATUSES } from '@marquee/core';
import type { DbOrTx } from '../../db/client.js';
import { events, eventSalesTotals, eventSeries, orders, seriesTicketTypes, tenants, ticketTypes } from '../../db/schema/index.js';

// The series' own SQL (issue 28). A date is an ordinary event row; what the series shows of its
// dates (sold, left, gross) is read here from the events' own tables and the report rollup.

export type SeriesRow = typeof eventSeries.$inferSelect;
export type SeriesTicketTypeRow = typeof seriesTicketTypes.$inferSelect;

export async function insertSeries(db: DbOrTx, values: typeof eventSeries.$inferInsert): Promise<SeriesRow> {
  const [row] = await db.insert(eventSeries).values(values).returning();
  return row!;
}

export async function insertSeriesTicketTypes(db: DbOrTx, values: (typeof seriesTicketTypes.$inferInsert)[]): Promise<SeriesTicketTypeRow[]> {
  return db.insert(seriesTicketTypes).values(values).returning();
}

export async function findSeries(db: DbOrTx, tenantId: string, seriesId: string): Promise<SeriesRow | undefined> {
  const [row] = await db.select().from(eventSeries).where(and(eq(eventSeries.tenantId, tenantId), eq(eventSeries.id, seriesId)));
  return row;
}

export async function findSeriesByUrlName(db: DbOrTx, tenantId: string, urlName: string): Promise<SeriesRow | undefined> {
  const [row] = await db.select().from(eventSeries).where(and(eq(eventSeries.tenantId, tenantId), eq(eventSeries.urlName, urlName)));
  return row;
}

export async function seriesTicketTypesOf(db: DbOrTx, tenantId: string, seriesId: string): Promise<SeriesTicketTypeRow[]> {
  return db
    .select()
    .from(seriesTicketTypes)
    .where(and(eq(seriesTicketTypes.tenantId, tenantId), eq(seriesTicketTypes.seriesId, seriesId)))
    .orderBy(asc(seriesTicketTypes.sortOrder), asc(seriesTicketTypes.id));
}

/** The series of the tenant with their dates' count and span, newest first. */
export async function listSeries(db: DbOrTx, tenantId: string) {
  return db
    .select({
      id: eventSeries.id,
      name: eventSeries.name,
      urlName: eventSeries.urlName,
      dates: count(events.id),
      firstStart: min(events.startDateTime),
      lastStart: max(events.startDateTime),
    })
    .from(eventSeries)
    .leftJoin(events, and(eq(events.tenantId, eventSeries.tenantId), eq(events.seriesId, eventSeries.id)))
    .where(eq(eventSeries.tenantId, tenantId))
    .groupBy(eventSeries.tenantId, eventSeries.id)
    .orderBy(sql`${eventSeries.createdAt} desc`, asc(eventSeries.id));
}

export type SeriesDateFacts = {
  eventId: string;
  name: string;
  urlName: string;
  status: string;
  publishedAt: Date | null;
  startDateTime: Date | null;
  endDateTime: Date | null;
  remainingCapacity: number | null;
  /** What the date's active ticket types have left (null: it has none). */
  ticketsLeft: number | null;
  sold: number;
  gross: number;
};

/** Each date of the series, in start order, with what it has sold and has left. */
export async function datesOf(db: DbOrTx, tenantId: string, seriesId: string): Promise<SeriesDateFacts[]> {
  const left = db
    .select({ eventId: ticketTypes.eventId, left: sql<number>`sum(${ticketTypes.remaining})::int`.as('left') })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.active, true)))
    .groupBy(ticketTypes.eventId)
    .as('tt_left');
  const rows = await db
    .select({
      eventId: events.id,
      name: events.name,
      urlName: events.urlName,
      status: events.status,
      publishedAt: events.publishedAt,
      startDateTime: events.startDateTime,
      endDateTime: events.endDateTime,
      remainingCapacity: events.remainingCapacity,
      ticketsLeft: left.left,
      sold: sql<number>`coalesce(${eventSalesTotals.ticketsSold}, 0)::int`,
      gross: sql<number>`coalesce(${eventSalesTotals.gross}, 0)::bigint`,
    })
    .from(events)
    .leftJoin(left, eq(left.eventId, events.id))
    .leftJoin(eventSalesTotals, and(eq(eventSalesTotals.tenantId, events.tenantId), eq(eventSalesTotals.eventId, events.id)))
    .where(and(eq(events.tenantId, tenantId), eq(events.seriesId, seriesId)))
    .orderBy(asc(events.startDateTime), asc(events.id));
  return rows.map((r) => ({ ...r, ticketsLeft: r.ticketsLeft === null ? null : Number(r.ticketsLeft), sold: Number(r.sold), gross: Number(r.gross) }));
}

export async function findDate(db: DbOrTx, tenantId: string, seriesId: string, eventId: string) {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.seriesId, seriesId), eq(events.id, eventId)));
  return row;
}

/** Whether another date of the series starts at that instant (cancelled dates do not count). */
export async function dateStartsAt(db: DbOrTx, tenantId: string, seriesId: string, start: Date, exceptEventId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.seriesId, seriesId), eq(events.startDateTime, start), sql`${events.status} <> 'cancelled'`));
  return rows.some((r) => r.id !== exceptEventId);
}

export async function urlNamesTaken(db: DbOrTx, tenantId: string, urlNames: readonly string[]): Promise<Set<string>> {
  if (urlNames.length === 0) return new Set();
  const rows = await db
    .select({ urlName: events.urlName })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), inArray(events.urlName, [...urlNames])));
  return new Set(rows.map((r) => r.urlName));
}

/** The paid orders of one date that have an e-mail: who a moved date is told. */
export async function paidOrdersOf(db: DbOrTx, tenantId: string, eventId: string) {
  return db
    .select({ id: orders.id, orderUid: orders.orderUid, email: orders.email, firstName: orders.firstName })
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.eventId, eventId), inArray(orders.status, [...PAID_ORDER_STATUSES]), sql`${orders.email} <> ''`))
    .orderBy(asc(orders.id));
}

export async function organiserOf(db: DbOrTx, tenantId: string) {
  const [row] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.name ?? '';
}


export async function eventNameOf(db: DbOrTx, tenantId: string, eventId: string) {
  const [row] = await db.select({ name: events.name, status: events.status }).from(events).where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row;
}

export async function lockSeriesTicketType(db: DbOrTx, tenantId: string, seriesId: string, id: string) {
  const [row] = await db
    .select()
    .from(seriesTicketTypes)
    .where(and(eq(seriesTicketTypes.tenantId, tenantId), eq(seriesTicketTypes.seriesId, seriesId), eq(seriesTicketTypes.id, id)))
    .for('update');
  return row;
}

export async function updateSeriesTicketType(db: DbOrTx, tenantId: string, id: string, set: Partial<Pick<SeriesTicketTypeRow, 'name' | 'price' | 'quantity'>>) {
  if (Object.keys(set).length === 0) return;
  await db.update(seriesTicketTypes).set(set).where(and(eq(seriesTicketTypes.tenantId, tenantId), eq(seriesTicketTypes.id, id)));
}

/**
 * The dates' copies of a series ticket type, on dates that are neither cancelled nor over (a date
 * whose end has passed keeps what it sold at), in id order (lock order).
 */
export async function copiesOf(db: DbOrTx, tenantId: string, seriesTicketTypeId: string, now: Date) {
  return db
    .select({
      id: ticketTypes.id,
      eventId: ticketTypes.eventId,
      eventName: events.name,
      name: ticketTypes.name,
      price: ticketTypes.price,
      quantity: ticketTypes.quantity,
      remaining: ticketTypes.remaining,
    })
    .from(ticketTypes)
    .innerJoin(events, and(eq(events.tenantId, ticketTypes.tenantId), eq(events.id, ticketTypes.eventId)))
    .where(
      and(
        eq(ticketTypes.tenantId, tenantId),
        eq(ticketTypes.seriesTicketTypeId, seriesTicketTypeId),
        sql`${events.status} <> 'cancelled'`,
        sql`(${events.endDateTime} is null or ${events.endDateTime} > ${now.toISOString()}::timestamptz)`,
      ),
    )
    .orderBy(asc(ticketTypes.id))
    .for('update', { of: ticketTypes });
}
