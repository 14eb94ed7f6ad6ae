import { attendeeLines, isEventPublic, M, mergeCartLines, waitingRoomOrderLimit, type TCreateOrderResponse, type ZCreateOrderRequest } from '@marquee/core';
import type { z } from 'zod';
import { publicOrigin } from '../../config.js';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { AppError, assertNever, badRequest, DomainError, notFound } from '../../platform/errors.js';
import { embedOriginsOf, isOnAllowedOrigin } from '../embed/allowed-origins.js';
import { releaseHold } from '../orders/holds.js';
import { markPaidInTx } from '../orders/payment.js';
import * as ordersRepo from '../orders/repository.js';
import { checkNewOrderAnswers, recordNewOrderAnswers } from '../questions/order-answers.js';
import { attachCartSeats, checkCartSeats, seatHoldExpired } from '../seating/cart-seats.js';
import { cartConflict, checkCart } from './cart.js';
import { APP_SALE, charityChanged, invalidDiscount, noCharity, ONLINE_SALE, quoteCart } from './pricing.js';
import { holdRequestOf, newHold } from './order-row.js';
import * as repo from './repository.js';
import { checkoutHoldFor, takeOverHold, withHeldTickets } from './take-over-hold.js';
import type { CheckoutSnapshot, HoldOutcome } from './repository.js';

type CartLines = ReadonlyArray<{ ticketTypeId: string; quantity: number }>;

/**
 * A return URL must come back to this site, or (issue 28) to one of the tenant's websites allowed
 * to embed its widget (`embedOrigins`, compared by exact origin): no open redirect through the
 * payment page.
 */
function returnUrl(given: string | undefined, fallbackPath: string, origin: string, host: string, orderUid: string | null, embedOrigins: readonly string[]): string {
  const allowed = new Set([host.toLowerCase(), new URL(origin).host.toLowerCase()]);
  let url: URL;
  if (given) {
    try {
      url = new URL(given);
    } catch {
      throw badRequest(M.redirectUrlInvalid);
    }
    if (!['http:', 'https:'].includes(url.protocol)) throw badRequest(M.redirectUrlInvalid);
    if (!allowed.has(url.host.toLowerCase()) && !isOnAllowedOrigin(url, embedOrigins)) throw badRequest(M.redirectUrlInvalid);
  } else url = new URL(fallbackPath, origin);
  // spec §2: /{eventName}/success?orderID={draft order id}
  if (orderUid) url.searchParams.set('orderID', orderUid);
  return url.toString();
}

/** The tenant's embedding websites, read only when a return address is not on this site. */
async function embedOriginsFor(deps: Deps, tenantId: string, host: string, urls: ReadonlyArray<string | undefined>): Promise<string[]> {
  const offSite = urls.some((u) => {
    try {
      return !!u && new URL(u).host.toLowerCase() !== host.toLowerCase();
    } catch {
      return false;
    }
  });
  return offSite ? embedOriginsOf(deps.db, tenantId) : [];
}

type CreateOrderInput = z.output<typeof ZCreateOrderRequest>;

/**
 * PLACE ORDER (spec §4 Checkout, §7 Create order). One read of the event, its ticket types, fees,
 * discount code and charity; one statement that takes the tickets and writes the draft order with
 * the server's price (the donation included) and its hold-expiry job (repo.holdOrder); then the
 * payment gateway's checkout. Answers {message: payment URL, orderUID, draftOrderUID}.
 */
