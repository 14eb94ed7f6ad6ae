import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { discountCodes, events, eventSeries, invites, memberships, orders, surchargeRules, tickets, ticketTypes, waitingRoomAddresses, waitingRooms, waitingRoomVisitors } from '../../db/schema/index.js';
import { PAID_ORDER_STATUSES } from '@marquee/core';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';
import { badRequest } from '../../platform/errors.js';

export type EventRow = typeof events.$inferSelect;
export type EventInsert = typeof events.$inferInsert;

export const EVENT_LIST: ListSpec = {
  fields: {
    'details.name': { expr: events.name, type: 'text', match: 'contains' },
    'details.urlName': { expr: events.urlName, type: 'text' },
    'details.status': { expr: events.status, type: 'text' },
    'details.startDateTime': { expr: sql`coalesce(${events.startDateTime}, 'infinity'::timestamptz)`, type: 'timestamp' },
    'details.dateCreated': { expr: events.createdAt, type: 'timestamp' },
    /**
     * Issue 28: one row per series instead of one per date. `all`: each series by one date, its
     * next date not cancelled or over (else its last); a status: its next date of that status (the
     * status filter sent beside it). Plain events are all kept. Not sortable.
     */
    'details.seriesGrouped': {
      expr: sql`(${events.seriesId} is null)`,
      type: 'text',
      sortable: false,
      where: (value, op) => {
        if (op !== '=' || !/^(all|draft|published|cancelled)$/.test(value)) throw badRequest('details.seriesGrouped takes = all, draft, published or cancelled.');
        return seriesGroupedWhere(value);
      },
    },
  },
  id: events.id,
  defaultSort: '-details.dateCreated',
};

export async function insertEvent(db: DbOrTx, values: EventInsert): Promise<EventRow> {
  const [row] = await db.insert(events).values(values).returning();
  return row!;
}

export async function findEvent(db: DbOrTx, tenantId: string, eventId: string, lock = false): Promise<EventRow | undefined> {
  const query = db.select().from(events).where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function findEventByUrlName(db: DbOrTx, tenantId: string, urlName: string): Promise<EventRow | undefined> {
  const [row] = await db.select().from(events).where(and(eq(events.tenantId, tenantId), eq(events.urlName, urlName)));
  return row;
}

export async function listEvents(db: DbOrTx, tenantId: string, q: CompiledList, onlyEvents: string[] | null = null) {
  const own = and(eq(events.tenantId, tenantId), onlyEvents ? inArray(events.id, onlyEvents) : undefined);
  const rows = await db
    .select({ row: events, _sort: q.sortKey, _id: q.idKey })
    .from(events)
    .where(and(own, q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(events).where(and(own, q.where));
  return { rows, total: total?.n ?? 0 };
}

export async function updateEvent(db: DbOrTx, tenantId: string, eventId: string, set: Partial<EventInsert>): Promise<EventRow | undefined> {
  const [row] = await db
    .update(events)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)))
    .returning();
  return row;
}

/** Moves the event to `to` only from one of `from`; undefined when it was in another state. */
export async function transitionEvent(db: DbOrTx, tenantId: string, eventId: string, from: readonly string[], to: string) {
  const [row] = await db
    .update(events)
    // The first publish is remembered: a cancelled event that was once public keeps its page.
    .set({ status: to, updatedAt: new Date(), ...(to === 'published' ? { publishedAt: sql`coalesce(${events.publishedAt}, now())` } : {}) })
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId), inArray(events.status, [...from])))
    .returning();
  return row;
}

/**
 * DELETE EVENT's locks, held to the end of the caller's transaction, in the one lock order every
 * writer uses (ticket types by id, then discount codes by id, then the event; mq_take_holds takes
 * the same): a hold that got there first has written its order before this returns, and one that
 * comes later waits and then finds the event gone. Answers the event as it is under the lock
 * (undefined: gone).
 */
export async function lockEventForDelete(tx: DbOrTx, tenantId: string, eventId: string): Promise<EventRow | undefined> {
  await tx
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId)))
    .orderBy(asc(ticketTypes.id))
    .for('update');
  await tx
    .select({ id: discountCodes.id })
    .from(discountCodes)
    .where(and(eq(discountCodes.tenantId, tenantId), eq(discountCodes.eventId, eventId)))
    .orderBy(asc(discountCodes.id))
    .for('update');
  return findEvent(tx, tenantId, eventId, true);
}

