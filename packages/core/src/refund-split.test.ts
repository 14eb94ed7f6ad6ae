import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitRefund, ticketsRefundAmount } from './refund-split.js';
import { orderPayoutState, refundStatusText, ZRefundRequest, ZVoidTicketRequest } from './schemas/order-admin.js';
import { M } from './messages.js';

describe('splitRefund', () => {
  // The worked example of docs/decisions.md "Refunds: who gives the money back".
  const order = { totalAmount: 13136, platformTotal: 957 };

  it('a partial refund returns the platform share in proportion, the rest from the tenant', () => {
    expect(splitRefund({ order, alreadyRefunded: 0, alreadyPlatform: 0, amount: 5000 })).toEqual({ platformAmount: 364, tenantAmount: 4636 });
  });

  it('the last refund returns exactly what is left of the platform share', () => {
    expect(splitRefund({ order, alreadyRefunded: 5000, alreadyPlatform: 364, amount: 8136 })).toEqual({ platformAmount: 593, tenantAmount: 7543 });
  });

  it('a full refund at once returns each share', () => {
    expect(splitRefund({ order, alreadyRefunded: 0, alreadyPlatform: 0, amount: 13136 })).toEqual({ platformAmount: 957, tenantAmount: 12179 });
  });

  it('refuses more than was paid and amounts that are not cents', () => {
    expect(() => splitRefund({ order, alreadyRefunded: 13000, alreadyPlatform: 0, amount: 137 })).toThrow();
    expect(() => splitRefund({ order, alreadyRefunded: 0, alreadyPlatform: 0, amount: 1.5 })).toThrow();
    expect(() => splitRefund({ order, alreadyRefunded: 0, alreadyPlatform: 0, amount: -1 })).toThrow();
  });

  it('property: any sequence of partial refunds adds up to each share, every step in range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }).chain((total) =>
          fc.tuple(fc.constant(total), fc.integer({ min: 0, max: total }), fc.array(fc.integer({ min: 1, max: total }), { minLength: 1, maxLength: 12 })),
        ),
        ([totalAmount, platformTotal, cuts]) => {
          let refunded = 0;
          let platform = 0;
          for (const cut of cuts) {
            const amount = Math.min(cut, totalAmount - refunded);
            if (amount <= 0) break;
            const s = splitRefund({ order: { totalAmount, platformTotal }, alreadyRefunded: refunded, alreadyPlatform: platform, amount });
            expect(s.tenantAmount + s.platformAmount).toBe(amount);
            expect(s.platformAmount).toBeGreaterThanOrEqual(0);
            expect(s.tenantAmount).toBeGreaterThanOrEqual(0);
            refunded += amount;
            platform += s.platformAmount;
            expect(platform).toBeLessThanOrEqual(platformTotal);
          }
          // Whatever the cuts, the rest in one go ends with the platform's whole share returned.
          if (refunded < totalAmount) {
            const s = splitRefund({ order: { totalAmount, platformTotal }, alreadyRefunded: refunded, alreadyPlatform: platform, amount: totalAmount - refunded });
            platform += s.platformAmount;
          }
          expect(platform).toBe(platformTotal);
        },
      ),
    );
  });
});

describe('ticketsRefundAmount', () => {
  it("is the tickets' share of what was paid for tickets, without the donation", () => {
    // $50 + 2 x $25 = $100 of tickets; paid $110 of which $5 donation and $0.50 donation fee.
    expect(ticketsRefundAmount({ ticketPrices: [2500], subtotal: 10000, totalAmount: 11000, donation: 500, donationFee: 50 })).toBe(2612);
    expect(ticketsRefundAmount({ ticketPrices: [5000, 2500, 2500], subtotal: 10000, totalAmount: 11000, donation: 500, donationFee: 50 })).toBe(10450);
    expect(ticketsRefundAmount({ ticketPrices: [0], subtotal: 10000, totalAmount: 11000, donation: 0, donationFee: 0 })).toBe(0);
    expect(ticketsRefundAmount({ ticketPrices: [100], subtotal: 0, totalAmount: 0, donation: 0, donationFee: 0 })).toBe(0);
  });
});

describe('order page rules', () => {
  it('payout state: first match wins (spec §4)', () => {
    const now = new Date('2030-01-02T00:00:00Z');
    expect(orderPayoutState({}, now)).toBe('Payout Pending');
    expect(orderPayoutState({ balanceAvailableOn: '2030-01-03T00:00:00Z' }, now)).toBe('Payout Pending');
    expect(orderPayoutState({ balanceAvailableOn: '2030-01-01T00:00:00Z' }, now)).toBe('Payout Ready');
    expect(orderPayoutState({ onHold: true, balanceAvailableOn: '2030-01-01T00:00:00Z' }, now)).toBe('Payout On Hold');
    expect(orderPayoutState({ payoutCompleted: true, onHold: true }, now)).toBe('Payout Completed');
  });

  it('refund status text (spec §4)', () => {
    expect(refundStatusText('succeeded')).toBe('Succeeded');
    expect(refundStatusText('partially_refunded#abc')).toBe('Partially Refunded');
  });

  it("void body: the spec's messages", () => {
    const first = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) => r.error?.issues[0]?.message;
    expect(first(ZVoidTicketRequest.safeParse({ orderUID: 'A', void: true, reason: 'x' }))).toBe(M.voidIdsMissing);
    expect(first(ZVoidTicketRequest.safeParse({ ticketId: 't', orderUID: '  ', void: true, reason: 'x' }))).toBe(M.voidIdsMissing);
    expect(first(ZVoidTicketRequest.safeParse({ ticketId: 't', orderUID: 'A', void: true, reason: '   ' }))).toBe(M.reasonRequired);
    expect(first(ZVoidTicketRequest.safeParse({ ticketId: 't', orderUID: 'A', void: true }))).toBe(M.reasonRequired);
    expect(ZVoidTicketRequest.safeParse({ ticketId: 't', orderUID: 'A', void: false, reason: 'mistake' }).success).toBe(true);
  });

  it('refund body: one of full, amount or tickets, with a reason', () => {
    expect(ZRefundRequest.safeParse({ mode: 'full', reason: 'asked' }).success).toBe(true);
    expect(ZRefundRequest.safeParse({ mode: 'amount', reason: 'asked' }).error?.issues[0]?.message).toBe(M.refundAmountInvalid);
    expect(ZRefundRequest.safeParse({ mode: 'amount', amount: 0, reason: 'asked' }).error?.issues[0]?.message).toBe(M.refundAmountInvalid);
    expect(ZRefundRequest.safeParse({ mode: 'tickets', reason: 'asked' }).error?.issues[0]?.message).toBe(M.refundModeRequired);
    expect(ZRefundRequest.safeParse({ mode: 'full', reason: '' }).error?.issues[0]?.message).toBe(M.reasonRequired);
    expect(ZRefundRequest.safeParse({ reason: 'x' }).error?.issues[0]?.message).toBe(M.refundModeRequired);
  });
});
