import { randomBytes, randomUUID } from 'node:crypto';
import { WAITING_ROOM_ADMISSION_ORDERS } from '@marquee/core';
import { HOLD_EXPIRY_JOB } from '../orders/holds.js';
import { viewTokenHash } from '../orders/public-order.js';
import type { quoteCart } from './pricing.js';
import type * as repo from './repository.js';

// The draft order a hold writes (repo.holdOrder), built in one place for every hold that writes
// one: the checkout's own hold when it opens (hold-cart.ts), PLACE ORDER's (place-order.ts) and a
// waiting-list round's offers, many in one transaction (waitlist/offer-round.ts).

const UID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 12 characters of Crockford base32: 60 random bits, easy to read out on the phone. */
export function newOrderUid(): string {
  const bytes = randomBytes(12);
  let out = '';
  for (const b of bytes) out += UID_ALPHABET[b & 31];
  return out;
}

/** A new hold's ids: the order's id and UID, the buyer's view token, and when the hold ends. */
export function newHold(now: Date, holdMinutes: number) {
  return {
    orderId: randomUUID(),
    orderUid: newOrderUid(),
    token: randomBytes(24).toString('base64url'),
    holdExpiresAt: new Date(now.getTime() + holdMinutes * 60_000),
  };
}

/** The buyer's details on the order: PLACE ORDER's form, or nobody's yet on the checkout's own hold. */
export type OrderBuyer = Pick<
  repo.HoldOrderRow,
  'email' | 'firstName' | 'lastName' | 'phone' | 'address1' | 'address2' | 'city' | 'state' | 'zipCode' | 'country' | 'optInEmail' | 'optInText'
>;

/** No one's yet: PLACE ORDER writes the buyer's details on the order that replaces the hold. */
export const NO_BUYER: OrderBuyer = {
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
};

export function buyerOf(contact: OrderBuyer): OrderBuyer {
  const { email, firstName, lastName, phone, address1, address2, city, state, zipCode, country, optInEmail, optInText } = contact;
  return { email, firstName, lastName, phone, address1, address2, city, state, zipCode, country, optInEmail, optInText };
}

type Quote = ReturnType<typeof quoteCart>;

/**
 * An order's money columns as the pricing engine priced it (cents; the tax rate in basis points), for
 * every writer of an order: the website's hold, the box office's sale, a waiting-list offer.
 */
export function priceColumnsOf(priced: Quote['priced'], config: Quote['config']) {
  return {
    ticketCount: priced.ticketCount,
    subtotal: priced.subtotal,
    surcharge: priced.surcharge,
    processingFee: priced.processingFee,
    gatewayProcessingFee: priced.gatewayProcessingFee,
    discount: priced.discount,
    vat: priced.vat,
    taxRate: config.settings.chargeTax ? (config.settings.taxRateBp ?? 0) : 0,
    donation: priced.donation,
    donationFee: priced.donationFee,
    totalAmount: priced.totalAmount,
    tenantTotal: priced.sellerNet + priced.vat,
    platformTotal: priced.platformTotal,
    breakdown: JSON.stringify(priced),
  };
}

/**
 * The columns every new order shares, whoever writes it (the website's hold, PLACE ORDER, a
 * waiting-list offer, the box office's sale): its ids and event, a draft, where and through what it
 * was sold, the buyer, the discount code and the money as the one quote priced it.
 */
export function orderColumnsOf(p: {
  tenantId: string;
  id: string;
  orderUid: string;
  eventId: string;
  source: string;
  channel: 'ONLINE' | 'APP' | 'BACKEND';
  buyer: OrderBuyer;
  discount: { id: string; code: string } | null;
  priced: Quote['priced'];
  config: Quote['config'];
  userId: string | null;
}) {
  return {
    tenantId: p.tenantId,
    id: p.id,
    orderUid: p.orderUid,
    eventId: p.eventId,
    status: 'draft' as const,
    source: p.source,
    ...buyerOf(p.buyer),
    discountCode: p.discount?.code ?? null,
    discountCodeId: p.discount?.id ?? null,
    ...priceColumnsOf(p.priced, p.config),
    userId: p.userId,
    channel: p.channel,
  };
}

/**
 * The hold request for repo.holdOrder: the draft order with the quote's price (pricing.ts
 * quoteCart), its lines, its discount code's use, its waiting-room admission and its expiry job.
 */
export function holdRequestOf(p: {
  tenantId: string;
  eventId: string;
  hold: ReturnType<typeof newHold>;
  source: string;
  buyer: OrderBuyer;
  quote: Pick<ReturnType<typeof quoteCart>, 'lines' | 'discount' | 'donation' | 'config' | 'priced'>;
  userId: string | null;
  /** The waiting-room admission (its visitor id) the order counts against, when the event's room is on. */
  admission: string | null;
  /** The waiting-list entry (issue 24) whose offer this order buys; null for every other order. */
  waitlistEntryId?: string | null;
  paymentProvider: string | null;
  /** Where it is sold: the website (ONLINE) unless said (issue 25: an app's order with an API key, APP). */
  channel?: 'ONLINE' | 'APP';
}): repo.HoldRequest {
  const { tenantId, eventId, hold, quote } = p;
  const { priced, config, discount, donation } = quote;
  return {
    order: {
      ...orderColumnsOf({
        tenantId,
        id: hold.orderId,
        orderUid: hold.orderUid,
        eventId,
        source: p.source,
        channel: p.channel ?? 'ONLINE',
        buyer: p.buyer,
        discount: discount ?? null,
        priced,
        config,
        userId: p.userId,
      }),
      channel: p.channel ?? 'ONLINE',
      charityId: donation.charity?.id ?? null,
      charityName: donation.charity?.name ?? null,
      holdExpiresAt: hold.holdExpiresAt,
      viewTokenHash: viewTokenHash(hold.token),
      waitingRoomVisitorId: p.admission,
      waitlistEntryId: p.waitlistEntryId ?? null,
      paymentProvider: p.paymentProvider,
    },
    lines: quote.lines,
    discountCodeId: discount?.id ?? null,
    admissionOrders: p.admission ? WAITING_ROOM_ADMISSION_ORDERS : null,
    job: { name: HOLD_EXPIRY_JOB, payload: { tenantId, orderId: hold.orderId }, runAt: hold.holdExpiresAt, dedupeKey: `${HOLD_EXPIRY_JOB}:${hold.orderId}` },
  };
}