/**
 * Before a row of the event's own is written (a ticket type, a discount code): key-share locks the
 * event's row to the end of the caller's transaction, as a foreign key would, so a delete of the
 * event waits for the write and deletes that row too, or went first and this answers false. Sales
 * and edits of the event are not held up. Taken after any ticket type locks (the one lock order).
 */
export async function keepEvent(tx: DbOrTx, tenantId: string, eventId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)))
    .for('key share');
  return rows.length > 0;
}

/**
 * Deletes an event that has no orders, with what hangs off it: its ticket types and discount codes,
 * its staff's event roles and the open or used invites to them (a role on an event that is gone
 * grants nothing, and its console link would lead nowhere), and its waiting room and the places in
 * it (and its count of places per address). Its page goes by the page's foreign key (on delete cascade). (Subscribers come from orders.)
 */
export async function deleteEvent(db: DbOrTx, tenantId: string, eventId: string) {
  await db.delete(memberships).where(and(eq(memberships.tenantId, tenantId), eq(memberships.eventId, eventId)));
  await db.delete(invites).where(and(eq(invites.tenantId, tenantId), eq(invites.eventId, eventId)));
  await db.delete(waitingRoomVisitors).where(and(eq(waitingRoomVisitors.tenantId, tenantId), eq(waitingRoomVisitors.eventId, eventId)));
  await db.delete(waitingRoomAddresses).where(and(eq(waitingRoomAddresses.tenantId, tenantId), eq(waitingRoomAddresses.eventId, eventId)));
  await db.delete(waitingRooms).where(and(eq(waitingRooms.tenantId, tenantId), eq(waitingRooms.eventId, eventId)));
  await db.delete(discountCodes).where(and(eq(discountCodes.tenantId, tenantId), eq(discountCodes.eventId, eventId)));
  await db.delete(ticketTypes).where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId)));
  await db.delete(events).where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
}

export async function countOrders(db: DbOrTx, tenantId: string, eventId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(orders).where(and(eq(orders.tenantId, tenantId), eq(orders.eventId, eventId)));
  return row?.n ?? 0;
}

export async function countTicketTypes(db: DbOrTx, tenantId: string, eventId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId)));
  return row?.n ?? 0;
}

