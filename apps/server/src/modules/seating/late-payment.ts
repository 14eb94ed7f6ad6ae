import type { DbOrTx } from '../../db/client.js';
import * as repo from './repository.js';

// Issue 27 (second slice): a payment that arrives after the order's seat hold ran out. General
// admission takes the same tickets again if they are still there, else the payment is given back
// (orders/payment.ts markOrderPaid); a seated order does the same with its seats: the seats its
// hold had are taken again if every one is still free, and the hold lives again so that the
// order's paid trigger makes them the order's. A seat someone else took meanwhile: the caller
// gives the payment back, so a seat never has two tickets and no ticket of a seated type goes
// without its seat. Called under the order's lock (lock order 1, then 2b here, before the ticket
// types' counts, 3).

export type SeatsForPayment = 'ok' | 'lost';

export async function seatsForLatePayment(tx: DbOrTx, p: { tenantId: string; eventId: string; orderId: string }): Promise<SeatsForPayment> {
  const holds = await repo.lockSeatHoldsOfOrder(tx, p.tenantId, p.orderId);
  if (holds.length === 0 || holds.some((h) => h.status === 'live' || h.status === 'sold')) return 'ok';
  // Every hold of the order was released: take the newest one's seats again.
  const last = holds.filter((h) => h.releasedSeats && h.releasedSeats.length > 0).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  if (!last) return 'lost';
  const seats = last.releasedSeats!;
  const got = await repo.reviveSeatHold(tx, { tenantId: p.tenantId, eventId: p.eventId, holdId: last.id, seats, until: new Date(Date.now() + 60_000) });
  return got === seats.length ? 'ok' : 'lost';
}
