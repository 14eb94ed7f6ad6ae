import type { TPublicEvent } from '@marquee/core';
import { describe, expect, it } from 'vitest';
import type { PendingOrder } from '../checkout/checkout-storage';
import { withOwnHold } from './own-hold';

const event = {
  id: 'e',
  tenantId: 't',
  details: {} as TPublicEvent['details'],
  ticketTypes: [
    { id: 'a', details: { remainingQuantity: 0 } },
    { id: 'b', details: { remainingQuantity: 5 } },
  ],
  settings: { remainingCapacity: 5 },
} as unknown as TPublicEvent;

const pending = (holdExpiresAt: string): PendingOrder => ({
  orderUID: 'ORDER1',
  token: 'x',
  eventName: 'e',
  email: 'a@b.co',
  holdExpiresAt,
  breakdown: {} as PendingOrder['breakdown'],
  items: [{ id: 'a', ticketName: 'A', price: 100, quantity: 3, details: '' }],
});

describe('withOwnHold', () => {
  it("counts the buyer's own held tickets as theirs while the hold lasts", () => {
    const seen = withOwnHold(event, pending('2031-01-01T00:10:00Z'), Date.parse('2031-01-01T00:00:00Z'));
    expect(seen.ticketTypes.map((t) => t.details.remainingQuantity)).toEqual([3, 5]);
    expect(seen.settings.remainingCapacity).toBe(8);
  });

  it('changes nothing once the hold has expired, or without a draft', () => {
    expect(withOwnHold(event, pending('2031-01-01T00:10:00Z'), Date.parse('2031-01-01T00:20:00Z'))).toBe(event);
    expect(withOwnHold(event, null)).toBe(event);
  });
});
