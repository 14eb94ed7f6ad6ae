import type { TOrderDetail } from '@marquee/core';
import { describe, expect, it } from 'vitest';
import { breakdownLines, orderActions, orderStatusBadge, splitRows } from './breakdown';

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

const split = { organiser: 8223, platform: 957, cardFee: 340, charity: 480, refunded: 0, organiserRefunded: 0, platformRefunded: 0, organiserAfterRefunds: 8223, platformAfterRefunds: 957 };
const order = (over: Partial<TOrderDetail['details']>, voided = [false, false]) =>
  ({
    details: details({ status: 'completed', refundState: 'none', eventStatus: 'published', refundableAmount: 10000, totalAmount: 10000, split, charityName: 'Harbour Fund', ...over }),
    tickets: voided.map((v, i) => ({ id: String(i), details: { voided: v } })),
  }) as unknown as TOrderDetail;
const staff = { canAttend: true, canRefund: false };
const admin = { canAttend: true, canRefund: true };

describe('the one order page (issue 21.10)', () => {
  it('offers resend, download and refund from anywhere, to those who may', () => {
    expect(orderActions(order({}), admin)).toEqual({ resend: true, download: true, refund: true });
    expect(orderActions(order({}), staff)).toEqual({ resend: true, download: true, refund: false });
    expect(orderActions(order({ status: 'processing' }), admin)).toEqual({ resend: true, download: false, refund: true });
  });
  it('offers no resend or download for a fully refunded order, one without a valid ticket, or a cancelled event', () => {
    expect(orderActions(order({ refundState: 'full', refundableAmount: 0 }, [true, true]), admin)).toEqual({ resend: false, download: false, refund: false });
    expect(orderActions(order({ refundState: 'partial' }, [true, true]), admin)).toMatchObject({ resend: false, download: false });
    expect(orderActions(order({ eventStatus: 'cancelled' }), admin)).toMatchObject({ resend: false, download: false });
    expect(orderActions(order({ refundState: 'partial' }, [true, false]), admin)).toMatchObject({ resend: true, download: true });
  });
  it('reads Refunded or Partially refunded instead of Completed', () => {
    expect(orderStatusBadge({ status: 'completed', refundState: 'full' }).label).toBe('Refunded');
    expect(orderStatusBadge({ status: 'completed', refundState: 'partial' }).label).toBe('Partially refunded');
    expect(orderStatusBadge({ status: 'completed', refundState: 'none' }).label).toBe('Completed');
  });
  it('splits the money so that each column adds up to what was paid, card fee and donation shown', () => {
    const atSale = splitRows(order({}).details);
    expect(atSale.map((r) => r.label)).toEqual(['Organiser receives', 'Platform keeps', 'Card processing fee', 'Harbour Fund receives']);
    expect(atSale.reduce((s, r) => s + (r.atSale ?? 0), 0)).toBe(10000);
    const after = splitRows(
      order({ split: { ...split, refunded: 10000, organiserRefunded: 9043, platformRefunded: 957, organiserAfterRefunds: -820, platformAfterRefunds: 0 } }).details,
    );
    expect(after.at(-1)).toEqual({ key: 'refunded', label: 'Refunded to the buyer', atSale: null, afterRefunds: 10000 });
    expect(after.reduce((s, r) => s + r.afterRefunds, 0)).toBe(10000);
  });
});
