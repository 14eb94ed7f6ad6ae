import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceOrder, type PriceOrderInput } from '../pricing/price-order.js';
import { splitRefund } from '../refund-split.js';
import { cardFee, payoutLineFor, refundLineFor, transferAmountOf } from './payout-line.js';

// For any order the pricing engine can produce (fees, discounts, donations, taxes, every pass-along
// option), any card fee, either fee bearer and any sequence of refunds: the line adds up to the cent,
// no share is negative, and a payout's lines add up to its transfer.

const percent = (max = 100) => fc.integer({ min: 0, max: max * 100 }).map((bp) => bp / 100);
const cents = (max: number) => fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max }));
const option = fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const);

const order: fc.Arbitrary<PriceOrderInput> = fc.record({
  lines: fc.array(
    fc.record({
      ticketTypeId: fc.constantFrom('general', 'vip', 'student'),
      ticketName: fc.constant('T'),
      unitPrice: cents(10_000_000),
      quantity: fc.integer({ min: 0, max: 12 }),
      complimentary: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  rule: fc.record({ serviceFeePercent: percent(), serviceFeeFlatRate: cents(10_000), serviceFeePOSPercent: percent(), serviceFeePOSFlatRate: cents(10_000) }),
  settings: fc
    .record({
      donationServiceFeeBp: fc.integer({ min: 0, max: 10_000 }),
      donationCharge: cents(10_000),
      roundUpServiceFeeValue: fc.integer({ min: 1, max: 100 }),
      online: option,
      chargeTax: fc.boolean(),
      taxRateBp: fc.integer({ min: 0, max: 10_000 }),
      chargeOnline: fc.boolean(),
      chargeOnlineValue: fc.option(cents(10_000)),
      chargeCash: fc.constant(false),
      chargeCashValue: fc.constant(null),
      chargeBoxOffice: fc.constant(false),
      chargeBoxOfficeValue: fc.constant(0),
      platformFeeBp: fc.integer({ min: 0, max: 10_000 }),
      processingFeeBp: fc.integer({ min: 0, max: 2_000 }),
    })
    .map(({ online, taxRateBp, chargeTax, ...rest }) => ({
      ...rest,
      chargeTax,
      taxRateBp: chargeTax ? taxRateBp : null,
      passAlong: { ONLINE: online, BACKEND: 1 as const, APP: 1 as const },
    })),
  channel: fc.constant('online' as const),
  discount: fc
    .record({ kind: fc.constantFrom('percent' as const, 'amount' as const), value: fc.integer({ min: 0, max: 10_000 }) })
    .map((d) => (d.kind === 'percent' ? { ...d, value: d.value / 100 } : { ...d, value: d.value * 100 })),
  donation: cents(1_000_000),
  paymentMethod: fc.constant('card' as const),
});

const fee = fc.oneof(
  fc.constant({ basisPoints: 290, flat: 30 }),
  fc.record({ basisPoints: fc.integer({ min: 0, max: 2_000 }), flat: fc.integer({ min: 0, max: 500 }) }),
);
/** Refunds as fractions of what is left, so that they never exceed the payment. */
const refundCuts = fc.array(fc.integer({ min: 1, max: 1000 }), { maxLength: 4 });

const RUNS = { numRuns: 1500 };
const isCents = (n: number) => Number.isSafeInteger(n);

describe('payout lines: properties', () => {
  it('gross = tenantTotal + platformTotal + gatewayFee, nothing negative, cents exact; refunds and the transfer add up', () => {
    fc.assert(
      fc.property(order, fee, fc.boolean(), refundCuts, (input, cardPrice, toPlatform, cuts) => {
        const priced = priceOrder(input);
        const orderRow = { totalAmount: priced.totalAmount, platformTotal: priced.platformTotal };
        const line = payoutLineFor({ order: orderRow, gatewayFee: cardFee(priced.totalAmount, cardPrice), chargeGatewayFeesToPlatform: toPlatform });
        for (const v of Object.values(line)) expect(isCents(v) && v >= 0).toBe(true);
        expect(line.grossAmount).toBe(priced.totalAmount);
        expect(line.tenantTotal + line.platformTotal + line.gatewayFee).toBe(line.grossAmount);
        expect(line.netAmount).toBe(line.grossAmount - line.gatewayFee);

        // Refunds, split by the one refund rule, become negative lines; each one adds up too.
        const refundLines = [];
        let refunded = 0;
        let platformRefunded = 0;
        for (const cut of cuts) {
          const left = priced.totalAmount - refunded;
          const amount = Math.ceil((left * cut) / 1000);
          if (amount <= 0) break;
          const split = splitRefund({ order: orderRow, alreadyRefunded: refunded, alreadyPlatform: platformRefunded, amount });
          const r = refundLineFor({ amount, ...split });
          expect(r.tenantTotal + r.platformTotal + r.gatewayFee).toBe(r.grossAmount);
          expect(r.tenantTotal <= 0 && r.platformTotal <= 0 && r.gatewayFee === 0).toBe(true);
          refundLines.push(r);
          refunded += amount;
          platformRefunded += split.platformAmount;
        }
        expect(refunded).toBeLessThanOrEqual(priced.totalAmount);
        // After every refund the platform never gives back more than it kept of the order.
        expect(platformRefunded).toBeLessThanOrEqual(orderRow.platformTotal);

        // A payout of the sale and its refunds transfers exactly the sum of the tenant shares.
        const all = [line, ...refundLines];
        const transfer = transferAmountOf(all);
        expect(transfer).toBe(all.reduce((s, l) => s + l.tenantTotal, 0));
        expect(transfer + all.reduce((s, l) => s + l.platformTotal + l.gatewayFee, 0)).toBe(priced.totalAmount - refunded);
      }),
      RUNS,
    );
  });

  it('worked example: $100.00 order, $10.00 platform share, 2.9% + 30c', () => {
    const tenantBears = payoutLineFor({ order: { totalAmount: 10_000, platformTotal: 1_000 }, gatewayFee: cardFee(10_000, { basisPoints: 290, flat: 30 }), chargeGatewayFeesToPlatform: false });
    expect(tenantBears).toEqual({ grossAmount: 10_000, gatewayFee: 320, tenantTotal: 8_680, platformTotal: 1_000, netAmount: 9_680 });
    const platformBears = payoutLineFor({ order: { totalAmount: 10_000, platformTotal: 1_000 }, gatewayFee: 320, chargeGatewayFeesToPlatform: true });
    expect(platformBears).toEqual({ grossAmount: 10_000, gatewayFee: 320, tenantTotal: 9_000, platformTotal: 680, netAmount: 9_680 });
    // A fee larger than the bearer's share takes the rest from the other share.
    expect(payoutLineFor({ order: { totalAmount: 500, platformTotal: 10 }, gatewayFee: 45, chargeGatewayFeesToPlatform: true })).toEqual({
      grossAmount: 500, gatewayFee: 45, tenantTotal: 455, platformTotal: 0, netAmount: 455,
    });
    // A fee larger than a tiny payment is capped at it.
    expect(cardFee(20, { basisPoints: 290, flat: 30 })).toBe(20);
    expect(refundLineFor({ amount: 2_500, tenantAmount: 2_250, platformAmount: 250 })).toEqual({ grossAmount: -2_500, gatewayFee: 0, tenantTotal: -2_250, platformTotal: -250, netAmount: -2_500 });
  });
});
