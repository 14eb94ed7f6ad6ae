import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  priceOrder,
  type PriceOrderDiscount,
  type PriceOrderInput,
  type PriceOrderLine,
  type PriceOrderResult,
  type PriceOrderSettings,
} from './price-order.js';

// Random orders over the whole valid domain: any percentage with 2 decimals, amounts from a cent
// to $1,000,000, every channel, option, payment method and discount shape.

const TICKET_TYPES = ['general', 'vip', 'student', 'guest'] as const;

const percent = (max = 100) => fc.integer({ min: 0, max: max * 100 }).map((basisPoints) => basisPoints / 100);
const cents = (max: number) =>
  fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max }));
const option = fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const);
const basisPoints = (maxPercent = 100) => fc.integer({ min: 0, max: maxPercent * 100 });

const line: fc.Arbitrary<PriceOrderLine> = fc.record(
  {
    ticketTypeId: fc.constantFrom(...TICKET_TYPES),
    ticketName: fc.string({ maxLength: 10 }),
    unitPrice: cents(100_000_000),
    quantity: fc.integer({ min: 0, max: 20 }),
    complimentary: fc.boolean(),
  },
  { requiredKeys: ['ticketTypeId', 'ticketName', 'unitPrice', 'quantity'] },
);

const settings: fc.Arbitrary<PriceOrderSettings> = fc
  .record({
    donationServiceFeeBp: basisPoints(),
    donationCharge: cents(10_000),
    roundUpServiceFeeValue: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 10_000 })),
    online: option,
    backend: option,
    app: option,
    chargeTax: fc.boolean(),
    taxRateBp: basisPoints(),
    chargeOnline: fc.boolean(),
    chargeOnlineValue: fc.option(cents(10_000)),
    chargeCash: fc.boolean(),
    chargeCashValue: fc.option(cents(10_000)),
    chargeBoxOffice: fc.boolean(),
    chargeBoxOfficeValue: cents(10_000),
    platformFeeBp: basisPoints(),
    processingFeeBp: basisPoints(50),
  })
  .map(({ online, backend, app, taxRateBp, chargeTax, ...rest }) => ({
    ...rest,
    chargeTax,
    taxRateBp: chargeTax ? taxRateBp : null,
    passAlong: { ONLINE: online, BACKEND: backend, APP: app },
  }));

const discount: fc.Arbitrary<PriceOrderDiscount> = fc.record(
  {
    kind: fc.constantFrom('percent' as const, 'amount' as const),
    value: fc.integer({ min: 0, max: 10_000 }),
    appliesTo: fc.subarray([...TICKET_TYPES]),
  },
  { requiredKeys: ['kind', 'value'] },
).map((d) => (d.kind === 'percent' ? { ...d, value: d.value / 100 } : { ...d, value: d.value * 100 }));

const order: fc.Arbitrary<PriceOrderInput> = fc.record(
  {
    lines: fc.array(line, { maxLength: 6 }),
    rule: fc.record({
      serviceFeePercent: percent(),
      serviceFeeFlatRate: cents(10_000),
      serviceFeePOSPercent: percent(),
      serviceFeePOSFlatRate: cents(10_000),
    }),
    settings,
    channel: fc.constantFrom('online' as const, 'backend' as const, 'app' as const),
    discount,
    donation: cents(100_000_000),
    paymentMethod: fc.constantFrom('card' as const, 'cash' as const, 'terminal' as const),
  },
  { requiredKeys: ['lines', 'rule', 'settings', 'channel'] },
);

const RUNS = { numRuns: 2000 };

const optionFor = (input: PriceOrderInput) => input.settings.passAlong[input.channel === 'online' ? 'ONLINE' : input.channel === 'backend' ? 'BACKEND' : 'APP'];

const moneyFields = (result: PriceOrderResult) => {
  const { orderDetails, passAlongOption: _option, ...money } = result;
  return [...Object.entries(money), ...orderDetails.flatMap((d, i) => [[`orderDetails[${i}].price`, d.price] as const])];
};

