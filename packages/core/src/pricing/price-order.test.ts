import { describe, expect, it } from 'vitest';
import {
  priceOrder,
  type PriceOrderInput,
  type PriceOrderLine,
  type PriceOrderRule,
  type PriceOrderSettings,
} from './price-order.js';

// The worked examples of docs/pricing.md, computed there by hand. Keep the two in step.

const rule: PriceOrderRule = {
  serviceFeePercent: 5,
  serviceFeeFlatRate: 99,
  serviceFeePOSPercent: 3,
  serviceFeePOSFlatRate: 50,
};

const settings: PriceOrderSettings = {
  donationServiceFeeBp: 2000,
  donationCharge: 0,
  roundUpServiceFeeValue: 1,
  passAlong: { ONLINE: 2, BACKEND: 1, APP: 3 },
  chargeTax: true,
  taxRateBp: 825,
  chargeOnline: false,
  chargeOnlineValue: null,
  chargeCash: true,
  chargeCashValue: 100,
  chargeBoxOffice: true,
  chargeBoxOfficeValue: 200,
  platformFeeBp: 100,
  processingFeeBp: 290,
};

const cart: PriceOrderLine[] = [
  { ticketTypeId: 'general', ticketName: 'General', unitPrice: 2500, quantity: 2 },
  { ticketTypeId: 'vip', ticketName: 'VIP', unitPrice: 6000, quantity: 1 },
  { ticketTypeId: 'guest', ticketName: 'Guest', unitPrice: 2500, quantity: 1, complimentary: true },
];

const online = (option: 1 | 2 | 3 | 4): PriceOrderSettings => ({
  ...settings,
  passAlong: { ...settings.passAlong, ONLINE: option },
});

const price = (overrides: Partial<PriceOrderInput> = {}) =>
  priceOrder({ lines: cart, rule, settings, channel: 'online', ...overrides });

