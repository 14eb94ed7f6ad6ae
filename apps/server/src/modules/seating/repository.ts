import { and, asc, eq, getTableName, inArray, sql } from 'drizzle-orm';
import { rowBool, runPrepared, type Db, type DbOrTx, type Tx } from '../../db/client.js';
import { events, eventSeatCategories, eventSeating, eventSeats, jobs, orders, seatHolds, ticketTypes, venueLayouts, venueSeatFlags, venueSections } from '../../db/schema/index.js';

// Issue 27's SQL. Lock order (docs/architecture.md "Lock order" 2a): an order, then its seat holds
// by id, then their seats by number; a seat hold on its own takes the hold row, then the seats.

export type LayoutRow = typeof venueLayouts.$inferSelect;
export type SectionRow = typeof venueSections.$inferSelect;
export type FlagRow = typeof venueSeatFlags.$inferSelect;

// ---- layouts -----------------------------------------------------------------------------------

export async function listLayouts(db: DbOrTx, tenantId: string) {
  return db.select().from(venueLayouts).where(eq(venueLayouts.tenantId, tenantId)).orderBy(asc(venueLayouts.name), asc(venueLayouts.id));
}

export async function findLayout(db: DbOrTx, tenantId: string, id: string, lock = false): Promise<LayoutRow | undefined> {
  const q = db.select().from(venueLayouts).where(and(eq(venueLayouts.tenantId, tenantId), eq(venueLayouts.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function sectionsOf(db: DbOrTx, tenantId: string, layoutIds: string[]): Promise<SectionRow[]> {
  if (layoutIds.length === 0) return [];
  return db
    .select()
    .from(venueSections)
    .where(and(eq(venueSections.tenantId, tenantId), inArray(venueSections.layoutId, layoutIds)))
    .orderBy(asc(venueSections.layoutId), asc(venueSections.position));
}

export async function flagsOf(db: DbOrTx, tenantId: string, layoutIds: string[]): Promise<FlagRow[]> {
  if (layoutIds.length === 0) return [];
  return db
    .select()
    .from(venueSeatFlags)
    .where(and(eq(venueSeatFlags.tenantId, tenantId), inArray(venueSeatFlags.layoutId, layoutIds)))
    .orderBy(asc(venueSeatFlags.seatKey));
}

export async function insertLayout(tx: DbOrTx, row: typeof venueLayouts.$inferInsert) {
  await tx.insert(venueLayouts).values(row);
}

export async function renameLayout(tx: DbOrTx, tenantId: string, id: string, name: string) {
  await tx
    .update(venueLayouts)
    .set({ name, updatedAt: new Date() })
    .where(and(eq(venueLayouts.tenantId, tenantId), eq(venueLayouts.id, id)));
}

/** The layout's sections and flags, replaced as a whole (the editor saves the whole plan). */
export async function replaceLayoutContent(
  tx: DbOrTx,
  tenantId: string,
  layoutId: string,
  sections: Array<Omit<typeof venueSections.$inferInsert, 'tenantId' | 'layoutId'>>,
  flags: Array<Omit<typeof venueSeatFlags.$inferInsert, 'tenantId' | 'layoutId'>>,
) {
  await tx.delete(venueSections).where(and(eq(venueSections.tenantId, tenantId), eq(venueSections.layoutId, layoutId)));
  await tx.delete(venueSeatFlags).where(and(eq(venueSeatFlags.tenantId, tenantId), eq(venueSeatFlags.layoutId, layoutId)));
  if (sections.length) await tx.insert(venueSections).values(sections.map((s) => ({ ...s, tenantId, layoutId })));
  for (let i = 0; i < flags.length; i += 2000) {
    await tx.insert(venueSeatFlags).values(flags.slice(i, i + 2000).map((f) => ({ ...f, tenantId, layoutId })));
  }
}

export async function deleteLayout(tx: DbOrTx, tenantId: string, id: string): Promise<boolean> {
  await tx.delete(venueSections).where(and(eq(venueSections.tenantId, tenantId), eq(venueSections.layoutId, id)));
  await tx.delete(venueSeatFlags).where(and(eq(venueSeatFlags.tenantId, tenantId), eq(venueSeatFlags.layoutId, id)));
  const rows = await tx
    .delete(venueLayouts)
    .where(and(eq(venueLayouts.tenantId, tenantId), eq(venueLayouts.id, id)))
    .returning({ id: venueLayouts.id });
  return rows.length === 1;
}

// ---- an event's seating ------------------------------------------------------------------------

export async function findEventSeating(db: DbOrTx, tenantId: string, eventId: string) {
  const [seating] = await db
    .select()
    .from(eventSeating)
    .where(and(eq(eventSeating.tenantId, tenantId), eq(eventSeating.eventId, eventId)));
  if (!seating) return null;
  const categories = await db
    .select({ category: eventSeatCategories.category, ticketTypeId: eventSeatCategories.ticketTypeId })
    .from(eventSeatCategories)
    .where(and(eq(eventSeatCategories.tenantId, tenantId), eq(eventSeatCategories.eventId, eventId)))
    .orderBy(asc(eventSeatCategories.category));
  const [counts] = await db
    .select({
      seats: sql<number>`count(*)::int`,
      held: sql<number>`count(*) filter (where ${eventSeats.holdId} is not null)::int`,
      sold: sql<number>`count(*) filter (where ${eventSeats.orderId} is not null)::int`,
    })
    .from(eventSeats)
    .where(and(eq(eventSeats.tenantId, tenantId), eq(eventSeats.eventId, eventId)));
  return { seating, categories, seats: counts?.seats ?? 0, held: counts?.held ?? 0, sold: counts?.sold ?? 0 };
}

/** The ticket types the event's seats sell as (empty: the event has no seating, or nothing mapped). */
export async function seatedTicketTypes(db: DbOrTx, tenantId: string, eventId: string): Promise<Set<string>> {
  const rows = await db
    .select({ id: eventSeatCategories.ticketTypeId })
    .from(eventSeatCategories)
    .where(and(eq(eventSeatCategories.tenantId, tenantId), eq(eventSeatCategories.eventId, eventId)));
  return new Set(rows.map((r) => r.id));
}

export async function eventTicketTypes(db: DbOrTx, tenantId: string, eventId: string) {
  return db
    .select({ id: ticketTypes.id, name: ticketTypes.name, price: ticketTypes.price, maxPerOrder: ticketTypes.maxPerOrder })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId)));
}

/**
 * Removes the event's seats and seating, all or nothing: answers false (and the caller rolls back)
 * when any seat is held or sold. The DELETE takes every seat's lock, so a hold racing it either
 * committed first (and is seen here) or finds its seat gone.
 */
export async function clearEventSeats(tx: Tx, tenantId: string, eventId: string): Promise<boolean> {
  const gone = await tx
    .delete(eventSeats)
    .where(and(eq(eventSeats.tenantId, tenantId), eq(eventSeats.eventId, eventId)))
    .returning({ holdId: eventSeats.holdId, orderId: eventSeats.orderId });
  if (gone.some((s) => s.holdId !== null || s.orderId !== null)) return false;
  await tx.delete(eventSeatCategories).where(and(eq(eventSeatCategories.tenantId, tenantId), eq(eventSeatCategories.eventId, eventId)));
  await tx.delete(eventSeating).where(and(eq(eventSeating.tenantId, tenantId), eq(eventSeating.eventId, eventId)));
  return true;
}

export async function insertEventSeating(
  tx: Tx,
  p: {
    tenantId: string;
    eventId: string;
    layoutId: string;
    layoutName: string;
    categories: Array<{ category: string; ticketTypeId: string }>;
    seats: Array<Omit<typeof eventSeats.$inferInsert, 'tenantId' | 'eventId'>>;
  },
) {
  await tx.insert(eventSeating).values({ tenantId: p.tenantId, eventId: p.eventId, layoutId: p.layoutId, layoutName: p.layoutName });
  if (p.categories.length) await tx.insert(eventSeatCategories).values(p.categories.map((c) => ({ ...c, tenantId: p.tenantId, eventId: p.eventId })));
  for (let i = 0; i < p.seats.length; i += 1000) {
    await tx.insert(eventSeats).values(p.seats.slice(i, i + 1000).map((s) => ({ ...s, tenantId: p.tenantId, eventId: p.eventId })));
  }
}

/**
 * Issue 27 (seats): refreshes the planner's statistics of the tables a seat hold reads, after an
 * event's seats were copied (thousands of rows at once). Without them a table the planner has never
 * measured (a new database, PGlite, which never analyzes on its own, or PostgreSQL before autovacuum
 * comes round) makes the hold's statement scan every seat of the tenant instead of looking up the
 * seats asked for by their key: ~100 ms of PostgreSQL CPU per hold instead of ~1 ms on a 20,000-seat
 * arena (bench/README.md "Reserved seating"). ANALYZE reads a sample (a few thousand rows whatever
 * the table's size) and takes no lock that holds or sales wait for.
 */
export async function analyzeSeating(db: Db): Promise<void> {
  await db.execute(sql.raw(`analyze ${getTableName(eventSeats)}, ${getTableName(events)}, ${getTableName(ticketTypes)}`));
}

// ---- the map -----------------------------------------------------------------------------------

/** The event's seating plan's version (when its seats were copied), or null: the event sells no seats. One row by key. */
export async function eventSeatingVersion(db: DbOrTx, tenantId: string, eventId: string): Promise<string | null> {
  const [row] = await db
    .select({ createdAt: eventSeating.createdAt })
    .from(eventSeating)
    .where(and(eq(eventSeating.tenantId, tenantId), eq(eventSeating.eventId, eventId)));
  return row ? `${row.createdAt.getTime()}` : null;
}

export async function mapSeats(db: DbOrTx, tenantId: string, eventId: string) {
  return db
    .select({
      n: eventSeats.n,
      section: eventSeats.section,
      row: eventSeats.rowLabel,
      seat: eventSeats.seatLabel,
      x: eventSeats.x,
      y: eventSeats.y,
      category: eventSeats.category,
      accessible: eventSeats.accessible,
      companion: eventSeats.companion,
    })
    .from(eventSeats)
    .where(and(eq(eventSeats.tenantId, tenantId), eq(eventSeats.eventId, eventId)))
    .orderBy(asc(eventSeats.n));
}

/** A letter per seat, by number: f free, h held, s sold, x not for sale (blocked, kept back, or its category sells as nothing). */
export async function seatStates(db: DbOrTx, tenantId: string, eventId: string): Promise<string> {
  const [row] = await db
    .select({
      states: sql<string | null>`string_agg(case
        when ${eventSeats.orderId} is not null then 's'
        when ${eventSeats.holdId} is not null then 'h'
        when ${eventSeats.status} <> 'open' or ${eventSeats.ticketTypeId} is null then 'x'
        else 'f' end, '' order by ${eventSeats.n})`,
    })
    .from(eventSeats)
    .where(and(eq(eventSeats.tenantId, tenantId), eq(eventSeats.eventId, eventId)));
  return row?.states ?? '';
}

// ---- seat holds ---------------------------------------------------------------------------------

export type HeldSeatRow = { n: number; label: string; section: string; row: string; seat: string; ticketTypeId: string };
const heldColumns = {
  n: eventSeats.n,
  label: eventSeats.label,
  section: eventSeats.section,
  row: eventSeats.rowLabel,
  seat: eventSeats.seatLabel,
  ticketTypeId: sql<string>`${eventSeats.ticketTypeId}`,
};

export async function insertSeatHold(tx: DbOrTx, row: typeof seatHolds.$inferInsert) {
  await tx.insert(seatHolds).values(row);
}

/** Takes these seats for the hold where each is open, for sale and free; answers those taken. */
export async function takeSeats(tx: DbOrTx, p: { tenantId: string; eventId: string; holdId: string; seats: number[] }): Promise<HeldSeatRow[]> {
  return tx
    .update(eventSeats)
    .set({ holdId: p.holdId })
    .where(
      and(
        eq(eventSeats.tenantId, p.tenantId),
        eq(eventSeats.eventId, p.eventId),
        inArray(eventSeats.n, p.seats),
        eq(eventSeats.status, 'open'),
        sql`${eventSeats.holdId} is null and ${eventSeats.orderId} is null and ${eventSeats.ticketTypeId} is not null`,
      ),
    )
    .returning(heldColumns);
}

/** The seats asked for, as they are now (why a take fell short). */
export async function seatsByNumber(db: DbOrTx, tenantId: string, eventId: string, seats: number[]) {
  return db
    .select({ ...heldColumns, ticketTypeId: eventSeats.ticketTypeId, status: eventSeats.status, holdId: eventSeats.holdId, orderId: eventSeats.orderId })
    .from(eventSeats)
    .where(and(eq(eventSeats.tenantId, tenantId), eq(eventSeats.eventId, eventId), inArray(eventSeats.n, seats)));
}

export type BestSeatRow = { n: number; rowKey: number; seatIndex: number; score: number };

/** The best free seats of a ticket type (the free-seat index, front and centre first), accessible and companion seats left for those who ask. */
export async function bestFreeSeats(db: DbOrTx, p: { tenantId: string; eventId: string; ticketTypeId: string; limit: number | null }): Promise<BestSeatRow[]> {
  const q = db
    .select({ n: eventSeats.n, rowKey: eventSeats.rowKey, seatIndex: eventSeats.seatIndex, score: eventSeats.score })
    .from(eventSeats)
    .where(
      and(
        eq(eventSeats.tenantId, p.tenantId),
        eq(eventSeats.eventId, p.eventId),
        eq(eventSeats.ticketTypeId, p.ticketTypeId),
        eq(eventSeats.status, 'open'),
        sql`${eventSeats.holdId} is null and ${eventSeats.orderId} is null and not ${eventSeats.accessible} and not ${eventSeats.companion}`,
      ),
    )
    .orderBy(asc(eventSeats.score), asc(eventSeats.n));
  return p.limit === null ? q : q.limit(p.limit);
}

/** Locks those of these seats that are free and nobody else is taking (SKIP LOCKED): a run another buyer is taking is skipped, not waited for. */
export async function lockFreeSeats(tx: DbOrTx, p: { tenantId: string; eventId: string; seats: number[] }): Promise<number[]> {
  const rows = await tx.execute(sql`
    select n from ${eventSeats}
    where tenant_id = ${p.tenantId} and event_id = ${p.eventId} and n = any(${sql.raw(`'{${p.seats.map((n) => Math.trunc(n)).join(',')}}'::int[]`)})
      and status = 'open' and hold_id is null and order_id is null
    order by n for update skip locked`);
  return (rows as unknown as { rows: Array<{ n: number }> }).rows.map((r) => Number(r.n));
}

export type SeatHoldRow = typeof seatHolds.$inferSelect;

export async function findSeatHold(db: DbOrTx, tenantId: string, holdId: string, lock = false): Promise<SeatHoldRow | undefined> {
  const q = db.select().from(seatHolds).where(and(eq(seatHolds.tenantId, tenantId), eq(seatHolds.id, holdId)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function seatsOfHold(db: DbOrTx, tenantId: string, eventId: string, holdId: string): Promise<HeldSeatRow[]> {
  return db
    .select(heldColumns)
    .from(eventSeats)
    .where(and(eq(eventSeats.tenantId, tenantId), eq(eventSeats.eventId, eventId), eq(eventSeats.holdId, holdId)))
    .orderBy(asc(eventSeats.rowKey), asc(eventSeats.seatIndex));
}

/** The hold is given back: 'released', and its seats free. Answers whether it was live. */
export async function releaseSeatHold(tx: DbOrTx, p: { tenantId: string; holdId: string }): Promise<boolean> {
  const [hold] = await tx
    .update(seatHolds)
    .set({ status: 'released' })
    .where(and(eq(seatHolds.tenantId, p.tenantId), eq(seatHolds.id, p.holdId), eq(seatHolds.status, 'live')))
    .returning({ eventId: seatHolds.eventId, orderId: seatHolds.orderId });
  if (!hold) return false;
  const freed = await tx
    .update(eventSeats)
    .set({ holdId: null })
    .where(and(eq(eventSeats.tenantId, p.tenantId), eq(eventSeats.eventId, hold.eventId), eq(eventSeats.holdId, p.holdId)))
    .returning({ n: eventSeats.n });
  // A hold attached to an order remembers its seats: a payment arriving late takes them again if it can.
  if (hold.orderId !== null && freed.length > 0) {
    await tx
      .update(seatHolds)
      .set({ releasedSeats: freed.map((s) => s.n).sort((a, b) => a - b) })
      .where(and(eq(seatHolds.tenantId, p.tenantId), eq(seatHolds.id, p.holdId)));
  }
  return true;
}

/** The order's seat holds, locked by id (lock order 2b, under the order's lock). */
export async function lockSeatHoldsOfOrder(tx: DbOrTx, tenantId: string, orderId: string): Promise<SeatHoldRow[]> {
  return tx
    .select()
    .from(seatHolds)
    .where(and(eq(seatHolds.tenantId, tenantId), eq(seatHolds.orderId, orderId)))
    .orderBy(asc(seatHolds.id))
    .for('update');
}

/** A released hold lives again with these seats where every one is still free (all or nothing: the caller rolls back when fewer came). */
export async function reviveSeatHold(tx: DbOrTx, p: { tenantId: string; eventId: string; holdId: string; seats: number[]; until: Date }): Promise<number> {
  const got = await takeSeats(tx, { tenantId: p.tenantId, eventId: p.eventId, holdId: p.holdId, seats: p.seats });
  await tx
    .update(seatHolds)
    .set({ status: 'live', releasedSeats: null, expiresAt: p.until })
    .where(and(eq(seatHolds.tenantId, p.tenantId), eq(seatHolds.id, p.holdId)));
  return got.length;
}

/** The order the hold was attached to, locked (lock order: orders before seat holds); its status. */
export async function lockOrderOf(tx: DbOrTx, tenantId: string, orderId: string): Promise<string | null> {
  const [row] = await tx
    .select({ status: orders.status })
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)))
    .for('update');
  return row?.status ?? null;
}

/** The seat hold now keeps its seats for this order until `until` (or its own expiry, if later); false when it is not live any more. */
export async function attachSeatHold(tx: DbOrTx, p: { tenantId: string; eventId: string; holdId: string; orderId: string; until: Date }): Promise<boolean> {
  const rows = await tx
    .update(seatHolds)
    .set({ orderId: p.orderId, expiresAt: sql`greatest(${seatHolds.expiresAt}, ${p.until.toISOString()}::timestamptz)` })
    .where(
      and(
        eq(seatHolds.tenantId, p.tenantId),
        eq(seatHolds.id, p.holdId),
        eq(seatHolds.eventId, p.eventId),
        eq(seatHolds.status, 'live'),
        sql`${seatHolds.expiresAt} > now()`,
      ),
    )
    .returning({ id: seatHolds.id });
  return rows.length === 1;
}

/** Live holds past their expiry (their job was lost, or keeps failing). */
export async function overdueSeatHolds(db: DbOrTx, limit: number) {
  return db
    .select({ tenantId: seatHolds.tenantId, id: seatHolds.id })
    .from(seatHolds)
    .where(and(eq(seatHolds.status, 'live'), sql`${seatHolds.expiresAt} < now() - interval '30 seconds'`))
    .orderBy(asc(seatHolds.expiresAt))
    .limit(limit);
}

// ---- a seat hold in one statement (issue 27, on-sale speed) ----------------------------------------
//
// The hold's hot path: two fixed statements, sent as named prepared statements on PostgreSQL (parsed
// and planned once per connection) straight to the driver, outside any transaction: what the event
// sells (SEAT_SALE_SQL), then the take (takeSeatsAtOnce). At hundreds of holds a second, Drizzle's
// query building and one round trip per step (begin, the hold row, a savepoint per run, the seats,
// the job, commit) cost far more than the UPDATE itself (bench/README.md "Reserved seating"). The
// take checks in SQL everything a hold relies on (the event on sale, each seat open and for sale and
// free, the per-order limits), so the node may answer from a read of the sale made a moment ago.

/** The event's state and what its seats sell as, in one read: null when the tenant has no such event. */
const SEAT_SALE_SQL = `
  select e.status, e.published_at is not null as published,
    coalesce((select json_agg(json_build_array(t.id, t.max_per_order)) from ${getTableName(ticketTypes)} t
              where t.tenant_id = e.tenant_id and t.event_id = e.id), '[]') as types,
    coalesce((select json_agg(distinct c.ticket_type_id) from ${getTableName(eventSeatCategories)} c
              where c.tenant_id = e.tenant_id and c.event_id = e.id), '[]') as seated
  from ${getTableName(events)} e
  where e.tenant_id = $1::uuid and e.id = $2::uuid`;

export type SeatSale = { status: string; published: boolean; maxPerOrder: Map<string, number>; seated: Set<string> };

const asJson = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

export async function seatSale(db: Db, tenantId: string, eventId: string): Promise<SeatSale | null> {
  const [r] = await runPrepared(db, 'mq_seat_sale', SEAT_SALE_SQL, [tenantId, eventId]);
  if (!r) return null;
  return {
    status: String(r.status),
    published: r.published === true || r.published === 't',
    maxPerOrder: new Map(asJson<Array<[string, number]>>(r.types).map(([id, max]) => [id, Number(max)])),
    seated: new Set(asJson<string[]>(r.seated)),
  };
}

/**
 * Takes all of these seats for a new hold, or nothing, in ONE statement: it locks the seats asked
 * for that are open, for sale and free (by number, the lock order; `skipLocked`: a seat another buyer
 * is taking is left out instead of waited for), and only when it got every one of them and no ticket
 * type goes over its per-order limit does it give them the hold, write the hold row and queue the
 * hold's expiry job. A statement is atomic: it writes everything or nothing, and its locks end with
 * it. `bestOf`: best available of this ticket type (accessible and companion seats left out).
 */
function takeSql(skipLocked: boolean) {
  return `
  with locked as (
    select s.n, s.ticket_type_id from ${getTableName(eventSeats)} s
    where s.tenant_id = $1::uuid and s.event_id = $2::uuid and s.n = any($3::int[])
      and s.status = 'open' and s.hold_id is null and s.order_id is null and s.ticket_type_id is not null
      and ($4::uuid is null or (s.ticket_type_id = $4::uuid and not s.accessible and not s.companion))
      and exists (select 1 from ${getTableName(events)} e where e.tenant_id = $1::uuid and e.id = $2::uuid and e.status = 'published')
    order by s.n
    for update of s${skipLocked ? ' skip locked' : ''}),
  counted as (select ticket_type_id, count(*)::int as k from locked group by ticket_type_id),
  verdict as (
    select (select count(*) from locked) = cardinality($3::int[]) as complete,
      not exists (select 1 from counted c join ${getTableName(ticketTypes)} t on t.tenant_id = $1::uuid and t.id = c.ticket_type_id
                  where c.k > t.max_per_order) as within),
  taken as (
    update ${getTableName(eventSeats)} s set hold_id = $5::uuid
    from locked l, verdict v
    where s.tenant_id = $1::uuid and s.event_id = $2::uuid and s.n = l.n and v.complete and v.within
    returning s.n, s.label, s.section, s.row_label, s.seat_label, s.ticket_type_id),
  hold as (
    insert into ${getTableName(seatHolds)} (tenant_id, id, event_id, token_hash, expires_at)
    select $1::uuid, $5::uuid, $2::uuid, $6::text, $7::timestamptz where exists (select 1 from taken)
    returning id),
  job as (
    insert into ${getTableName(jobs)} (name, payload, run_at, dedupe_key)
    select $8::text, $9::jsonb, $7::timestamptz, $10::text where exists (select 1 from hold)
    on conflict (dedupe_key) do nothing
    returning id)
  select v.complete, v.within, (select count(*)::int from hold) as held,
    coalesce((select json_agg(json_build_object('n', t.n, 'label', t.label, 'section', t.section, 'row', t.row_label, 'seat', t.seat_label,
      'ticketTypeId', t.ticket_type_id) order by t.n) from taken t), '[]') as seats,
    coalesce((select json_agg(json_build_array(c.ticket_type_id, c.k)) from counted c), '[]') as counted,
    (select count(*)::int from job) as jobs
  from verdict v`;
}
const TAKE_WAIT_SQL = takeSql(false);
const TAKE_SKIP_SQL = takeSql(true);
/** The take's text (parameters as takeSeatsAtOnce sends them), for the test of its plan. */
export const TAKE_SEATS_SQL = { wait: TAKE_WAIT_SQL, skip: TAKE_SKIP_SQL };

export type TakeOutcome = {
  /** Every seat asked for was free (and not being taken by another buyer, with skipLocked). */
  complete: boolean;
  /** No ticket type over its per-order limit (counted among the seats locked). */
  within: boolean;
  /** The seats now held (empty unless complete and within). */
  seats: HeldSeatRow[];
  /** Seats locked per ticket type (why `within` failed). */
  counted: Array<[string, number]>;
};

export async function takeSeatsAtOnce(
  db: Db,
  p: {
    tenantId: string;
    eventId: string;
    seats: number[];
    bestOf: string | null;
    skipLocked: boolean;
    holdId: string;
    tokenHash: string;
    expiresAt: Date;
    job: { name: string; payload: unknown; dedupeKey: string };
  },
): Promise<TakeOutcome> {
  const seats = `{${p.seats.map((n) => Math.trunc(n)).join(',')}}`;
  const [r] = await runPrepared(db, p.skipLocked ? 'mq_seat_take_skip' : 'mq_seat_take_wait', p.skipLocked ? TAKE_SKIP_SQL : TAKE_WAIT_SQL, [
    p.tenantId,
    p.eventId,
    seats,
    p.bestOf,
    p.holdId,
    p.tokenHash,
    p.expiresAt.toISOString(),
    p.job.name,
    JSON.stringify(p.job.payload),
    p.job.dedupeKey,
  ]);
  const taken = asJson<HeldSeatRow[]>(r!.seats).map((s) => ({ ...s, n: Number(s.n) }));
  const complete = rowBool(r!.complete);
  const within = rowBool(r!.within);
  // The statement writes the hold only with all its seats; anything else would be a bug in it.
  if ((taken.length > 0) !== (Number(r!.held) === 1) || (taken.length > 0 && taken.length !== p.seats.length)) throw new Error('seat hold statement wrote a partial hold');
  return { complete, within, seats: taken, counted: asJson<Array<[string, number]>>(r!.counted).map(([id, k]) => [id, Number(k)]) };
}

// ---- many seat holds in one statement (issue 27, seats3) -------------------------------------------
//
// At hundreds of holds a second a pool connection carried one take per turn of the event loop: the
// answer waited in the socket until the loop came round (~15 ms under load) while the statement took
// ~1 ms (bench/README.md "seats3"). The takes that arrive together are therefore sent together
// (take-batch.ts): one statement takes each hold's seats all or nothing, independently of the
// others. Each hold is exactly takeSql's logic, set-wise: its seats (by full key, the seats of one
// hold never shared with another of the same statement) are locked where open, for sale and free,
// skipping any seat another transaction is taking (SKIP LOCKED: the statement never waits, so it can
// never be part of a deadlock); a hold that got all its seats and stays within each ticket type's
// per-order limit takes them, gets its row and its expiry job. `free` counts the hold's seats that
// looked free when the statement began (read without a lock): a pick that was incomplete although
// every seat looked free was racing another buyer's take, and is tried again alone, waiting for it.

/** A seat of a batch's hold, as the batch tells holds that share a seat apart (take-batch.ts). */
export const seatKey = (t: { tenantId: string; eventId: string }, n: number): string => `${t.tenantId}|${t.eventId}|${Math.trunc(n)}`;

/** One hold of a batch (as takeSeatsAtOnce's parameters). */
export type TakeRequest = {
  tenantId: string;
  eventId: string;
  seats: number[];
  bestOf: string | null;
  holdId: string;
  tokenHash: string;
  expiresAt: Date;
  job: { name: string; payload: unknown; dedupeKey: string };
};
export type SeenSeat = { n: number; label: string; free: boolean };
export type BatchOutcome = TakeOutcome & {
  /** The hold's seats that looked free (no lock) when the statement began. */
  free: number;
  /** A hold not taken: its seats that exist, as they were when the statement began (no lock), and whether the event was on sale. */
  refusal: { seen: SeenSeat[]; onSale: boolean } | null;
};

export const TAKE_BATCH_SQL = `
  with h as (
    select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::timestamptz[], $7::text[], $8::jsonb[], $9::text[])
      with ordinality as h(tenant_id, event_id, best_of, hold_id, token_hash, expires_at, job_name, job_payload, dedupe_key, k)),
  w as (select * from unnest($10::int[], $11::int[]) as w(k, n)),
  wanted as (select k, count(*)::int as c from w group by k),
  locked as (
    select w.k, s.n, s.ticket_type_id from h join w on w.k = h.k
      join ${getTableName(eventSeats)} s on s.tenant_id = h.tenant_id and s.event_id = h.event_id and s.n = w.n
    where s.status = 'open' and s.hold_id is null and s.order_id is null and s.ticket_type_id is not null
      and (h.best_of is null or (s.ticket_type_id = h.best_of and not s.accessible and not s.companion))
      and exists (select 1 from ${getTableName(events)} e where e.tenant_id = h.tenant_id and e.id = h.event_id and e.status = 'published')
    for update of s skip locked),
  counted as (select k, ticket_type_id, count(*)::int as c from locked group by k, ticket_type_id),
  verdict as (
    select h.k, h.tenant_id, h.event_id, h.hold_id,
      coalesce((select count(*) from locked l where l.k = h.k), 0) = wn.c as complete,
      not exists (select 1 from counted c join ${getTableName(ticketTypes)} t on t.tenant_id = h.tenant_id and t.id = c.ticket_type_id
                  where c.k = h.k and c.c > t.max_per_order) as within
    from h join wanted wn on wn.k = h.k),
  taken as (
    update ${getTableName(eventSeats)} s set hold_id = v.hold_id
    from locked l, verdict v
    where v.k = l.k and v.complete and v.within and s.tenant_id = v.tenant_id and s.event_id = v.event_id and s.n = l.n
    returning l.k, s.n, s.label, s.section, s.row_label, s.seat_label, s.ticket_type_id),
  hold as (
    insert into ${getTableName(seatHolds)} (tenant_id, id, event_id, token_hash, expires_at)
    select h.tenant_id, h.hold_id, h.event_id, h.token_hash, h.expires_at from h where h.k in (select k from taken)
    returning id),
  job as (
    insert into ${getTableName(jobs)} (name, payload, run_at, dedupe_key)
    select h.job_name, h.job_payload, h.expires_at, h.dedupe_key from h where h.hold_id in (select id from hold)
    on conflict (dedupe_key) do nothing
    returning dedupe_key)
  select v.k, v.complete, v.within,
    (select count(*)::int from hold x where x.id = v.hold_id) as held,
    case when not (v.complete and v.within) then
      (select coalesce(json_agg(json_build_array(s.n, s.label, s.status = 'open' and s.hold_id is null and s.order_id is null and s.ticket_type_id is not null) order by s.n), '[]')
       from w join ${getTableName(eventSeats)} s on s.tenant_id = v.tenant_id and s.event_id = v.event_id and s.n = w.n where w.k = v.k) end as seen,
    case when not (v.complete and v.within) then
      exists (select 1 from ${getTableName(events)} e where e.tenant_id = v.tenant_id and e.id = v.event_id and e.status = 'published') end as on_sale,
    coalesce((select json_agg(json_build_object('n', t.n, 'label', t.label, 'section', t.section, 'row', t.row_label, 'seat', t.seat_label,
      'ticketTypeId', t.ticket_type_id) order by t.n) from taken t where t.k = v.k), '[]') as seats,
    coalesce((select json_agg(json_build_array(c.ticket_type_id, c.c)) from counted c where c.k = v.k), '[]') as counted
  from verdict v order by v.k`;

/** Takes each hold's seats all or nothing, each hold on its own, in one statement (no two holds may share a seat). */
export async function takeSeatsBatch(db: Db, takes: TakeRequest[]): Promise<BatchOutcome[]> {
  const col = <T>(f: (t: TakeRequest) => T) => takes.map(f);
  const seatHold: number[] = [];
  const seatN: number[] = [];
  const seen = new Set<string>();
  takes.forEach((t, i) => {
    for (const n of t.seats) {
      const key = seatKey(t, n);
      if (seen.has(key)) throw new Error('two holds of one batch share a seat');
      seen.add(key);
      seatHold.push(i + 1);
      seatN.push(Math.trunc(n));
    }
  });
  // Arrays as PostgreSQL array literals (the same text for node-postgres and PGlite).
  const arr = (values: Array<string | null>) => `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
  const rows = await runPrepared(db, 'mq_seat_take_batch', TAKE_BATCH_SQL, [
    arr(col((t) => t.tenantId)),
    arr(col((t) => t.eventId)),
    arr(col((t) => t.bestOf)),
    arr(col((t) => t.holdId)),
    arr(col((t) => t.tokenHash)),
    arr(col((t) => t.expiresAt.toISOString())),
    arr(col((t) => t.job.name)),
    arr(col((t) => JSON.stringify(t.job.payload))),
    arr(col((t) => t.job.dedupeKey)),
    `{${seatHold.join(',')}}`,
    `{${seatN.join(',')}}`,
  ]);
  if (rows.length !== takes.length) throw new Error('seat hold batch answered another number of holds');
  return rows.map((r, i) => {
    const taken = asJson<HeldSeatRow[]>(r.seats).map((s) => ({ ...s, n: Number(s.n) }));
    const want = takes[i]!.seats.length;
    // Each hold is written only with all its seats; anything else would be a bug in the statement.
    if ((taken.length > 0) !== (Number(r.held) === 1) || (taken.length > 0 && taken.length !== want)) throw new Error('seat hold statement wrote a partial hold');
    const complete = rowBool(r.complete);
    const within = rowBool(r.within);
    const seen = complete && within ? null : asJson<Array<[number, string, boolean | string]>>(r.seen).map(([n, label, free]) => ({ n: Number(n), label, free: rowBool(free) }));
    return {
      complete,
      within,
      seats: taken,
      counted: asJson<Array<[string, number]>>(r.counted).map(([id, k]) => [id, Number(k)] as [string, number]),
      free: seen ? seen.filter((x) => x.free).length : want,
      refusal: seen ? { seen, onSale: rowBool(r.on_sale) } : null,
    };
  });
}
