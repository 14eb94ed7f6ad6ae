import { describe, expect, it } from 'vitest';
import { cancellationRefundText } from './cancellation-text';

const base = { amount: 4200, maxTries: 6, nextTryAt: null, failureReason: null };

describe('cancellationRefundText (issue 21.13)', () => {
  const now = new Date('2030-03-02T10:00:00');
  it('says a refused refund is tried again, when, and which try it will be', () => {
    const text = cancellationRefundText({ ...base, state: 'retrying', tries: 1, nextTryAt: new Date('2030-03-02T10:05:00').toISOString(), failureReason: 'Insufficient funds.' }, now);
    expect(text).toBe('Refused (Insufficient funds). Next try, automatic: Mar 2, 10:05 AM (try 2 of 6).');
  });
  it('says a refund that failed every try failed for good, with the reason, and what to do', () => {
    expect(cancellationRefundText({ ...base, state: 'failed', tries: 6, failureReason: 'Charge disputed' }, now)).toBe(
      'Failed after 6 tries (Charge disputed). Refund it from the order page.',
    );
  });
  it('tells a queued refund from one waiting for the card processor, and an order refunded before', () => {
    expect(cancellationRefundText({ ...base, state: 'pending', tries: 0 }, now)).toBe('Queued: refunded in a moment.');
    expect(cancellationRefundText({ ...base, state: 'pending', tries: 1 }, now)).toBe('Asked of the card processor, waiting for its answer.');
    expect(cancellationRefundText({ ...base, state: 'not_needed', tries: 0 }, now)).toMatch(/^Nothing to refund/);
  });
});
