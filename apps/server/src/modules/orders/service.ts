import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  M,
  cartBlockTitle,
  cartProblemTitle,
  validateCart,
  type CartValidation,
  type TCartValidation,
  type TCreateOrderResponse,
  type TPublicOrder,
  type ZCreateOrderRequest,
} from '@marquee/core';
import type { z } from 'zod';
import { publicOrigin } from '../../config.js';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { HostTenant } from '../../platform/auth/context.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import type { EventRow } from '../events/repository.js';
import * as eventsRepo from '../events/repository.js';
import type { TicketTypeRow } from '../ticket-types/repository.js';
import { donationFor, invalidDiscount, priceLines, pricingConfigOf, storedCharges, toBreakdown, toPriceDiscount, usableDiscount } from './pricing.js';
import * as repo from './repository.js';

export const HOLD_EXPIRY_JOB = 'orders.expire-hold';
export const RECONCILE_JOB = 'orders.reconcile';
export const FULFIL_JOB = 'orders.fulfil';
const RECONCILE_EVERY_MS = 60_000;
const RECONCILE_BATCH = 200;

// ---- cart problems ---------------------------------------------------------------------------

/** Tickets ran out between the cart and PLACE ORDER: a 409 the web shows as 'Ticket Availability Issue'. */
export class CartConflictError extends AppError {
  readonly validation: TCartValidation;
  constructor(validation: TCartValidation) {
    super('CONFLICT', M.ticketsNoLongerAvailable);
    this.validation = validation;
  }
}

/** What the event can still sell: its remaining capacity, else what its ticket types have left. */
export function remainingCapacityOf(event: Pick<EventRow, 'remainingCapacity'>, types: readonly TicketTypeRow[]): number {
  if (event.remainingCapacity !== null) return event.remainingCapacity;
  return types.filter((t) => t.active).reduce((sum, t) => sum + Math.max(0, t.remaining), 0);
}

export function toCartTicketType(t: TicketTypeRow) {
  return {
    id: t.id,
    name: t.name,
    remainingQuantity: t.remaining,
    salesAvailability: t.salesAvailability,
    salesStartAt: t.salesStartAt,
    salesEndAt: t.salesEndAt,
    otherTicketTypeId: t.otherTicketTypeId,
    active: t.active,
    minTicketPerOrder: t.minPerOrder,
    maxTicketPerOrder: t.maxPerOrder,
  };
}

export function toCartValidation(v: CartValidation, remainingCapacity: number): TCartValidation {
  return {
    valid: !v.blocked,
    blocked: v.blocked,
    blockReason: v.blockReason,
    title: cartBlockTitle(v.blockReason),
    totalQuantity: v.totalQuantity,
    remainingCapacity,
    problems: v.problems.map((p) => ({ ...p, title: cartProblemTitle(p.kind) })),
  };
}

/** spec §5 Cart validation against the stored ticket types, as of `now`. */
export function checkCart(event: EventRow, types: TicketTypeRow[], lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>, now: Date) {
  const v = validateCart({ lines, ticketTypes: types.map(toCartTicketType), remainingCapacity: event.remainingCapacity, now });
  return toCartValidation(v, remainingCapacityOf(event, types));
}

/** The same ticket type on two lines is one line of their sum; zero lines are dropped. */
function mergeLines(lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>) {
  const merged = new Map<string, number>();
  for (const l of lines) if (l.quantity > 0) merged.set(l.ticketTypeId, (merged.get(l.ticketTypeId) ?? 0) + l.quantity);
  return merged;
}

// ---- creating an order (the hold) -------------------------------------------------------------

