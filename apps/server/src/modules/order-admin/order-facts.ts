import type { DbOrTx, Tx } from '../../db/client.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { applyInventory } from '../orders/repository.js';
import { freeTicketSeats, retakeTicketSeat } from '../seating/ticket-seats.js';
import { isOfflineOrder } from './box-office-refund.js';
import * as repo from './repository.js';

// What the order-admin use cases share: the order found by its event and UID, what its price
// breakdown recorded, whether it can be refunded, and seats moved back to sale or taken again.

export function breakdownExtras(breakdown: string | null): { donationFee: number; channelCharge: number; donationNet: number | null } {
  if (!breakdown) return { donationFee: 0, channelCharge: 0, donationNet: null };
  try {
    const b = JSON.parse(breakdown) as { donationFee?: unknown; channelCharge?: unknown; donationNet?: unknown };
    const n = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : 0);
    return { donationFee: n(b.donationFee), channelCharge: n(b.channelCharge), donationNet: typeof b.donationNet === 'number' && Number.isSafeInteger(b.donationNet) ? b.donationNet : null };
  } catch {
    return { donationFee: 0, channelCharge: 0, donationNet: null };
  }
}

/** Whether the order took money that can be given back (spec silent; docs/decisions.md). */
export function isRefundable(order: repo.OrderRow): boolean {
  return (repo.PAID_STATUSES as readonly string[]).includes(order.status) && order.totalAmount > 0 && order.paymentMethod !== 'free' && (!!order.chargeId || isOfflineOrder(order));
}

export async function findOrder(db: DbOrTx, ctx: TenantCtx, eventId: string, orderUid: string): Promise<repo.OrderRow> {
  if (!UUID_RE.test(eventId) || orderUid.length > 64) throw notFound();
  const order = await repo.findOrderOfEvent(db, ctx.tenantId, eventId, orderUid);
  if (!order) throw notFound();
  return order;
}

/**
 * Gives tickets' places back to sale (release) or takes them again (take, refused when sold out).
 * A seated ticket's seat goes with it (issue 27): freed, or its own seat taken back (refused when
 * it was sold again). Lock order: the seats (2b) before the ticket types' counts (3).
 */
export async function moveSeats(
  tx: Tx,
  order: repo.OrderRow,
  tickets: ReadonlyArray<Pick<repo.TicketRow, 'id' | 'ticketTypeId' | 'seatLabel'>>,
  direction: 'release' | 'take',
): Promise<{ ok: true } | { ok: false; seatTaken: string | null }> {
  const seated = tickets.filter((t) => t.seatLabel !== null);
  if (direction === 'release') {
    await freeTicketSeats(tx, { tenantId: order.tenantId, eventId: order.eventId, ticketIds: seated.map((t) => t.id) });
  } else {
    for (const t of seated) {
      const ok = await retakeTicketSeat(tx, { tenantId: order.tenantId, eventId: order.eventId, orderId: order.id, ticketId: t.id, seatLabel: t.seatLabel });
      if (!ok) return { ok: false, seatTaken: t.seatLabel };
    }
  }
  const deltas = new Map<string, number>();
  for (const t of tickets) deltas.set(t.ticketTypeId, (deltas.get(t.ticketTypeId) ?? 0) + (direction === 'take' ? 1 : -1));
  const result = await applyInventory(tx, { tenantId: order.tenantId, eventId: order.eventId, deltas });
  return result.ok ? { ok: true } : { ok: false, seatTaken: null };
}
