import { describe, expect, it } from 'vitest';
import { computeFigures, refundedTax, soldAndHeld, type FigureOrderWithParts } from './figures.js';
import { paymentMethodSearchValue, refundStatusLabel, refundStatusSearchValue, reportSearchAction, ticketUsedSearchValue } from './search.js';

const order = (o: Partial<FigureOrderWithParts>): FigureOrderWithParts => ({
  status: 'completed', totalAmount: 0, surcharge: 0, processingFee: 0, vat: 0, donation: 0, donationFee: 0, discount: 0, tenantTotal: 0,
  refunds: [], tickets: [], ...o,
});

describe('computeFigures (docs/reports.md, worked example)', () => {
  // The three orders of the worked example in docs/reports.md.
  const a = order({
    totalAmount: 11_350, surcharge: 600, processingFee: 350, vat: 800, tenantTotal: 10_800,
    tickets: [{ price: 5_000, voided: false, used: true }, { price: 5_000, voided: false, used: false }],
  });
  const b = order({
    status: 'processing', totalAmount: 4_800, surcharge: 200, discount: 1_000, donation: 1_500, donationFee: 300, tenantTotal: 3_000,
    tickets: [{ price: 4_000, voided: false, used: false }, { price: 0, voided: false, used: false }],
  });
  const c = order({
    totalAmount: 6_000, tenantTotal: 6_000,
    tickets: [{ price: 3_000, voided: true, used: false }, { price: 3_000, voided: false, used: false }],
    refunds: [{ status: 'succeeded', amount: 3_000, tenantAmount: 2_800 }, { status: 'pending', amount: 1_000, tenantAmount: 1_000 }, { status: 'failed', amount: 3_000, tenantAmount: 3_000 }],
  });
  const hold = order({ status: 'draft', totalAmount: 9_999, tenantTotal: 9_999, tickets: [{ price: 9_999, voided: false, used: false }] });
  const late = order({ status: 'cancelled', totalAmount: 7_777, tenantTotal: 7_777, refunds: [{ status: 'succeeded', amount: 7_777, tenantAmount: 7_777 }] });

  it('gives the worked example’s numbers', () => {
    expect(computeFigures([a, b, c, hold, late])).toEqual({
      orders: 3,
      grossSales: 22_150,
      netRevenue: 10_800 + 3_000 + 6_000 - 2_800,
      serviceFees: 800,
      processingFees: 350,
      tax: 800,
      donations: 1_500,
      donationFees: 300,
      discounts: 1_000,
      refunds: 3_000,
      tenantRefunds: 2_800,
      taxRefunded: 0,
      ticketsSold: 4,
      complimentary: 1,
      used: 1,
    });
  });

  it('adds up: the figures of a union are the sums of the parts', () => {
    const all = computeFigures([a, b, c]);
    const parts = [computeFigures([a]), computeFigures([b, c])];
    for (const key of Object.keys(all) as Array<keyof typeof all>) expect(parts[0]![key] + parts[1]![key], key).toBe(all[key]);
  });

  it('counts nothing for unpaid orders, their refunds and tickets included', () => {
    expect(computeFigures([hold, late])).toMatchObject({ orders: 0, grossSales: 0, refunds: 0, ticketsSold: 0 });
  });
});

describe('refundedTax (issue 21.11: tax after refunds)', () => {
  it('gives back the tax in proportion to what went back, half up, and all of it on a full refund', () => {
    expect(refundedTax({ vat: 800, totalAmount: 11_350, refunded: 11_350 })).toBe(800);
    expect(refundedTax({ vat: 800, totalAmount: 10_000, refunded: 5_000 })).toBe(400);
    // 800 x 1 / 3 = 266.67 -> 267; 100 x 1 / 8 = 12.5 -> 13 (half up)
    expect(refundedTax({ vat: 800, totalAmount: 3_000, refunded: 1_000 })).toBe(267);
    expect(refundedTax({ vat: 100, totalAmount: 800, refunded: 100 })).toBe(13);
  });
  it('is 0 without tax, without a refund, and never more than the tax', () => {
    expect(refundedTax({ vat: 0, totalAmount: 5_000, refunded: 5_000 })).toBe(0);
    expect(refundedTax({ vat: 500, totalAmount: 5_000, refunded: 0 })).toBe(0);
    expect(refundedTax({ vat: 500, totalAmount: 5_000, refunded: 9_000 })).toBe(500);
  });
  it('is what computeFigures counts over the succeeded refunds only', () => {
    const taxed = order({
      totalAmount: 10_800, vat: 800, tenantTotal: 10_800,
      refunds: [{ status: 'succeeded', amount: 2_700, tenantAmount: 2_500 }, { status: 'pending', amount: 1_000, tenantAmount: 900 }, { status: 'failed', amount: 5_000, tenantAmount: 5_000 }],
    });
    expect(computeFigures([taxed])).toMatchObject({ tax: 800, refunds: 2_700, tenantRefunds: 2_500, taxRefunded: 200 });
  });
});

describe('report search rules (spec §5)', () => {
  it('applies from 3 characters, clears when empty, ignores 1 or 2', () => {
    expect(['', 'a', 'ab', 'abc'].map(reportSearchAction)).toEqual(['clear', 'ignore', 'ignore', 'apply']);
  });
  it('lowercases payment methods and refund statuses, the first space of a status an underscore', () => {
    expect(paymentMethodSearchValue('Card')).toBe('card');
    expect(refundStatusSearchValue('Requires Action now')).toBe('requires_action now');
  });
  it('reads Ticket Used as yes/true and no/false from 2 characters', () => {
    expect(['yes', 'TRUE', 'no', 'False', 'n', 'maybe'].map(ticketUsedSearchValue)).toEqual([true, true, false, false, null, null]);
  });
  it('shows a refund status without the part after a hash, underscores as spaces, words capitalised (spec §4)', () => {
    expect(refundStatusLabel('succeeded')).toBe('Succeeded');
    expect(refundStatusLabel('requires_action#re_123')).toBe('Requires Action');
  });
});

describe('soldAndHeld', () => {
  it('counts paid tickets as sold and the rest of what the stock gave out as held', () => {
    expect(soldAndHeld({ givenOut: 10, paidTickets: 7 })).toEqual({ sold: 7, held: 3 });
    expect(soldAndHeld({ givenOut: 0, paidTickets: 0 })).toEqual({ sold: 0, held: 0 });
  });
  it('never shows a negative hold', () => {
    expect(soldAndHeld({ givenOut: 2, paidTickets: 3 })).toEqual({ sold: 3, held: 0 });
  });
});
