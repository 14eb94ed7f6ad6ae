import type { Cents } from '../money.js';
import { mulDivHalfUp } from '../pricing/integer-math.js';

// How one paid order's money is owed (docs/payouts.md): what the customer paid (gross) less what
// the card gateway kept (gatewayFee) is split between the tenant and the platform. The order's own
// split (orders.tenant_total / platform_total, written by the pricing engine) used an estimate of
// the card cost; the payout line replaces the estimate with the gateway's real fee and charges it
// to whoever bears card fees for the tenant.

export type PayoutLineOrder = {
  /** What the customer paid (orders.total_amount). */
  totalAmount: Cents;
  /** What the platform keeps of it (orders.platform_total). */
  platformTotal: Cents;
};

export type PayoutLineSplit = {
  grossAmount: Cents;
  gatewayFee: Cents;
  tenantTotal: Cents;
  platformTotal: Cents;
  /** grossAmount - gatewayFee = tenantTotal + platformTotal */
  netAmount: Cents;
};

const isNonNegCents = (n: number) => Number.isSafeInteger(n) && n >= 0;

/**
 * The payout line of a paid order. Everything that is not the platform's share is the tenant's
 * (its ticket revenue, the tax it collects and remits, the donation it passes on). The gateway fee
 * comes out of the share of whoever bears card fees; if that share is too small the rest comes out
 * of the other share, so no share is ever negative. A fee larger than the payment is capped at it.
 */
export function payoutLineFor(input: { order: PayoutLineOrder; gatewayFee: Cents; chargeGatewayFeesToPlatform: boolean }): PayoutLineSplit {
  const { order, chargeGatewayFeesToPlatform } = input;
  if (![order.totalAmount, order.platformTotal, input.gatewayFee].every(isNonNegCents)) {
    throw new Error('payoutLineFor: amounts must be non-negative integer cents');
  }
  const grossAmount = order.totalAmount;
  const gatewayFee = Math.min(input.gatewayFee, grossAmount);
  let platform = Math.min(order.platformTotal, grossAmount);
  let tenant = grossAmount - platform;
  if (chargeGatewayFeesToPlatform) {
    const fromPlatform = Math.min(platform, gatewayFee);
    platform -= fromPlatform;
    tenant -= gatewayFee - fromPlatform;
  } else {
    const fromTenant = Math.min(tenant, gatewayFee);
    tenant -= fromTenant;
    platform -= gatewayFee - fromTenant;
  }
  return { grossAmount, gatewayFee, tenantTotal: tenant, platformTotal: platform, netAmount: tenant + platform };
}

/** A refund after the sale: a negative line, the refund's own tenant/platform split (refunds table). */
export function refundLineFor(refund: { amount: Cents; tenantAmount: Cents; platformAmount: Cents }): PayoutLineSplit {
  if (![refund.amount, refund.tenantAmount, refund.platformAmount].every(isNonNegCents) || refund.tenantAmount + refund.platformAmount !== refund.amount) {
    throw new Error('refundLineFor: a refund is non-negative cents split exactly into its two shares');
  }
  return {
    grossAmount: -refund.amount,
    gatewayFee: 0,
    tenantTotal: -refund.tenantAmount,
    platformTotal: -refund.platformAmount,
    netAmount: -refund.amount,
  };
}

/** The test gateway's card fee (Stripe's US list price by default): percent (basis points) of the amount plus a flat part, capped at the amount. */
export function cardFee(amount: Cents, fee: { basisPoints: number; flat: Cents }): Cents {
  if (amount <= 0) return 0;
  return Math.min(amount, mulDivHalfUp(amount, fee.basisPoints, 10_000) + fee.flat);
}

/** What one payout transfers to the tenant: the sum of its lines' tenant shares. */
export function transferAmountOf(lines: ReadonlyArray<{ tenantTotal: Cents }>): Cents {
  return lines.reduce((sum, l) => sum + l.tenantTotal, 0);
}
