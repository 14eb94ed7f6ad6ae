import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { eventSeats, seatHolds, tickets } from '../../db/schema/index.js';
import { seatHoldExpired } from './cart-seats.js';

// Issue 27 (second slice): a box-office sale of a seated event. The seller holds the seats first
// through the same seat holds as a buyer online (best available N together, or picked; the box
// office's own route), the sale checks them against its lines (cart-seats.ts checkCartSeats) and,
// inside its transaction, after its order, tickets and drawer and before its take (lock order: 1,
// 2, 2a, then 2b here, then 3 to 5), the hold's seats become the order's and each new ticket gets
// its seat, in two statements. The order's paid trigger then finds no live hold to move.

/** The held seats are the sale's order's, each on one of its tickets (by ticket type, in row and seat order); answers each ticket's seat. */
export async function sellHeldSeats(tx: Tx, p: { tenantId: string; eventId: string; orderId: string; holdId: string }): Promise<Map<string, string>> {
  // The hold, then its seats (2b): the seats depend on the hold's row, so it is locked first.
  const moved = (await tx.execute(sql`
    with h as (
      update ${seatHolds} set status = 'sold', order_id = ${p.orderId}::uuid
      where tenant_id = ${p.tenantId}::uuid and id = ${p.holdId}::uuid and event_id = ${p.eventId}::uuid and status = 'live' and expires_at > now()
      returning id),
    s as (
      update ${eventSeats} set hold_id = null, order_id = ${p.orderId}::uuid
      where tenant_id = ${p.tenantId}::uuid and event_id = ${p.eventId}::uuid and hold_id = (select id from h)
      returning n)
    select (select count(*) from h)::int as holds, (select count(*) from s)::int as seats`)) as unknown as { rows: Array<{ holds: number; seats: number }> };
  if (Number(moved.rows[0]?.holds) !== 1) throw seatHoldExpired();
  const paired = (await tx.execute(sql`
    with sr as (
      select n, label, ticket_type_id, row_number() over (partition by ticket_type_id order by row_key, seat_index) as k
      from ${eventSeats} where tenant_id = ${p.tenantId}::uuid and event_id = ${p.eventId}::uuid and order_id = ${p.orderId}::uuid and ticket_id is null),
    tr as (
      select id, ticket_type_id, row_number() over (partition by ticket_type_id order by ticket_uid) as k
      from ${tickets} where tenant_id = ${p.tenantId}::uuid and order_id = ${p.orderId}::uuid and seat_label is null),
    pairs as (select tr.id as ticket_id, sr.n, sr.label from sr join tr using (ticket_type_id, k)),
    seated as (
      update ${eventSeats} es set ticket_id = pairs.ticket_id from pairs
      where es.tenant_id = ${p.tenantId}::uuid and es.event_id = ${p.eventId}::uuid and es.n = pairs.n
      returning es.n)
    update ${tickets} t set seat_label = pairs.label from pairs
    where t.tenant_id = ${p.tenantId}::uuid and t.id = pairs.ticket_id
    returning t.id, t.seat_label, pairs.n, (select count(*) from seated)::int as seated`)) as unknown as { rows: Array<{ id: string; seat_label: string; n: number | string }> };
  // In seat order (the map's insertion order), as the seat hold lists them, so the receipt matches it.
  const inOrder = [...paired.rows].sort((a, b) => Number(a.n) - Number(b.n));
  return new Map(inOrder.map((r) => [r.id, r.seat_label]));
}
