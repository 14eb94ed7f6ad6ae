import { describe, expect, it } from 'vitest';
import { complimentaryLimitMessage } from '../messages.js';
import { isSoldOn, ZBoxOfficeSaleRequest } from './box-office.js';

describe('where a ticket type is sold (issue 23)', () => {
  it('online only is not at the box office, box office only is not online, both is both', () => {
    expect([isSoldOn('BOTH', 'online'), isSoldOn('BOTH', 'backend'), isSoldOn('BOTH', 'app')]).toEqual([true, true, true]);
    expect([isSoldOn('ONLINE', 'online'), isSoldOn('ONLINE', 'backend'), isSoldOn('ONLINE', 'app')]).toEqual([true, false, true]);
    expect([isSoldOn('BOX_OFFICE', 'online'), isSoldOn('BOX_OFFICE', 'backend'), isSoldOn('BOX_OFFICE', 'app')]).toEqual([false, true, false]);
  });
});

describe('a box-office sale request', () => {
  const line = { ticketTypeId: '00000000-0000-4000-8000-000000000001', quantity: 1 };
  it('takes the buyer as optional, trims it, and refuses a bad e-mail', () => {
    const ok = ZBoxOfficeSaleRequest.parse({ idempotencyKey: 'k'.repeat(8), lines: [line], paymentMethod: 'cash', cashTendered: 100 });
    expect(ok).toMatchObject({ firstName: '', lastName: '', email: '', admit: false });
    expect(ZBoxOfficeSaleRequest.safeParse({ idempotencyKey: 'k'.repeat(8), lines: [line], paymentMethod: 'cash', email: 'nope' }).success).toBe(false);
    expect(ZBoxOfficeSaleRequest.safeParse({ idempotencyKey: 'k'.repeat(8), lines: [line], paymentMethod: 'cheque' }).success).toBe(false);
  });
  it('names the comp limit and what is left', () => {
    expect(complimentaryLimitMessage(3, 1)).toBe('This event allows 3 complimentary tickets: only 1 is left.');
    expect(complimentaryLimitMessage(1, 0)).toBe('This event allows 1 complimentary ticket: none are left.');
    expect(complimentaryLimitMessage(10, 4)).toBe('This event allows 10 complimentary tickets: only 4 are left.');
  });
});
