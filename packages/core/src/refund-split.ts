import type { Cents } from './money.js';
import { mulDivFloor, mulDivHalfUp } from './pricing/integer-math.js';

// The one rule that splits a refund between the tenant's and the platform's share of an order
// (docs/decisions.md "Refunds: who gives the money back", with a worked example).

export type RefundSplitOrder = {
  /** What the customer paid. */
  totalAmount: Cents;
  /** What the platform keeps of it (orders.platform_total). */
  platformTotal: Cents;
};

export type RefundSplitInput = {
  order: RefundSplitOrder;
  /** Refunds already counted (pending and succeeded), in total and the platform's part of them. */
  alreadyRefunded: Cents;
  alreadyPlatform: Cents;
  /** This refund. */
  amount: Cents;
};

export type RefundSplit = { tenantAmount: Cents; platformAmount: Cents };

/**
 * The platform gives back its share in proportion to how much of the order is refunded, counted
 * cumulatively so that the rounding never drifts: after refunds totalling R of a total T it has
 * returned round(platformTotal x R / T). The tenant's side returns the rest (its own share, the
 * card cost the gateway keeps, the donation). A full refund therefore returns exactly
 * platformTotal from the platform, however it was cut into partial refunds.
 */
export function splitRefund(input: RefundSplitInput): RefundSplit {
  const { order, alreadyRefunded, alreadyPlatform, amount } = input;
  if (![order.totalAmount, order.platformTotal, alreadyRefunded, alreadyPlatform, amount].every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new Error('splitRefund: amounts must be non-negative integer cents');
  }
  if (amount === 0) return { tenantAmount: 0, platformAmount: 0 };
  const after = alreadyRefunded + amount;
  if (after > order.totalAmount) throw new Error('splitRefund: the refunds exceed what was paid');
  const platformShare = Math.min(order.platformTotal, order.totalAmount);
  const platformAfter = after === order.totalAmount ? platformShare : mulDivHalfUp(platformShare, after, order.totalAmount);
  // Clamp: earlier rows written by another rule (or rounding) never make this refund negative or larger than itself.
  const platformAmount = Math.min(amount, Math.max(0, platformAfter - alreadyPlatform));
  return { tenantAmount: amount - platformAmount, platformAmount };
}

/**
 * The part of what was paid that a set of tickets stands for: their face value's share of the
 * order's total without the donation (a donation is refunded only by a full or an amount refund).
 */
export function ticketsRefundAmount(opts: { ticketPrices: readonly Cents[]; subtotal: Cents; totalAmount: Cents; donation: Cents; donationFee: Cents }): Cents {
  const face = opts.ticketPrices.reduce((a, b) => a + b, 0);
  if (opts.subtotal <= 0 || face <= 0) return 0;
  const ticketPart = Math.max(0, opts.totalAmount - opts.donation - opts.donationFee);
  return mulDivFloor(ticketPart, Math.min(face, opts.subtotal), opts.subtotal);
}
