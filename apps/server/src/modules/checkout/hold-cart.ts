import { M, type THoldCartResponse, type ZHoldCartRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { DomainError, notFound } from '../../platform/errors.js';
import { releaseHold } from '../orders/holds.js';
import { attachCartSeats, checkCartSeats, seatHoldExpired } from '../seating/cart-seats.js';
import { tokenMatches } from '../orders/public-order.js';
import * as ordersRepo from '../orders/repository.js';
import { cartConflict, checkCart } from './cart.js';
import { holdRequestOf, newHold, NO_BUYER } from './order-row.js';
import { closeCheckout, refusal } from './place-order.js';
import { quoteCart } from './pricing.js';
import * as repo from './repository.js';

/**
 * Issue 21.8: the checkout holds the cart's tickets when it opens, as ticketing sites do, so the
 * buyer fills in the form with the tickets theirs and a timer that counts down from the start. The
 * hold is a draft order without contact details, taken by the same statement as PLACE ORDER's (same
 * checks, same locks, same expiry job); PLACE ORDER then takes its place (draftOrderUID), exactly
 * as it replaces the draft of a declined card. No payment is opened and nothing is charged.
 */
export async function holdCart(opts: {
  deps: Deps;
  site: SiteCtx;
  eventId: string;
  input: z.output<typeof ZHoldCartRequest>;
  /** The waiting-room admission (its visitor id) when the event's room is on: a hold counts as one of its orders. */
  admission?: string | null;
}): Promise<THoldCartResponse> {
  const { deps, site, eventId, input } = opts;
  const tenantId = site.tenant.id;
  const read = () => repo.findCheckoutSnapshot(deps.db, { tenantId, eventId, discountCode: null });
  let snapshot = await read();
  if (!snapshot || (snapshot.event.status !== 'published' && snapshot.event.publishedAt === null)) throw notFound();
  if (snapshot.event.status !== 'published') throw new DomainError('EVENT_NOT_ON_SALE', M.eventNotOnSale);

  // This browser's earlier hold (a changed cart, or a draft of a declined card) gives its tickets
  // back first. Its view token proves it is theirs; another's order id alone releases nothing.
  if (input.draft) {
    const earlier = await ordersRepo.findOrderByUid(deps.db, tenantId, input.draft.orderUID);
    if (earlier && earlier.eventId === eventId && earlier.status === 'draft' && !earlier.waitlistEntryId && tokenMatches(earlier.viewTokenHash, input.draft.token)) {
      const released = await deps.db.transaction((tx) => releaseHold(tx, { orderId: earlier.id }, false, 'replaced'));
      if (released) {
        if (released.paymentSessionId || deps.payments.expiresByOrder) await closeCheckout(deps, { tenantId, orderId: released.id, sessionId: released.paymentSessionId });
        snapshot = (await read()) ?? snapshot;
      }
    }
  }
  const { event, types } = snapshot;

  const now = new Date();
  const check = checkCart(event, types, input.lines, now);
  if (check.blocked) throw cartConflict(check);
  // Issue 27: the cart's seated tickets are the seats this browser holds (seating/cart-seats.ts).
  const seats = await checkCartSeats({ deps, tenantId, eventId, lines: input.lines, seatHold: input.seatHold, seated: snapshot.seatedTypeIds });
  // The one quote (pricing.ts): no code and no donation yet; PLACE ORDER prices the cart again with them.
  const quote = quoteCart(snapshot, { lines: input.lines, discountCode: null, donation: 0, donationField: 'donation', now });
  const hold = newHold(now, deps.config.holdMinutes);
  const outcome = await repo.holdOrder(
    deps.db,
    holdRequestOf({ tenantId, eventId, hold, source: 'online', buyer: NO_BUYER, quote, userId: site.user?.id ?? null, admission: opts.admission ?? null, paymentProvider: null }),
  );
  if (!outcome.ok) throw refusal(outcome, snapshot, input.lines, now);
  if (seats && !(await attachCartSeats(deps, { tenantId, eventId, seats, orderId: hold.orderId, until: hold.holdExpiresAt }))) {
    await deps.db.transaction((tx) => releaseHold(tx, { orderId: hold.orderId }, false));
    throw seatHoldExpired();
  }
  return { orderUID: hold.orderUid, orderToken: hold.token, holdExpiresAt: hold.holdExpiresAt.toISOString(), breakdown: quote.breakdown };
}