describe('priceOrder: properties', () => {
  it('the total is exactly the sum of its parts', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        expect(r.totalAmount).toBe(
          r.subtotal - r.discount + r.surcharge + r.processingFee + r.vat + r.donation + r.donationFee + r.channelCharge,
        );
      }),
      RUNS,
    );
  });

  it('every amount is a non-negative safe integer', () => {
    fc.assert(
      fc.property(order, (input) => {
        for (const [field, value] of moneyFields(priceOrder(input))) {
          expect(Number.isSafeInteger(value) && value >= 0, `${field} = ${value}`).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('money is conserved: seller + platform + card processing + tax + charity = what the customer pays', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        expect(r.sellerNet + r.platformTotal + r.gatewayProcessingFee + r.vat + r.donationNet).toBe(r.totalAmount);
      }),
      RUNS,
    );
  });

  it('each pass-along option charges the customer exactly what it says (accounts-admin-fees §9)', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        const n = optionFor(input);
        expect(r.passAlongOption).toBe(n);
        const customerPaysServiceFee = n === 2 || n === 3;
        const customerPaysProcessing = n === 2 || n === 4;
        expect(r.surcharge).toBe(customerPaysServiceFee ? r.serviceFeeTotal : 0);
        expect(r.processingFee).toBe(customerPaysProcessing ? r.gatewayProcessingFee : 0);
      }),
      RUNS,
    );
  });

  it('a customer-paid processing fee covers the card cost of the whole order, itself included', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        const byCard = input.paymentMethod === undefined || input.paymentMethod === 'card';
        const basisPoints = byCard ? BigInt(input.settings.processingFeeBp) : 0n;
        if (r.processingFee > 0) expect(BigInt(r.processingFee) * 10_000n >= BigInt(r.totalAmount) * basisPoints).toBe(true);
        // The estimate is processingFee% of the total, rounded up to the cent.
        expect(BigInt(r.gatewayProcessingFee) * 10_000n >= BigInt(r.totalAmount) * basisPoints).toBe(true);
        expect(BigInt(r.gatewayProcessingFee - 1) * 10_000n < BigInt(r.totalAmount) * basisPoints || r.gatewayProcessingFee === 0).toBe(true);
      }),
      RUNS,
    );
  });

  it('cash orders carry no card processing', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder({ ...input, paymentMethod: 'cash' });
        expect(r.processingFee).toBe(0);
        expect(r.gatewayProcessingFee).toBe(0);
      }),
      RUNS,
    );
  });

  it('the discount never exceeds the subtotal of the paid tickets it applies to', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        const applies = (l: PriceOrderLine) => !l.complimentary && (input.discount?.appliesTo?.includes(l.ticketTypeId) ?? true);
        const eligible = input.lines.filter(applies).reduce((total, l) => total + l.unitPrice * l.quantity, 0);
        expect(r.discount).toBeLessThanOrEqual(eligible);
        expect(r.discount).toBeLessThanOrEqual(r.subtotal);
        if (input.discount?.kind === 'amount') expect(r.discount).toBe(Math.min(input.discount.value, eligible));
        if (!input.discount) expect(r.discount).toBe(0);
      }),
      RUNS,
    );
  });

  it("the lines' discounts add up to the order's, and no line gives more than it costs or than its ticket types' share", () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        expect(r.orderDetails.reduce((total, d) => total + d.discount, 0)).toBe(r.discount);
        r.orderDetails.forEach((d, i) => {
          const line = input.lines[i]!;
          expect(Number.isSafeInteger(d.discount) && d.discount >= 0).toBe(true);
          expect(d.discount).toBeLessThanOrEqual(d.price * d.quantity);
          if (line.complimentary || !(input.discount?.appliesTo?.includes(line.ticketTypeId) ?? true)) expect(d.discount).toBe(0);
        });
      }),
      RUNS,
    );
  });

  it('the service fee is a multiple of the round-up value and is zero when nothing is sold', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        expect(r.serviceFeeTotal % input.settings.roundUpServiceFeeValue).toBe(0);
        if (r.subtotal - r.discount === 0) {
          expect(r.serviceFeeTotal).toBe(0);
          expect(r.channelCharge).toBe(0);
          expect(r.vat).toBe(0);
        }
      }),
      RUNS,
    );
  });

  it('a discount never makes the order dearer', () => {
    fc.assert(
      fc.property(order, (input) => {
        const withDiscount = priceOrder(input);
        const without = priceOrder({ ...input, discount: undefined });
        expect(withDiscount.totalAmount).toBeLessThanOrEqual(without.totalAmount);
        expect(withDiscount.subtotal).toBe(without.subtotal);
      }),
      RUNS,
    );
  });

  it('the seller keeps no more than the tickets and the charge bring in, and the charity no more than the donation', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        expect(r.sellerNet).toBeLessThanOrEqual(r.subtotal - r.discount + r.channelCharge);
        expect(r.donationNet).toBeLessThanOrEqual(r.donation);
        // The charity only gives anything up when the seller's side pays card processing.
        if (r.passAlongOption === 2 || r.passAlongOption === 4) expect(r.donationNet).toBe(r.donation);
      }),
      RUNS,
    );
  });

  it('counts tickets and lists lines as given, complimentary ones at price 0', () => {
    fc.assert(
      fc.property(order, (input) => {
        const r = priceOrder(input);
        expect(r.ticketCount).toBe(input.lines.reduce((n, l) => n + l.quantity, 0));
        expect(r.orderDetails).toEqual(
          input.lines.map((l) => ({
            ticketId: l.ticketTypeId,
            ticketName: l.ticketName,
            price: l.complimentary ? 0 : l.unitPrice,
            quantity: l.quantity,
            discount: expect.any(Number),
          })),
        );
      }),
      RUNS,
    );
  });
});
