import { randomBytes, randomUUID } from 'node:crypto';
import { M, WAITING_ROOM_ADMISSION_ORDERS, type THoldCartResponse, type ZHoldCartRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { DomainError, notFound } from '../../platform/errors.js';
import { HOLD_EXPIRY_JOB, releaseHold } from '../orders/holds.js';
import { tokenMatches, viewTokenHash } from '../orders/public-order.js';
import * as ordersRepo from '../orders/repository.js';
import { cartConflict, checkCart } from './cart.js';
import { closeCheckout, newOrderUid, refusal } from './place-order.js';
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
  // The one quote (pricing.ts): no code and no donation yet; PLACE ORDER prices the cart again with them.
  const { lines, config, priced, breakdown } = quoteCart(snapshot, { lines: input.lines, discountCode: null, donation: 0, donationField: 'donation', now });

  const orderId = randomUUID();
  const orderUid = newOrderUid();
  const token = randomBytes(24).toString('base64url');
  const holdExpiresAt = new Date(now.getTime() + deps.config.holdMinutes * 60_000);
  const outcome = await repo.holdOrder(deps.db, {
    order: {
      tenantId,
      id: orderId,
      orderUid,
      eventId,
      status: 'draft',
      source: 'online',
      // No one's yet: PLACE ORDER writes the buyer's details on the order that replaces it.
      email: '',
      firstName: '',
      lastName: '',
      phone: null,
      address1: null,
      address2: null,
      city: null,
      state: null,
      zipCode: null,
      country: null,
      optInEmail: false,
      optInText: false,
      discountCode: null,
      discountCodeId: null,
      ticketCount: priced.ticketCount,
      subtotal: priced.subtotal,
      surcharge: priced.surcharge,
      processingFee: priced.processingFee,
      gatewayProcessingFee: priced.gatewayProcessingFee,
      discount: priced.discount,
      vat: priced.vat,
      taxRate: config.settings.chargeTax ? (config.settings.taxRateBp ?? 0) : 0,
      donation: 0,
      donationFee: 0,
      charityId: null,
      charityName: null,
      totalAmount: priced.totalAmount,
      tenantTotal: priced.sellerNet + priced.vat,
      platformTotal: priced.platformTotal,
      breakdown: JSON.stringify(priced),
      holdExpiresAt,
      viewTokenHash: viewTokenHash(token),
      userId: site.user?.id ?? null,
      waitingRoomVisitorId: opts.admission ?? null,
      waitlistEntryId: null,
      paymentProvider: null,
    },
    lines,
    discountCodeId: null,
    admissionOrders: opts.admission ? WAITING_ROOM_ADMISSION_ORDERS : null,
    job: { name: HOLD_EXPIRY_JOB, payload: { tenantId, orderId }, runAt: holdExpiresAt, dedupeKey: `${HOLD_EXPIRY_JOB}:${orderId}` },
  });
  if (!outcome.ok) throw refusal(outcome, snapshot, input.lines, now);
  return { orderUID: orderUid, orderToken: token, holdExpiresAt: holdExpiresAt.toISOString(), breakdown };
}
