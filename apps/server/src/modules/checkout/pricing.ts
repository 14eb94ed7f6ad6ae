import {
  M,
  isDiscountCodeUsable,
  isSoldOn,
  mergeCartLines,
  priceOrder,
  type PriceOrderChannel,
  type PriceOrderDiscount,
  type PriceOrderPaymentMethod,
  type PriceOrderResult,
  type PriceOrderRule,
  type PriceOrderSettings,
  type TBreakdown,
} from '@marquee/core';
import { AppError, DomainError } from '../../platform/errors.js';
import type { DiscountCodeRow } from '../discounts/repository.js';
import { toPriceDiscount } from '../discounts/service.js';
import { toFeeSettings, toRule } from '../fees/repository.js';
import { GLOBAL_DEFAULT_RULE, GLOBAL_DEFAULT_SETTINGS } from '../fees/service.js';
import type * as repo from './repository.js';

const NO_FEES: PriceOrderRule = { serviceFeePercent: 0, serviceFeeFlatRate: 0, serviceFeePOSPercent: 0, serviceFeePOSFlatRate: 0 };

export type PricingConfig = { rule: PriceOrderRule; settings: PriceOrderSettings };

/**
 * The tenant's ticket settings and the event's rule (its own while active, else the tenant's
 * default), as read with the checkout snapshot. A tenant without settings (created outside the
 * console) is priced with the platform's seeded defaults; without a default rule, no service fee.
 */
export function pricingConfigOf(tenantId: string, found: repo.CheckoutSnapshot['pricing']): PricingConfig {
  if (!found) return { rule: GLOBAL_DEFAULT_RULE, settings: GLOBAL_DEFAULT_SETTINGS };
  return {
    settings: toFeeSettings(found.settings),
    rule: found.rule ? toRule(found.rule, tenantId, null) : NO_FEES,
  };
}

/** The answer to a code that is unknown, expired, used up or for another event: a wrong guess. */
export const invalidDiscount = () => new DomainError('DISCOUNT_INVALID', M.invalidInput, { fields: { discountCode: M.invalidInputBody } });

/**
 * A code limited to some ticket types applies only to a cart that holds one of them; otherwise it
 * would take nothing off and still spend a use (docs/decisions.md "A discount code must apply to the cart").
 */
function appliesToCart(row: DiscountCodeRow, ticketTypeIds: readonly string[]): boolean {
  return row.ticketTypeIds.length === 0 || row.ticketTypeIds.some((id) => ticketTypeIds.includes(id));
}

/**
 * A code the attendee typed, usable right now for this event and for the ticket types in the cart;
 * 400 'Invalid Input' otherwise (spec §8 Checkout), as for any code that does not apply.
 */
export function usableDiscount(row: DiscountCodeRow | null, now: Date, cartTicketTypeIds: readonly string[]): DiscountCodeRow {
  if (!row || !isDiscountCodeUsable(row, now) || !appliesToCart(row, cartTicketTypeIds)) throw invalidDiscount();
  return row;
}

export type EventCharity = { id: string; name: string };

/** A donation on an event without a charity, refused on `field`. */
export const noCharity = (field: string) => new DomainError('DONATION_NO_CHARITY', M.donationNoCharity, { fields: { [field]: M.donationNoCharity } });
/** A donation priced for a charity that is no longer the event's, refused on `field`. */
export const charityChanged = (field: string) =>
  new DomainError('DONATION_CHARITY_CHANGED', M.donationCharityChanged, { fields: { [field]: M.donationCharityChanged } });

/**
 * The donation asked for, and the charity it goes to: the event's (read with the checkout snapshot).
 * A donation above 0 on an event without a charity is refused: 400 with our message, on `field`.
 */
export function donationFor(amount: number, charity: EventCharity | null, field: string): { amount: number; charity: EventCharity | null } {
  if (amount === 0) return { amount, charity: null };
  if (!charity) throw noCharity(field);
  return { amount, charity };
}

export type PricedLine = { ticketTypeId: string; ticketName: string; unitPrice: number; quantity: number; complimentary?: boolean };