export async function createOrder(opts: {
  deps: Deps;
  site: SiteCtx;
  host: string;
  eventId: string;
  input: CreateOrderInput;
  /** The waiting-room admission the order is placed with (its visitor id), when the event's room is on. */
  admission?: string | null;
  /** Where it is sold: the website (ONLINE, the default) or an app with an API key (APP, place-app-order.ts). */
  channel?: 'ONLINE' | 'APP';
}): Promise<TCreateOrderResponse> {
  const { deps, site, eventId, input } = opts;
  const tenantId = site.tenant.id;
  const contact = input.order;
  const read = () => repo.findCheckoutSnapshot(deps.db, { tenantId, eventId, discountCode: contact.discountCode });
  // Issue 24: the attendees' names and the answers, checked (the field's own message) before anything is held.
  const [first, checkedAnswers] = await Promise.all([
    read(),
    checkNewOrderAnswers({ db: deps.db, tenantId, eventId, lines: attendeeLines(mergeCartLines(input.lines)), input: { answers: input.answers, attendees: input.attendees } }),
  ]);
  let snapshot = first;
  // An event the public may not see (core isEventPublic) and never saw is not found; one that was
  // published but is not on sale any more (unpublished or cancelled while the buyer was at checkout)
  // is 'no longer on sale'.
  if (!snapshot || (!isEventPublic(snapshot.event) && snapshot.event.publishedAt === null)) throw notFound();
  if (snapshot.event.status !== 'published') throw new DomainError('EVENT_NOT_ON_SALE', M.eventNotOnSale);

  // A draft this browser placed before (a declined card, back from the gateway) gives its tickets
  // back first, so the attendee does not compete with their own hold. It is 'replaced', never paid:
  // its checkout is closed, and a payment that still reaches it is refunded (markOrderPaid).
  // Issue 21.8: the hold the checkout took when it opened is taken over as it is when it holds
  // this cart (take-over-hold.ts), so its tickets are never free for another buyer in between.
  const held = input.draftOrderUID
    ? await checkoutHoldFor(deps, { snapshot, orderUid: input.draftOrderUID, lines: mergeCartLines(input.lines), email: contact.email })
    : null;
  if (input.draftOrderUID && !held) {
    const where = { tenantId, eventId, orderUid: input.draftOrderUID, email: contact.email };
    // Or that hold for another cart, given back like a declined card's draft.
    const replaced = await deps.db.transaction(
      async (tx) => (await releaseHold(tx, where, false, 'replaced')) ?? (await releaseHold(tx, { ...where, email: '' }, false, 'replaced')),
    );
    if (replaced) {
      await closeCheckout(deps, { tenantId, orderId: replaced.id, sessionId: replaced.paymentSessionId });
      snapshot = (await read()) ?? snapshot;
    }
  }
  const { event, types } = held ? withHeldTickets(snapshot, held) : snapshot;

  const now = new Date();
  const check = checkCart(event, types, input.lines, now);
  if (check.blocked) throw cartConflict(check);
  // Issue 27: the cart's seated tickets are the seats this browser holds (seating/cart-seats.ts).
  const seats = await checkCartSeats({ deps, tenantId, eventId, lines: input.lines, seatHold: input.seatHold, seated: snapshot.seatedTypeIds });
  const quote = quoteCart(snapshot, {
    lines: input.lines,
    discountCode: contact.discountCode,
    donation: contact.donation,
    donationField: 'order.donation',
    now,
    sale: opts.channel === 'APP' ? APP_SALE : ONLINE_SALE,
  });
  const { priced, breakdown } = quote;

  const hold = newHold(now, deps.config.holdMinutes);
  const { orderId, orderUid, token, holdExpiresAt } = hold;
  const origin = publicOrigin(deps.config, site.tenant.url);
  const embedOrigins = await embedOriginsFor(deps, tenantId, opts.host, [input.successUrl, input.cancelUrl]);
  const successUrl = returnUrl(input.successUrl, `/${event.urlName}/success`, origin, opts.host, orderUid, embedOrigins);
  const cancelUrl = returnUrl(input.cancelUrl, `/${event.urlName}/cart`, origin, opts.host, null, embedOrigins);
  const free = priced.totalAmount === 0;

  const request = holdRequestOf({
    tenantId,
    eventId,
    hold,
    source: input.source,
    buyer: contact,
    quote,
    userId: site.user?.id ?? null,
    admission: opts.admission ?? null,
    waitlistEntryId: held?.waitlistEntryId ?? null,
    paymentProvider: free ? null : deps.payments.name,
    channel: opts.channel ?? 'ONLINE',
  });
  const takenOver = held ? await takeOverHold(deps, held, request) : 'gone';
  const outcome = takenOver === 'gone' ? await repo.holdOrder(deps.db, request) : takenOver;
  if (!outcome.ok) throw refusal(outcome, snapshot, input.lines, now);
  // Issue 27: the seats go with the order (before a free order is paid: payment makes them its own).
  if (seats && !(await attachCartSeats(deps, { tenantId, eventId, seats, orderId, until: holdExpiresAt }))) {
    await deps.db.transaction((tx) => releaseHold(tx, { orderId }, false));
    throw seatHoldExpired();
  }
  // Issue 24: the attendees and answers (one statement), written while the gateway opens the
  // checkout. The tickets are not kept without them: a failed write gives the hold back at once (and
  // closes the checkout; a payment that still reaches the draft is refunded, as a replaced one's is).
  const recorded: Promise<unknown> = checkedAnswers
    ? recordNewOrderAnswers(deps.db, { tenantId, eventId, orderId, checked: checkedAnswers }).then(
        () => null,
        (err: unknown) => err ?? new Error('answers not recorded'),
      )
    : Promise.resolve(null);
  const answersFailed = async (err: unknown, sessionId: string | null): Promise<never> => {
    deps.log.error({ err, orderId }, 'attendee answers could not be recorded');
    await deps.db.transaction((tx) => releaseHold(tx, { orderId }, false));
    if (sessionId !== null) await closeCheckout(deps, { tenantId, orderId, sessionId });
    throw err;
  };

  const answer = { orderUID: orderUid, draftOrderUID: orderUid, orderToken: token, holdExpiresAt: holdExpiresAt.toISOString(), breakdown };
  if (free) {
    const failed = await recorded;
    if (failed) await answersFailed(failed, null);
    await deps.db.transaction((tx) => markPaidInTx(deps, tx, { tenantId, orderId, provider: 'none', sessionId: null, chargeId: null, paymentMethod: 'free' }));
    return { ...answer, message: successUrl };
  }

  let session: Awaited<ReturnType<typeof deps.payments.createCheckout>>;
  try {
    session = await deps.payments.createCheckout({
      orderId,
      orderUid,
      tenantId,
      amount: priced.totalAmount,
      currency: 'usd',
      email: contact.email,
      description: `${event.name}: ${priced.ticketCount} ticket${priced.ticketCount === 1 ? '' : 's'}`,
      successUrl,
      cancelUrl,
      expiresAt: holdExpiresAt,
      idempotencyKey: `checkout:${orderId}`,
    });
  } catch (err) {
    await recorded;
    // No way to pay: give the tickets back at once rather than after the hold.
    deps.log.error({ err, orderId }, 'payment checkout failed');
    await deps.db.transaction((tx) => releaseHold(tx, { orderId }, false));
    throw new AppError('UNAVAILABLE', M.paymentUnavailable);
  }
  const failed = await recorded;
  if (failed) await answersFailed(failed, session.sessionId);
  // Kept so that a replaced draft's checkout can be closed, unless the gateway finds it by order.
  if (!deps.payments.expiresByOrder) await ordersRepo.updateOrder(deps.db, tenantId, orderId, { paymentSessionId: session.sessionId });
  return { ...answer, message: session.url };
}