describe('priceOrder: worked examples of docs/pricing.md', () => {
  it('example 1: online, option 2, the customer pays both fees', () => {
    expect(price()).toEqual({
      passAlongOption: 2,
      ticketCount: 4,
      subtotal: 11000,
      discount: 0,
      surcharge: 847,
      processingFee: 381,
      gatewayProcessingFee: 381,
      serviceFeeTotal: 847,
      vat: 908,
      donation: 0,
      donationFee: 0,
      donationNet: 0,
      channelCharge: 0,
      totalAmount: 13136,
      sellerNet: 10890,
      platformTotal: 957,
      orderDetails: [
        { ticketId: 'general', ticketName: 'General', price: 2500, quantity: 2, discount: 0 },
        { ticketId: 'vip', ticketName: 'VIP', price: 6000, quantity: 1, discount: 0 },
        { ticketId: 'guest', ticketName: 'Guest', price: 0, quantity: 1, discount: 0 },
      ],
    });
  });

  it.each([
    [1, { surcharge: 0, processingFee: 0, gatewayProcessingFee: 346, totalAmount: 11908, sellerNet: 9697 }],
    [2, { surcharge: 847, processingFee: 381, gatewayProcessingFee: 381, totalAmount: 13136, sellerNet: 10890 }],
    [3, { surcharge: 847, processingFee: 0, gatewayProcessingFee: 370, totalAmount: 12755, sellerNet: 10520 }],
    [4, { surcharge: 0, processingFee: 356, gatewayProcessingFee: 356, totalAmount: 12264, sellerNet: 10043 }],
  ] as const)('example 2: pass-along option %i', (option, expected) => {
    expect(price({ settings: online(option) })).toMatchObject({
      passAlongOption: option,
      serviceFeeTotal: 847,
      vat: 908,
      platformTotal: 957,
      ...expected,
    });
  });

  it('example 3: 12.5% off every ticket, rounded half up per ticket', () => {
    expect(price({ discount: { kind: 'percent', value: 12.5 } })).toMatchObject({
      subtotal: 11000,
      discount: 1376,
      serviceFeeTotal: 780,
      surcharge: 780,
      vat: 794,
      processingFee: 335,
      gatewayProcessingFee: 335,
      totalAmount: 11533,
      sellerNet: 9528,
      platformTotal: 876,
    });
  });

  it('example 4: $10.00 off the order, shared by ticket price to the cent', () => {
    expect(price({ discount: { kind: 'amount', value: 1000 } })).toMatchObject({
      discount: 1000,
      serviceFeeTotal: 798,
      vat: 825,
      processingFee: 348,
      totalAmount: 11971,
      sellerNet: 9900,
      platformTotal: 898,
    });
  });

  it('example 4b: an amount larger than the tickets it applies to is capped at their subtotal', () => {
    expect(price({ discount: { kind: 'amount', value: 9999, appliesTo: ['general'] } })).toMatchObject({
      discount: 5000,
      serviceFeeTotal: 399,
      vat: 495,
    });
  });

  it('example 5: service fee rounded up to 25 cents per ticket', () => {
    expect(price({ settings: { ...settings, roundUpServiceFeeValue: 25 } })).toMatchObject({
      serviceFeeTotal: 850,
      processingFee: 382,
      totalAmount: 13140,
    });
  });

  it('example 6: box office, cash, option 1: POS fee, box-office and cash charges, no card processing', () => {
    expect(price({ channel: 'backend', paymentMethod: 'cash' })).toMatchObject({
      passAlongOption: 1,
      serviceFeeTotal: 480,
      surcharge: 0,
      processingFee: 0,
      gatewayProcessingFee: 0,
      channelCharge: 300,
      totalAmount: 12208,
      sellerNet: 10710,
      platformTotal: 590,
    });
  });

  it("example 6b: box office, the venue's card terminal, option 2: the box-office charge only, no card processing", () => {
    expect(price({ channel: 'backend', paymentMethod: 'terminal', settings: { ...settings, passAlong: { ...settings.passAlong, BACKEND: 2 } } })).toMatchObject({
      passAlongOption: 2,
      serviceFeeTotal: 480,
      surcharge: 480,
      processingFee: 0,
      gatewayProcessingFee: 0,
      channelCharge: 200,
      totalAmount: 12588,
      sellerNet: 11090,
      platformTotal: 590,
    });
  });

  it('example 7: box office, card, option 1: the box-office charge', () => {
    expect(price({ channel: 'backend' })).toMatchObject({
      channelCharge: 200,
      totalAmount: 12108,
      gatewayProcessingFee: 352,
      sellerNet: 10258,
      platformTotal: 590,
    });
  });

  it('example 8: a $5.00 donation with its 20% donation fee', () => {
    expect(price({ donation: 500 })).toMatchObject({
      donation: 500,
      donationFee: 100,
      donationNet: 500,
      processingFee: 399,
      totalAmount: 13754,
      sellerNet: 10890,
      platformTotal: 1057,
    });
  });

  it('example 9: a seller-paid fee above the ticket revenue is waived, the seller never owes', () => {
    const result = priceOrder({
      lines: [{ ticketTypeId: 'cheap', ticketName: 'Cheap', unitPrice: 100, quantity: 1 }],
      rule: { ...rule, serviceFeeFlatRate: 150 },
      settings: online(1),
      channel: 'online',
    });
    expect(result).toMatchObject({
      serviceFeeTotal: 155,
      vat: 8,
      totalAmount: 108,
      gatewayProcessingFee: 4,
      sellerNet: 0,
      platformTotal: 96,
    });
  });

  it('example 10: under option 1 a donation fee too small for its card cost is made up from the donation', () => {
    const result = priceOrder({
      lines: [{ ticketTypeId: 'general', ticketName: 'General', unitPrice: 500, quantity: 1 }],
      rule,
      settings: { ...online(1), donationServiceFeeBp: 0 },
      channel: 'online',
      donation: 20000,
    });
    expect(result).toMatchObject({
      serviceFeeTotal: 124,
      vat: 41,
      donationFee: 0,
      totalAmount: 20541,
      gatewayProcessingFee: 596,
      donationNet: 19420,
      sellerNet: 355,
      platformTotal: 129,
    });
    const withDefaultFee = priceOrder({
      lines: [{ ticketTypeId: 'general', ticketName: 'General', unitPrice: 500, quantity: 1 }],
      rule,
      settings: online(1),
      channel: 'online',
      donation: 20000,
    });
    expect(withDefaultFee).toMatchObject({ donationFee: 4000, donationNet: 20000 });
    expect(withDefaultFee.platformTotal).toBe(124 + 5 + 4000 - 696);
  });

  it('example 11: a 100% discount makes a free order with no fees and no charge', () => {
    expect(price({ discount: { kind: 'percent', value: 100 } })).toMatchObject({
      discount: 11000,
      serviceFeeTotal: 0,
      vat: 0,
      channelCharge: 0,
      processingFee: 0,
      totalAmount: 0,
      sellerNet: 0,
      platformTotal: 0,
    });
  });
});