const UID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 12 characters of Crockford base32: 60 random bits, easy to read out on the phone. */
function newOrderUid(): string {
  const bytes = randomBytes(12);
  let out = '';
  for (const b of bytes) out += UID_ALPHABET[b & 31];
  return out;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A return URL must come back to this site (no open redirect through the payment page). */
function returnUrl(given: string | undefined, fallbackPath: string, origin: string, host: string, orderUid: string | null): string {
  const allowed = new Set([host.toLowerCase(), new URL(origin).host.toLowerCase()]);
  let url: URL;
  if (given) {
    try {
      url = new URL(given);
    } catch {
      throw badRequest(M.redirectUrlInvalid);
    }
    if (!['http:', 'https:'].includes(url.protocol) || !allowed.has(url.host.toLowerCase())) throw badRequest(M.redirectUrlInvalid);
  } else url = new URL(fallbackPath, origin);
  // spec §2: /{eventName}/success?orderID={draft order id}
  if (orderUid) url.searchParams.set('orderID', orderUid);
  return url.toString();
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
  hostTenant: HostTenant | null;
  host: string;
  tenantId: string;
  eventId: string;
  input: CreateOrderInput;
  userId: string | null;
}): Promise<TCreateOrderResponse> {
  const { deps, hostTenant, tenantId, eventId, input } = opts;
  if (!hostTenant || hostTenant.id !== tenantId) throw notFound();
  const contact = input.order;
  const read = () => repo.findCheckoutSnapshot(deps.db, { tenantId, eventId, discountCode: contact.discountCode });
  let snapshot = await read();
  // An event the public never saw is not found; one that was published but is not on sale any more
  // (unpublished or cancelled while the buyer was at checkout) is 'no longer on sale'.
  if (!snapshot || (snapshot.event.status !== 'published' && snapshot.event.publishedAt === null)) throw notFound();
  if (snapshot.event.status !== 'published') throw conflict(M.eventNotOnSale);

  // A draft this browser placed before (a declined card, back from the gateway) gives its tickets
  // back first, so the attendee does not compete with their own hold. It is 'replaced', never paid:
  // its checkout is closed, and a payment that still reaches it is refunded (markOrderPaid).
  if (input.draftOrderUID) {
    const where = { tenantId, eventId, orderUid: input.draftOrderUID, email: contact.email };
    const replaced = await deps.db.transaction((tx) => releaseHold(tx, where, false, 'replaced'));
    if (replaced) {
      await closeCheckout(deps, { tenantId, orderId: replaced.id, sessionId: replaced.paymentSessionId });
      snapshot = (await read()) ?? snapshot;
    }
  }
  const { event, types } = snapshot;

  const now = new Date();
  const check = checkCart(event, types, input.lines, now);
  if (check.blocked) throw new CartConflictError(check);
  const merged = mergeLines(input.lines);
  const cartTypeIds = [...merged.keys()];
  const discountRow = contact.discountCode ? usableDiscount(snapshot.discount, now, cartTypeIds) : null;
  // The charity is the event's as read now; the hold checks, under the event's lock, that it still is.
  const donation = donationFor(contact.donation, snapshot.charity, 'order.donation');
  const byId = new Map(types.map((t) => [t.id, t]));
  const lines = [...merged].map(([ticketTypeId, quantity]) => {
    const t = byId.get(ticketTypeId)!;
    return { ticketTypeId, ticketName: t.name, unitPrice: t.price, quantity };
  });
  const config = pricingConfigOf(tenantId, snapshot.pricing);
  const priced = priceLines(config, lines, discountRow ? toPriceDiscount(discountRow) : undefined, donation.amount);
  const breakdown = toBreakdown(priced, discountRow?.code ?? null);

  const orderId = randomUUID();
  const orderUid = newOrderUid();
  const token = randomBytes(24).toString('base64url');
  const holdExpiresAt = new Date(now.getTime() + deps.config.holdMinutes * 60_000);
  const origin = publicOrigin(deps.config, hostTenant.url);
  const successUrl = returnUrl(input.successUrl, `/${event.urlName}/success`, origin, opts.host, orderUid);
  const cancelUrl = returnUrl(input.cancelUrl, `/${event.urlName}/cart`, origin, opts.host, null);
  const free = priced.totalAmount === 0;

  const outcome = await repo.holdOrder(deps.db, {
    order: {
      tenantId,
      id: orderId,
      orderUid,
      eventId,
      status: 'draft',
      source: input.source,
      email: contact.email,
      firstName: contact.firstName,
      lastName: contact.lastName,
      phone: contact.phone,
      address1: contact.address1,
      address2: contact.address2,
      city: contact.city,
      state: contact.state,
      zipCode: contact.zipCode,
      country: contact.country,
      optInEmail: contact.optInEmail,
      optInText: contact.optInText,
      discountCode: discountRow?.code ?? null,
      discountCodeId: discountRow?.id ?? null,
      ticketCount: priced.ticketCount,
      subtotal: priced.subtotal,
      surcharge: priced.surcharge,
      processingFee: priced.processingFee,
      gatewayProcessingFee: priced.gatewayProcessingFee,
      discount: priced.discount,
      vat: priced.vat,
      taxRate: config.settings.chargeTax ? Math.round((config.settings.taxRate ?? 0) * 100) : 0,
      donation: priced.donation,
      donationFee: priced.donationFee,
      charityId: donation.charity?.id ?? null,
      charityName: donation.charity?.name ?? null,
      totalAmount: priced.totalAmount,
      tenantTotal: priced.sellerNet + priced.vat,
      platformTotal: priced.platformTotal,
      breakdown: JSON.stringify(priced),
      holdExpiresAt,
      viewTokenHash: sha256(token),
      userId: opts.userId,
      paymentProvider: free ? null : deps.payments.name,
    },
    lines,
    discountCodeId: discountRow?.id ?? null,
    job: { name: HOLD_EXPIRY_JOB, payload: { tenantId, orderId }, runAt: holdExpiresAt, dedupeKey: `${HOLD_EXPIRY_JOB}:${orderId}` },
  });
  if (!outcome.ok) {
    await explainRefusedHold(deps, {
      tenantId,
      eventId,
      discountCode: contact.discountCode,
      charityId: donation.charity?.id ?? null,
      lines: input.lines,
      reason: outcome.reason,
    });
  }

  const answer = { orderUID: orderUid, draftOrderUID: orderUid, orderToken: token, holdExpiresAt: holdExpiresAt.toISOString(), breakdown };
  if (free) {
    await deps.db.transaction((tx) => markPaidInTx(deps, tx, { tenantId, orderId, provider: 'none', sessionId: null, chargeId: null, paymentMethod: 'free' }));
    return { ...answer, message: successUrl };
  }

  try {
    const session = await deps.payments.createCheckout({
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
    // Kept so that a replaced draft's checkout can be closed, unless the gateway finds it by order.
    if (!deps.payments.expiresByOrder) await repo.updateOrder(deps.db, tenantId, orderId, { paymentSessionId: session.sessionId });
    return { ...answer, message: session.url };
  } catch (err) {
    // No way to pay: give the tickets back at once rather than after the hold.
    deps.log.error({ err, orderId }, 'payment checkout failed');
    await deps.db.transaction((tx) => releaseHold(tx, { orderId }, false));
    throw new AppError('UNAVAILABLE', M.paymentUnavailable);
  }
}

/** The hold was refused and nothing was written: tell the attendee why, from what is there now (spec §8). */
async function explainRefusedHold(
  deps: Deps,
  f: {
    tenantId: string;
    eventId: string;
    discountCode: string | null;
    /** The charity the order's donation was priced for; null without a donation. */
    charityId: string | null;
    lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>;
    reason: 'ticketType' | 'capacity' | 'discount' | 'changed';
  },
): Promise<never> {
  if (f.reason === 'discount') throw invalidDiscount();
  const fresh = await repo.findCheckoutSnapshot(deps.db, { tenantId: f.tenantId, eventId: f.eventId, discountCode: f.discountCode });
  if (!fresh || fresh.event.status !== 'published') throw conflict(M.eventNotOnSale);
  const now = new Date();
  if (f.discountCode) usableDiscount(fresh.discount, now, [...mergeLines(f.lines).keys()]);
  if (f.charityId && fresh.charity?.id !== f.charityId) {
    const message = fresh.charity ? M.donationCharityChanged : M.donationNoCharity;
    throw badRequest(message, { 'order.donation': message });
  }
  const again = checkCart(fresh.event, fresh.types, f.lines, now);
  if (again.blocked) throw new CartConflictError(again);
  // Tickets given back since the refusal can make the cart look fine again; a changed price too.
  if (f.reason === 'changed') throw conflict(M.reviewYourCart);
  const capacity = f.reason === 'capacity';
  throw new CartConflictError({
    ...again,
    valid: false,
    blocked: true,
    blockReason: capacity ? 'overCapacity' : 'lineProblems',
    title: capacity ? M.insufficientCapacity : M.ticketAvailabilityIssue,
  });
}

/** Thrown inside a (sub)transaction to roll it back when a conditional take found too little left. */
class Shortage extends Error {
  constructor(readonly reason: 'ticketType' | 'discount' | 'capacity') {
    super(`inventory shortage: ${reason}`);
  }
}

// ---- holds, payment, expiry --------------------------------------------------------------------

/**
 * Gives a draft's tickets and discount use back, once: only the caller whose draft -> expired (or
 * replaced) update matched gets the order back.
 */
async function releaseHold(tx: Tx, which: Parameters<typeof repo.expireDraft>[1], dueOnly: boolean, status: 'expired' | 'replaced' = 'expired') {
  const expired = await repo.expireDraft(tx, which, dueOnly, status);
  if (!expired) return null;
  const lines = await repo.findLines(tx, expired.tenantId, expired.id);
  await repo.applyInventory(tx, {
    tenantId: expired.tenantId,
    eventId: expired.eventId,
    deltas: new Map(lines.map((l) => [l.ticketTypeId, -l.quantity])),
    discountUses: expired.discountCodeId ? [{ id: expired.discountCodeId, op: 'release' }] : [],
  });
  return expired;
}

/** Best effort: a checkout left open is refunded by the webhook if it is paid anyway. */
async function closeCheckout(deps: Deps, p: { tenantId: string; orderId: string; sessionId: string | null }) {
  try {
    await deps.payments.expireCheckout(p);
  } catch (err) {
    deps.log.warn({ err, orderId: p.orderId }, 'could not close the checkout of a replaced draft');
  }
}

async function markPaidInTx(
  deps: Deps,
  tx: Tx,
  p: { tenantId: string; orderId: string; provider: string; sessionId: string | null; chargeId: string | null; paymentMethod: string | null },
) {
  await repo.updateOrder(tx, p.tenantId, p.orderId, {
    status: 'processing',
    paidAt: new Date(),
    paymentProvider: p.provider,
    paymentSessionId: p.sessionId,
    chargeId: p.chargeId,
    paymentMethod: p.paymentMethod,
  });
  await deps.jobs.enqueue(tx, FULFIL_JOB, { tenantId: p.tenantId, orderId: p.orderId }, { dedupeKey: `${FULFIL_JOB}:${p.orderId}` });
}

/**
 * The payment went through (called by the payments webhook inside its transaction). A draft moves
 * to processing and its tickets are issued by the 'orders.fulfil' job. A draft whose hold already
 * expired is held again if its tickets are still there; otherwise the caller refunds it. An order
 * already paid is left alone.
 */
export async function markOrderPaid(opts: {
  deps: Deps;
  tx: Tx;
  orderId: string;
  provider: string;
  sessionId: string;
  chargeId: string;
  paymentMethod: string;
}): Promise<{ outcome: 'paid' | 'already' | 'refund' }> {
  const { deps, tx, orderId } = opts;
  const order = await repo.lockOrder(tx, orderId);
  if (!order) throw notFound();
  const paid = { tenantId: order.tenantId, orderId, provider: opts.provider, sessionId: opts.sessionId, chargeId: opts.chargeId, paymentMethod: opts.paymentMethod };
  if (order.status === 'processing' || order.status === 'completed') return { outcome: 'already' };

  const event = await eventsRepo.findEvent(tx, order.tenantId, order.eventId);
  if (order.status === 'draft') {
    if (event?.status === 'cancelled') {
      await releaseHold(tx, { orderId }, false);
      return { outcome: 'refund' };
    }
    await markPaidInTx(deps, tx, paid);
    return { outcome: 'paid' };
  }
  // A replaced draft (the buyer placed a newer order for the same cart) or a cancelled one is never
  // paid: the payment is given back.
  if (order.status !== 'expired' || event?.status !== 'published') return { outcome: 'refund' };

  // The hold ran out before the payment arrived: take the same tickets again if they are still there.
  const lines = await repo.findLines(tx, order.tenantId, orderId);
  const reheld = await tx
    .transaction(async (sp) => {
      const result = await repo.applyInventory(sp, {
        tenantId: order.tenantId,
        eventId: order.eventId,
        deltas: new Map(lines.map((l) => [l.ticketTypeId, l.quantity])),
        discountUses: order.discountCodeId ? [{ id: order.discountCodeId, op: 'force' }] : [],
        requirePublished: true,
      });
      if (!result.ok) throw new Shortage(result.reason);
      return true;
    })
    .catch((err: unknown) => {
      if (err instanceof Shortage) return false;
      throw err;
    });
  if (!reheld) return { outcome: 'refund' };
  await markPaidInTx(deps, tx, paid);
  return { outcome: 'paid' };
}

/** The gateway's checkout lapsed or failed for good: the draft's hold is released now. */
export async function markCheckoutExpired(opts: { deps: Deps; tx: Tx; orderId: string }): Promise<{ outcome: 'expired' | 'unchanged' }> {
  return { outcome: (await releaseHold(opts.tx, { orderId: opts.orderId }, false)) ? 'expired' : 'unchanged' };
}

/** Job: the hold of one draft ran out. Safe to run twice: the second run finds no draft. */
export async function expireHold({ deps, orderId }: { deps: Deps; orderId: string }): Promise<boolean> {
  return !!(await deps.db.transaction((tx) => releaseHold(tx, { orderId }, true)));
}

/** Job: drafts whose expiry job was lost (or keeps failing) are released here, then it runs again in a minute. */
export async function reconcileHolds({ deps }: { deps: Deps }): Promise<number> {
  let released = 0;
  try {
    for (const o of await repo.overdueDrafts(deps.db, RECONCILE_BATCH)) {
      if (await expireHold({ deps, orderId: o.id })) released++;
    }
    if (released > 0) deps.log.warn({ released }, 'released overdue holds');
  } finally {
    await scheduleReconcile(deps, Date.now() + RECONCILE_EVERY_MS);
  }
  return released;
}

/** One reconcile run per minute across all nodes: the dedupe key is the minute it runs in. */
export async function scheduleReconcile(deps: Deps, at: number) {
  const minute = Math.floor(at / RECONCILE_EVERY_MS);
  await deps.jobs.enqueue(deps.db, RECONCILE_JOB, {}, { runAt: new Date(minute * RECONCILE_EVERY_MS), dedupeKey: `${RECONCILE_JOB}:${minute}` });
}

// ---- the success page ------------------------------------------------------------------------

function tokenMatches(hash: string | null, token: string): boolean {
  if (!hash) return false;
  const a = Buffer.from(hash, 'hex');
  const b = Buffer.from(sha256(token), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** spec §2 success page: 'processing' until the payment is confirmed, then the order. Needs the order's token. */
export async function getPublicOrder(opts: { deps: Deps; hostTenant: HostTenant | null; orderUid: string; token: string }): Promise<TPublicOrder> {
  const { deps, hostTenant } = opts;
  if (!hostTenant) throw notFound();
  const order = await repo.findOrderByUid(deps.db, hostTenant.id, opts.orderUid);
  if (!order || !tokenMatches(order.viewTokenHash, opts.token)) throw notFound();
  const event = await eventsRepo.findEvent(deps.db, order.tenantId, order.eventId);
  const paymentStatus =
    order.status === 'processing' || order.status === 'completed' ? 'paid' : order.status === 'draft' ? 'processing' : order.status === 'expired' ? 'expired' : 'cancelled';
  const lines = paymentStatus === 'paid' ? await repo.findLines(deps.db, order.tenantId, order.id) : [];
  const charged = paymentStatus === 'cancelled' && order.chargeId !== null && order.paymentMethod !== 'free';
  return {
    orderUID: order.orderUid,
    paymentStatus,
    refund: !charged ? 'none' : order.refunded ? 'refunded' : 'pending',
    eventName: event?.name ?? '',
    details:
      paymentStatus === 'paid'
        ? {
            email: order.email,
            fullName: `${order.firstName} ${order.lastName}`.trim(),
            ticketCount: order.ticketCount,
            subtotal: order.subtotal,
            surcharge: order.surcharge,
            processingFee: order.processingFee,
            discount: order.discount,
            discountCode: order.discountCode,
            vat: order.vat,
            donation: order.donation,
            charityName: order.donation > 0 ? order.charityName : null,
            ...storedCharges(order.breakdown),
            totalAmount: order.totalAmount,
            orderDetails: lines.map((l) => ({ order: { ticketId: l.ticketTypeId }, ticketName: l.ticketName, price: l.unitPrice, quantity: l.quantity })),
            dateCreated: order.createdAt.toISOString(),
          }
        : null,
  };
}