/**
 * The hold was refused and nothing was written: its verdict says why (spec §8), and a shortage
 * what is left, read under the hold's locks; the cart is checked again against that.
 */
export function refusal(outcome: Exclude<HoldOutcome, { ok: true }>, snapshot: CheckoutSnapshot, lines: CartLines, now: Date): DomainError {
  switch (outcome.reason) {
    case 'notOnSale':
      return new DomainError('EVENT_NOT_ON_SALE', M.eventNotOnSale);
    case 'admission':
      return new DomainError('WAITING_ROOM_ORDER_LIMIT', waitingRoomOrderLimit);
    case 'discount':
      return invalidDiscount();
    case 'noCharity':
      return noCharity('order.donation');
    case 'charityChanged':
      return charityChanged('order.donation');
    case 'changed':
      return new DomainError('CART_CHANGED', M.reviewYourCart);
    case 'ticketType':
    case 'capacity': {
      const { remaining, capacity } = outcome.stock;
      const types = snapshot.types.map((t) => (Object.hasOwn(remaining, t.id) ? { ...t, remaining: remaining[t.id]! } : t));
      const again = checkCart({ ...snapshot.event, remainingCapacity: capacity }, types, lines, now);
      if (again.blocked) return cartConflict(again);
      const overCapacity = outcome.reason === 'capacity';
      return cartConflict({
        ...again,
        valid: false,
        blocked: true,
        blockReason: overCapacity ? 'overCapacity' : 'lineProblems',
        title: overCapacity ? M.insufficientCapacity : M.ticketAvailabilityIssue,
      });
    }
    default:
      return assertNever(outcome);
  }
}

/** Best effort: a checkout left open is refunded by the webhook if it is paid anyway. */
export async function closeCheckout(deps: Deps, p: { tenantId: string; orderId: string; sessionId: string | null }) {
  try {
    await deps.payments.expireCheckout(p);
  } catch (err) {
    deps.log.warn({ err, orderId: p.orderId }, 'could not close the checkout of a replaced draft');
  }
}
