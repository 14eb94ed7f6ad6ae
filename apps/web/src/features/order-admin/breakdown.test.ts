import type { TOrderDetail } from '@marquee/core';
import { describe, expect, it } from 'vitest';
import { breakdownLines } from './breakdown';

const details = (over: Partial<TOrderDetail['details']>) =>
  ({ subtotal: 8000, discount: 0, discountCode: null, surcharge: 0, processingFee: 0, taxRate: 0, vat: 0, donation: 0, donationFee: 0, charityName: null, channelCharge: 0, ...over }) as TOrderDetail['details'];

describe('order breakdown (spec §5 Display)', () => {
  it('hides fee, discount and tax lines that are zero', () => {
    expect(breakdownLines(details({})).map((l) => l.label)).toEqual(['Subtotal']);
  });

  it('shows the lines that are there, with the discount code, tax rate and charity', () => {
    const lines = breakdownLines(details({ discount: 800, discountCode: 'WELCOME10', surcharge: 400, processingFee: 300, taxRate: 625, vat: 500, donation: 1000, donationFee: 50, charityName: 'Riverside Music Fund' }));
    expect(lines.map((l) => [l.label, l.amount, !!l.negative])).toEqual([
      ['Subtotal', 8000, false],
      ['Discount (WELCOME10)', 800, true],
      ['Service Fee', 400, false],
      ['Processing Fee', 300, false],
      ['Tax (6.25%)', 500, false],
      ['Donation to Riverside Music Fund', 1000, false],
      ['Donation Fee', 50, false],
    ]);
  });

  it('writes a whole tax rate without decimals', () => {
    expect(breakdownLines(details({ taxRate: 800, vat: 640 }))[1]!.label).toBe('Tax (8%)');
  });
});
