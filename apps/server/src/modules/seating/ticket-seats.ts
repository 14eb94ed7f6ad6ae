import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { eventSeats } from '../../db/schema/index.js';

// Issue 27 (second slice): a sold seat goes back on sale when its ticket does, as general
// admission's count does (order-admin/order-facts.ts moveSeats): a refunded or voided ticket frees
// its seat, and an unvoided ticket takes its own seat again, or is refused when it was sold again.
// Lock order 2b: the caller holds the order's lock (and its tickets'); the seats are locked here
// by seat number, before the ticket types' counts (kind 3) are moved.

/** Frees the seats of these tickets (their order keeps nothing of them); answers how many were freed. */
export async function freeTicketSeats(tx: DbOrTx, p: { tenantId: string; eventId: string; ticketIds: string[] }): Promise<number> {
  if (p.ticketIds.length === 0) return 0;
  const ids = sql.join(
    p.ticketIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  // Seats by number first (a seat hold takes its seats in number order too: no deadlock between them).
  await tx.execute(sql`select n from ${eventSeats}
    where tenant_id = ${p.tenantId} and event_id = ${p.eventId} and ticket_id in (${ids})
    order by n for update`);
  const freed = await tx
    .update(eventSeats)
    .set({ orderId: null, ticketId: null })
    .where(and(eq(eventSeats.tenantId, p.tenantId), eq(eventSeats.eventId, p.eventId), sql`${eventSeats.ticketId} in (${ids})`))
    .returning({ n: eventSeats.n });
  return freed.length;
}

/**
 * An unvoided ticket takes back the seat printed on it, if it is still free (nobody holds or bought
 * it meanwhile). True when taken, or when the ticket has no seat; false: the seat went to someone else.
 */
export async function retakeTicketSeat(
  tx: DbOrTx,
  p: { tenantId: string; eventId: string; orderId: string; ticketId: string; seatLabel: string | null },
): Promise<boolean> {
  if (p.seatLabel === null) return true;
  const [seat] = await tx
    .select({ n: eventSeats.n, orderId: eventSeats.orderId, ticketId: eventSeats.ticketId })
    .from(eventSeats)
    .where(and(eq(eventSeats.tenantId, p.tenantId), eq(eventSeats.eventId, p.eventId), eq(eventSeats.label, p.seatLabel)));
  // The seating plan was replaced since (no seat of that name): nothing to take back.
  if (!seat) return true;
  if (seat.ticketId === p.ticketId) return true;
  const taken = await tx
    .update(eventSeats)
    .set({ orderId: p.orderId, ticketId: p.ticketId })
    .where(
      and(
        eq(eventSeats.tenantId, p.tenantId),
        eq(eventSeats.eventId, p.eventId),
        eq(eventSeats.n, seat.n),
        eq(eventSeats.status, 'open'),
        sql`${eventSeats.holdId} is null and ${eventSeats.orderId} is null`,
      ),
    )
    .returning({ n: eventSeats.n });
  return taken.length === 1;
}
