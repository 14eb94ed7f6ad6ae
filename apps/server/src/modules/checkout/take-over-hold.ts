import { M } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { DomainError } from '../../platform/errors.js';
import * as ordersRepo from '../orders/repository.js';
import * as repo from './repository.js';
import type { CheckoutSnapshot, HoldOutcome, HoldRequest } from './repository.js';

// Issue 21.8: PLACE ORDER in place of the hold the checkout took when it opened (hold-cart.ts).
// Giving the hold's tickets back and taking them again would leave them free for a moment, and in
// a rush another buyer's hold takes them then (the PostgreSQL race test saw four buyers in five
// lose their held tickets that way). So when the cart is the one held, the order takes the hold's
// tickets as they are, in one transaction: no ticket type row is touched.

/** waitlistEntryId: the hold is a waiting-list offer (modules/waitlist), bought only as offered, by the person it was offered to. */
export type CheckoutHold = { id: string; lines: Map<string, number>; waitlistEntryId: string | null };

/**
 * The checkout's own hold of this event (a draft without a buyer yet) when it holds exactly these
 * lines at the prices and names the event has now; null otherwise (PLACE ORDER then gives back
 * whatever it holds and takes the tickets afresh, as before).
 */
export async function checkoutHoldFor(
  deps: Deps,
  p: { snapshot: CheckoutSnapshot; orderUid: string; lines: ReadonlyMap<string, number>; email: string },
): Promise<CheckoutHold | null> {
  const { snapshot } = p;
  const hold = await ordersRepo.findOrderByUid(deps.db, snapshot.event.tenantId, p.orderUid);
  if (!hold || hold.eventId !== snapshot.event.id || hold.status !== 'draft') return null;
  // Issue 24: a waiting-list offer holds its tickets for the e-mail address it was offered to, and
  // only as offered: never given back here for another cart (the offer would be lost).
  const offer = hold.waitlistEntryId !== null;
  if (offer && hold.email.toLowerCase() !== p.email.toLowerCase()) throw new DomainError('WAITLIST_OFFER_NOT_YOURS', M.waitlistOfferNotYours);
  if (!offer && hold.email !== '') return null;
  const held = await ordersRepo.findLines(deps.db, hold.tenantId, hold.id);
  const types = new Map(snapshot.types.map((t) => [t.id, t]));
  const same =
    held.length === p.lines.size &&
    held.every((l) => {
      const t = types.get(l.ticketTypeId);
      return p.lines.get(l.ticketTypeId) === l.quantity && t && t.price === l.unitPrice && t.name === l.ticketName;
    });
  if (!same) {
    if (offer) throw new DomainError('CART_CHANGED', M.reviewYourCart);
    return null;
  }
  return { id: hold.id, lines: new Map(held.map((l) => [l.ticketTypeId, l.quantity])), waitlistEntryId: hold.waitlistEntryId };
}

/** The event as the buyer's cart sees it: the tickets their hold has count as still there for them. */
export function withHeldTickets(snapshot: CheckoutSnapshot, hold: CheckoutHold): CheckoutSnapshot {
  const total = [...hold.lines.values()].reduce((n, q) => n + q, 0);
  return {
    ...snapshot,
    event: { ...snapshot.event, remainingCapacity: snapshot.event.remainingCapacity === null ? null : snapshot.event.remainingCapacity + total },
    types: snapshot.types.map((t) => (hold.lines.has(t.id) ? { ...t, remaining: t.remaining + hold.lines.get(t.id)! } : t)),
  };
}

class Refused extends Error {
  constructor(readonly outcome: HoldOutcome) {
    super('hold take-over refused');
  }
}

/**
 * The order replaces the hold and keeps its tickets. Locks in the server's order: the hold's order
 * row, then the discount code, then the event (as releasing a hold and mq_take_holds lock codes
 * before events). The checks are mq_take_holds' for what the order adds to the hold: a usable
 * discount code (one use taken), the event still on sale, and the donation's charity still the
 * event's. 'gone' when the hold ran out or was replaced meanwhile: the caller takes tickets afresh.
 */
export async function takeOverHold(deps: Deps, hold: CheckoutHold, request: HoldRequest): Promise<HoldOutcome | 'gone'> {
  const { order } = request;
  try {
    return await deps.db.transaction(async (tx) => {
      const locked = await repo.lockHoldOrder(tx, order.tenantId, hold.id);
      if (locked?.status !== 'draft') return 'gone' as const;
      if (request.discountCodeId && !(await repo.takeDiscountUse(tx, order.tenantId, request.discountCodeId))) throw new Refused({ ok: false, reason: 'discount' });
      const event = await repo.shareEvent(tx, order.tenantId, order.eventId);
      if (event?.status !== 'published') throw new Refused({ ok: false, reason: 'notOnSale' });
      if (order.charityId && event.charityId !== order.charityId) throw new Refused({ ok: false, reason: event.charityId ? 'charityChanged' : 'noCharity' });
      await repo.replaceHoldWithOrder(tx, { holdId: hold.id, request });
      await deps.jobs.enqueue(tx, request.job.name, request.job.payload, { runAt: request.job.runAt, dedupeKey: request.job.dedupeKey });
      return { ok: true } as const;
    });
  } catch (err) {
    if (err instanceof Refused) return err.outcome;
    throw err;
  }
}