describe('priceOrder: rules', () => {
  it('the app channel uses the online fee and its own pass-along option', () => {
    expect(price({ channel: 'app' })).toMatchObject({
      passAlongOption: 3,
      serviceFeeTotal: 847,
      surcharge: 847,
      processingFee: 0,
    });
  });

  it('an empty order costs nothing', () => {
    expect(price({ lines: [] })).toMatchObject({ ticketCount: 0, subtotal: 0, totalAmount: 0, orderDetails: [] });
  });

  it('complimentary and zero-priced tickets carry no fee, tax or charge', () => {
    const result = price({
      lines: [
        { ticketTypeId: 'guest', ticketName: 'Guest', unitPrice: 2500, quantity: 3, complimentary: true },
        { ticketTypeId: 'free', ticketName: 'Free', unitPrice: 0, quantity: 2 },
      ],
      settings: { ...settings, chargeOnline: true, chargeOnlineValue: 300 },
    });
    expect(result).toMatchObject({ ticketCount: 5, subtotal: 0, serviceFeeTotal: 0, channelCharge: 0, totalAmount: 0 });
  });

  it('a discount limited to ticket types leaves the others alone; an empty list discounts nothing', () => {
    expect(price({ discount: { kind: 'percent', value: 50, appliesTo: ['vip'] } }).discount).toBe(3000);
    expect(price({ discount: { kind: 'percent', value: 50, appliesTo: [] } }).discount).toBe(0);
  });

  it('a discount never reaches complimentary tickets', () => {
    const comps = price({
      lines: [{ ticketTypeId: 'guest', ticketName: 'Guest', unitPrice: 2500, quantity: 1, complimentary: true }],
      discount: { kind: 'amount', value: 500 },
    });
    expect(comps.discount).toBe(0);
  });

  it('splits an amount over equal tickets by giving the leftover cent to the first', () => {
    // 1001 over two $25.00 tickets: 501 and 500 off, so both sell for about $20 and the fees differ by nothing.
    const result = price({
      lines: [{ ticketTypeId: 'general', ticketName: 'General', unitPrice: 2500, quantity: 2 }],
      discount: { kind: 'amount', value: 1001 },
    });
    expect(result).toMatchObject({ discount: 1001, subtotal: 5000, vat: 330 });
    // 1999 x 5% + 99 = 198.95 -> 199 and 2000 x 5% + 99 = 199.
    expect(result.serviceFeeTotal).toBe(398);
  });

  it('no tax without chargeTax, whatever the rate', () => {
    expect(price({ settings: { ...settings, chargeTax: false, taxRateBp: 5000 } }).vat).toBe(0);
  });

  it('an online charge switched on with no value charges nothing', () => {
    expect(price({ settings: { ...settings, chargeOnline: true, chargeOnlineValue: null } }).channelCharge).toBe(0);
    expect(price({ settings: { ...settings, chargeOnline: true, chargeOnlineValue: 150 } }).channelCharge).toBe(150);
  });

  it('the donation fee adds the flat donation charge', () => {
    expect(price({ donation: 1000, settings: { ...settings, donationCharge: 50 } }).donationFee).toBe(250);
  });

  it('works beyond 2^53 intermediate products without losing a cent', () => {
    const result = priceOrder({
      lines: [{ ticketTypeId: 'suite', ticketName: 'Suite', unitPrice: 100_000_000, quantity: 1000 }],
      rule,
      settings,
      channel: 'online',
      discount: { kind: 'amount', value: 99_999_999_999 },
    });
    expect(result.discount).toBe(99_999_999_999);
    expect(result.totalAmount).toBe(
      result.subtotal - result.discount + result.surcharge + result.processingFee + result.vat,
    );
  });

  it('does not change its input', () => {
    const input: PriceOrderInput = { lines: cart, rule, settings, channel: 'online', discount: { kind: 'amount', value: 1000 } };
    const before = structuredClone(input);
    priceOrder(input);
    expect(input).toEqual(before);
  });
});

