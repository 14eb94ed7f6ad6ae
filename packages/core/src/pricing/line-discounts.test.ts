import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spreadOrderDiscount, ticketPricesAfterDiscount } from './line-discounts.js';
import { priceOrder, type PriceOrderSettings } from './price-order.js';

const settings: PriceOrderSettings = {
  donationServiceFeeBp: 0,
  donationCharge: 0,
  roundUpServiceFeeValue: 1,
  passAlong: { ONLINE: 1, BACKEND: 1, APP: 1 },
  chargeTax: false,
  taxRateBp: 0,
  chargeOnline: false,
  chargeOnlineValue: null,
  chargeCash: false,
  chargeCashValue: 0,
  chargeBoxOffice: false,
  chargeBoxOfficeValue: 0,
  platformFeeBp: 0,
  processingFeeBp: 0,
};
const rule = { serviceFeePercent: 0, serviceFeeFlatRate: 0, serviceFeePOSPercent: 0, serviceFeePOSFlatRate: 0 };

describe('what each line and ticket sold for after the discount', () => {
  it('priceOrder answers each line its discount: $10 off two $25 tickets and one $60, limited to General', () => {
    const r = priceOrder({
      lines: [
        { ticketTypeId: 'general', ticketName: 'General', unitPrice: 2500, quantity: 2 },
        { ticketTypeId: 'vip', ticketName: 'VIP', unitPrice: 6000, quantity: 1 },
      ],
      rule,
      settings,
      channel: 'online',
      discount: { kind: 'amount', value: 1000, appliesTo: ['general'] },
    });
    expect(r.orderDetails.map((d) => d.discount)).toEqual([1000, 0]);
    expect(ticketPricesAfterDiscount(2500, 2, 1000)).toEqual([2000, 2000]);
  });

  it('a line of three shares an odd discount to the cent, the first tickets taking the extra cent', () => {
    expect(ticketPricesAfterDiscount(1000, 3, 100)).toEqual([966, 967, 967]);
    expect(ticketPricesAfterDiscount(1000, 3, 101)).toEqual([966, 966, 967]);
    expect(ticketPricesAfterDiscount(1000, 0, 100)).toEqual([]);
    // Never below zero, never more than the line.
    expect(ticketPricesAfterDiscount(1000, 2, 5000)).toEqual([0, 0]);
  });

  it('spreads an order discount it did not keep per line in proportion to the lines, exactly', () => {
    expect(spreadOrderDiscount([{ ticketTypeId: 'a', unitPrice: 2500, quantity: 2 }, { ticketTypeId: 'b', unitPrice: 5000, quantity: 1 }], 1000)).toEqual([500, 500]);
    expect(spreadOrderDiscount([{ ticketTypeId: 'a', unitPrice: 2500, quantity: 2 }], 0)).toEqual([0]);
  });

  it('the tickets of a line add up to what the line sold for', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 10_000_000 }), (price, quantity, discount) => {
        const each = ticketPricesAfterDiscount(price, quantity, discount);
        expect(each).toHaveLength(quantity);
        expect(each.reduce((a, b) => a + b, 0)).toBe(price * quantity - Math.min(discount, price * quantity));
        expect(Math.max(...each) - Math.min(...each)).toBeLessThanOrEqual(1);
      }),
    );
  });
});
