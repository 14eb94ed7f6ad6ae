import type { TTicketTypeSales } from '@marquee/core';
import { describe, expect, it } from 'vitest';
import { ticketTypeBars } from './chart-data';

const row = (o: Partial<TTicketTypeSales>): TTicketTypeSales => ({
  ticketTypeId: 'tt', ticketTypeName: 'General Admission', eventId: 'e1', eventName: 'Harbour Lights Festival 2031 Opening Night', ticketsSold: 1, complimentaryTickets: 0, ticketRevenue: 0, ...o,
});

describe('Tickets by ticket type (issue 21.12)', () => {
  it('labels each bar with its ticket type, not the event, even when the event name is long', () => {
    const bars = ticketTypeBars([row({ ticketTypeId: 'a', ticketTypeName: 'General Admission', ticketsSold: 3 }), row({ ticketTypeId: 'b', ticketTypeName: 'VIP', ticketsSold: 1 })], true);
    expect(bars.map((b) => [b.key, b.type, b.event, b.label])).toEqual([
      ['a', 'General Admission', null, 'General Admission'],
      ['b', 'VIP', null, 'VIP'],
    ]);
  });
  it('names the event on a second line when the bars come from several events, and keeps same-named types apart', () => {
    const bars = ticketTypeBars([row({ ticketTypeId: 'a', ticketsSold: 2 }), row({ ticketTypeId: 'b', eventId: 'e2', eventName: 'Spring Fair', ticketsSold: 1 })], true);
    expect(bars.map((b) => [b.key, b.type, b.event])).toEqual([
      ['a', 'General Admission', 'Harbour Lights Festival 2031 Opening Night'],
      ['b', 'General Admission', 'Spring Fair'],
    ]);
    expect(new Set(bars.map((b) => b.key)).size).toBe(2);
  });
  it('shows the ten best sellers and leaves out ticket types with nothing sold', () => {
    const many = Array.from({ length: 12 }, (_, i) => row({ ticketTypeId: `t${i}`, ticketTypeName: `Type ${i}`, ticketsSold: i }));
    const bars = ticketTypeBars(many, false);
    expect(bars).toHaveLength(10);
    expect(bars[0]!.type).toBe('Type 11');
    expect(bars.some((b) => b.type === 'Type 0')).toBe(false);
  });
});
