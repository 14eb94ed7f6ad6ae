import { describe, expect, it } from 'vitest';
import { ticketTypesOnMenu } from './ticket-menu.js';

const types = [
  { id: 'ga', remaining: 10 },
  { id: 'vip', remaining: 0 },
  { id: 'late', remaining: 3 },
];
const remainingOf = (t: { remaining: number }) => t.remaining;

describe('ticketTypesOnMenu (autoShowActiveTicketsAsSoldOut)', () => {
  it('on: keeps a sold-out type on the menu, in order', () => {
    expect(ticketTypesOnMenu(types, { autoShowActiveTicketsAsSoldOut: true, remainingOf }).map((t) => t.id)).toEqual(['ga', 'vip', 'late']);
  });
  it('off: leaves the sold-out type out', () => {
    expect(ticketTypesOnMenu(types, { autoShowActiveTicketsAsSoldOut: false, remainingOf }).map((t) => t.id)).toEqual(['ga', 'late']);
  });
  it('off, but everything sold out: the whole menu stays, so it reads sold out rather than empty', () => {
    const gone = types.map((t) => ({ ...t, remaining: 0 }));
    expect(ticketTypesOnMenu(gone, { autoShowActiveTicketsAsSoldOut: false, remainingOf }).map((t) => t.id)).toEqual(['ga', 'vip', 'late']);
    expect(ticketTypesOnMenu([], { autoShowActiveTicketsAsSoldOut: false, remainingOf })).toEqual([]);
  });
});