describe('priceOrder: rejects invalid input', () => {
  const line = cart[0] as PriceOrderLine;
  it.each<[string, Partial<PriceOrderInput>, RegExp]>([
    ['a negative quantity', { lines: [{ ...line, quantity: -1 }] }, /lines\[0\]\.quantity must be a non-negative integer/],
    ['a fractional quantity', { lines: [{ ...line, quantity: 1.5 }] }, /lines\[0\]\.quantity/],
    ['fractional cents', { lines: [{ ...line, unitPrice: 25.5 }] }, /lines\[0\]\.unitPrice must be a non-negative integer number of cents/],
    ['a negative price', { lines: [{ ...line, unitPrice: -100 }] }, /unitPrice/],
    ['NaN', { lines: [{ ...line, unitPrice: Number.NaN }] }, /unitPrice/],
    ['an empty ticket type id', { lines: [{ ...line, ticketTypeId: '' }] }, /ticketTypeId/],
    ['a negative donation', { donation: -1 }, /donation must be/],
    ['fractional donation cents', { donation: 0.5 }, /donation must be/],
    ['a percentage with 3 decimals', { rule: { ...rule, serviceFeePercent: 2.955 } }, /rule\.serviceFeePercent/],
    ['a percentage above 100', { discount: { kind: 'percent', value: 101 } }, /discount\.value must be a percentage/],
    ['fractional discount cents', { discount: { kind: 'amount', value: 10.5 } }, /discount\.value must be a non-negative integer/],
    ['a flat rate in dollars', { rule: { ...rule, serviceFeeFlatRate: 0.99 } }, /serviceFeeFlatRate/],
    ['a zero round-up', { settings: { ...settings, roundUpServiceFeeValue: 0 } }, /roundUpServiceFeeValue/],
    ['tax on with no rate', { settings: { ...settings, taxRateBp: null } }, /taxRateBp/],
    ['a processing fee above 50%', { settings: { ...settings, processingFeeBp: 5001 } }, /processingFeeBp must be at most 50%/],
    ['a rate in percent, not basis points', { settings: { ...settings, platformFeeBp: 2.5 } }, /platformFeeBp must be whole basis points/],
    ['a pass-along option outside 1 to 4', { settings: { ...settings, passAlong: { ...settings.passAlong, APP: 5 as never } } }, /passAlong\.APP must be an option/],
    ['an unknown channel', { channel: 'kiosk' as never }, /channel must be/],
    ['an unknown payment method', { paymentMethod: 'cheque' as never }, /paymentMethod must be/],
    ['a missing line', { lines: [null as never] }, /lines\[0\] must be an object/],
    ['a missing rule', { rule: undefined as never }, /rule must be an object/],
    ['an unknown discount kind', { discount: { kind: 'bogo' as never, value: 1 } }, /discount\.kind/],
  ])('%s', (_label, overrides, message) => {
    expect(() => price(overrides)).toThrow(message);
  });

  it('a total past the largest safe integer', () => {
    expect(() => price({ lines: [{ ...line, unitPrice: 100_000_000, quantity: 1e9 }] })).toThrow(/largest safe integer/);
  });
});