/** Tickets of the event sold or held right now: what its ticket types have given out. */
export async function soldOrHeld(db: DbOrTx, tenantId: string, eventId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${ticketTypes.quantity} - ${ticketTypes.remaining}), 0)::int` })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId)));
  return Number(row?.n ?? 0);
}

export async function isActiveSurchargeRule(db: DbOrTx, tenantId: string, ruleId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: surchargeRules.id })
    .from(surchargeRules)
    .where(and(eq(surchargeRules.tenantId, tenantId), eq(surchargeRules.id, ruleId), eq(surchargeRules.active, true)));
  return !!row;
}

/** Per event: what its ticket types have given out, and the valid tickets of its paid orders. */
export async function salesCounts(db: DbOrTx, tenantId: string, eventIds: readonly string[]): Promise<Map<string, { givenOut: number; paidTickets: number }>> {
  const out = new Map<string, { givenOut: number; paidTickets: number }>(eventIds.map((id) => [id, { givenOut: 0, paidTickets: 0 }]));
  if (eventIds.length === 0) return out;
  const given = await db
    .select({ eventId: ticketTypes.eventId, n: sql<number>`coalesce(sum(${ticketTypes.quantity} - ${ticketTypes.remaining}), 0)::int` })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.tenantId, tenantId), inArray(ticketTypes.eventId, [...eventIds])))
    .groupBy(ticketTypes.eventId);
  const paid = await db
    .select({ eventId: tickets.eventId, n: count() })
    .from(tickets)
    .innerJoin(orders, and(eq(orders.tenantId, tickets.tenantId), eq(orders.id, tickets.orderId)))
    .where(and(eq(tickets.tenantId, tenantId), inArray(tickets.eventId, [...eventIds]), eq(tickets.voided, false), inArray(orders.status, [...PAID_ORDER_STATUSES])))
    .groupBy(tickets.eventId);
  for (const g of given) out.get(g.eventId)!.givenOut = Number(g.n);
  for (const p of paid) out.get(p.eventId)!.paidTickets = Number(p.n);
  return out;
}

/** The event's ticket types' sales windows as typed (wall-clock), in id order. */
export async function ticketTypeWindows(db: DbOrTx, tenantId: string, eventId: string) {
  return db
    .select({ id: ticketTypes.id, startDate: ticketTypes.startDate, startTime: ticketTypes.startTime, endDate: ticketTypes.endDate, endTime: ticketTypes.endTime })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId)))
    .orderBy(asc(ticketTypes.id));
}

export async function setTicketTypeWindow(db: DbOrTx, tenantId: string, eventId: string, id: string, window: { salesStartAt: Date | null; salesEndAt: Date | null }) {
  await db
    .update(ticketTypes)
    .set({ ...window, updatedAt: new Date() })
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId), eq(ticketTypes.id, id)));
}

/**
 * Issue 28, the Events list grouped by series: a plain event is kept; a series date is kept when it
 * is the one date shown for its series (see EVENT_LIST 'details.seriesGrouped'). The shown date:
 * the earliest that is not over and (for `all`) not cancelled; when none is, the latest. One
 * subquery per candidate row on events_series_idx (tenant, series, start).
 */
function seriesGroupedWhere(status: string) {
  const sameStatus = status === 'all' ? sql`true` : sql`r.status = ${status}`;
  const done = status === 'all' ? sql`(r.status = 'cancelled' or coalesce(r.end_date_time, r.start_date_time) < now())` : sql`(coalesce(r.end_date_time, r.start_date_time) < now())`;
  return sql`(${events.seriesId} is null or ${events.id} = (
    select r.id from events r
    where r.tenant_id = ${events.tenantId} and r.series_id = ${events.seriesId} and ${sameStatus}
    order by ${done} asc,
      case when ${done} then null else r.start_date_time end asc nulls last,
      r.start_date_time desc nulls last, r.id
    limit 1))`;
}

export type SeriesOfList = {
  id: string;
  name: string;
  urlName: string;
  /** Its dates, cancelled ones not counted. */
  dates: number;
  /** The next date's start (not cancelled, not over); null: none is left. */
  nextStartDateTime: string | null;
  capacity: number | null;
  remainingCapacity: number | null;
  givenOut: number;
  paidTickets: number;
};

/**
 * The series of the Events list's grouped rows, their dates summed: dates, next start, capacity and
 * what is left over the dates not cancelled or over (null when one has no limit), and the sales of
 * every date (the counts of salesCounts). Four statements, for the series on the page only.
 */
export async function seriesOfList(db: DbOrTx, tenantId: string, seriesIds: readonly string[], now = new Date()): Promise<Map<string, SeriesOfList>> {
  const out = new Map<string, SeriesOfList>();
  if (seriesIds.length === 0) return out;
  const ids = [...new Set(seriesIds)];
  const [heads, dates] = await Promise.all([
    db.select({ id: eventSeries.id, name: eventSeries.name, urlName: eventSeries.urlName }).from(eventSeries).where(and(eq(eventSeries.tenantId, tenantId), inArray(eventSeries.id, ids))),
    db
      .select({ id: events.id, seriesId: events.seriesId, status: events.status, start: events.startDateTime, end: events.endDateTime, capacity: events.capacity, remainingCapacity: events.remainingCapacity })
      .from(events)
      .where(and(eq(events.tenantId, tenantId), inArray(events.seriesId, ids)))
      .orderBy(asc(events.startDateTime), asc(events.id)),
  ]);
  for (const h of heads) out.set(h.id, { ...h, dates: 0, nextStartDateTime: null, capacity: 0, remainingCapacity: 0, givenOut: 0, paidTickets: 0 });
  const counts = await salesCounts(db, tenantId, dates.map((d) => d.id));
  for (const d of dates) {
    const s = out.get(d.seriesId!);
    if (!s) continue;
    const c = counts.get(d.id)!;
    s.givenOut += c.givenOut;
    s.paidTickets += c.paidTickets;
    if (d.status === 'cancelled') continue;
    s.dates += 1;
    const over = (d.end ?? d.start) !== null && (d.end ?? d.start)! < now;
    if (over) continue;
    if (s.nextStartDateTime === null && d.start) s.nextStartDateTime = d.start.toISOString();
    s.capacity = s.capacity === null || d.capacity === null ? null : s.capacity + d.capacity;
    s.remainingCapacity = s.remainingCapacity === null || d.remainingCapacity === null ? null : s.remainingCapacity + d.remainingCapacity;
  }
  return out;
}