/** Where and how the order is sold: the attendee site by card unless said otherwise (the box office is 'backend'). */
export type SaleChannel = { channel: PriceOrderChannel; paymentMethod: PriceOrderPaymentMethod };
export const ONLINE_SALE: SaleChannel = { channel: 'online', paymentMethod: 'card' };
/** An app's order placed with an API key (issue 25): the APP pass-along option; the buyer pays by card on the payment page. */
export const APP_SALE: SaleChannel = { channel: 'app', paymentMethod: 'card' };

/** The server's price: always recomputed from stored prices and settings, never the client's numbers. */
export function priceLines(config: PricingConfig, lines: PricedLine[], discount: PriceOrderDiscount | undefined, donation = 0, sale: SaleChannel = ONLINE_SALE): PriceOrderResult {
  return priceOrder({ lines, rule: config.rule, settings: config.settings, channel: sale.channel, paymentMethod: sale.paymentMethod, discount, donation });
}

/** spec: reports-payouts-checkout §3 Cart/checkout breakdown. */
export function toBreakdown(result: PriceOrderResult, discountCode: string | null): TBreakdown {
  return {
    ticketCount: result.ticketCount,
    subtotal: result.subtotal,
    surcharge: result.surcharge,
    processingFee: result.processingFee,
    gatewayProcessingFee: result.gatewayProcessingFee,
    discount: result.discount,
    vat: result.vat,
    donation: result.donation,
    donationFee: result.donationFee,
    channelCharge: result.channelCharge,
    totalAmount: result.totalAmount,
    discountCode,
    orderDetails: result.orderDetails.map((d) => ({ order: { ticketId: d.ticketId }, ticketName: d.ticketName, price: d.price, quantity: d.quantity })),
  };
}

export { toPriceDiscount };

/**
 * The quote: the cart's lines at their stored prices, the code if one was typed, the donation, and
 * the tenant's fees, priced by the one pricing function. The ticket menu's breakdown (public-site
 * priceCart) and PLACE ORDER (place-order.ts) both take it, so the total shown is the total charged.
 * A line naming no active ticket type of the event is 400 'Invalid Input'; a code that does not
 * apply is DISCOUNT_INVALID; a donation without a charity is refused on `donationField`.
 */
export function quoteCart(
  snapshot: Pick<repo.CheckoutSnapshot, 'event' | 'types' | 'discount' | 'charity' | 'pricing'>,
  input: {
    lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>;
    discountCode: string | null | undefined;
    donation: number;
    donationField: string;
    now: Date;
    /** Where and how it is sold: the attendee site by card unless given (the box office, issue 23: 'backend'; an app with an API key, issue 25: 'app'). */
    sale?: SaleChannel;
    /** Every ticket complimentary (a comp from the box office or the guest list): priced 0. */
    complimentary?: boolean;
  },
) {
  const sale = input.sale ?? ONLINE_SALE;
  // A ticket type is on sale only where it is sold (issue 23: online, at the box office, or both).
  const types = new Map(snapshot.types.filter((t) => t.active && isSoldOn(t.soldAt, sale.channel)).map((t) => [t.id, t]));
  const merged = mergeCartLines(input.lines);
  const lines = [...merged].map(([ticketTypeId, quantity]) => {
    const t = types.get(ticketTypeId);
    if (!t) throw new AppError('BAD_REQUEST', M.invalidInput, { lines: M.invalidInputBody });
    return { ticketTypeId, ticketName: t.name, unitPrice: t.price, quantity, complimentary: input.complimentary === true };
  });
  const discount = input.discountCode ? usableDiscount(snapshot.discount, input.now, [...merged.keys()]) : null;
  // The charity is the event's as read now; PLACE ORDER's hold checks, under the event's lock, that it still is.
  const donation = donationFor(input.donation, snapshot.charity, input.donationField);
  const config = pricingConfigOf(snapshot.event.tenantId, snapshot.pricing);
  const priced = priceLines(config, lines, discount ? toPriceDiscount(discount) : undefined, donation.amount, sale);
  return { lines, discount, donation, config, priced, breakdown: toBreakdown(priced, discount?.code ?? null) };
}
