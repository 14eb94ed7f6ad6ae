import type { TPublicEvent, TPublicTicketType } from '@marquee/core';
import { describe, expect, it } from 'vitest';
import { canAdd, checkCart, currentItems, leftOf, nextDown, nextUp, stepperMax, ticketState, unavailableItems, withCapacityCap } from './cart-rules';
import type { CartItem } from './cart-store';

const NOW = Date.parse('2031-06-01T12:00:00Z');

function ticketType(id: string, over: Partial<TPublicTicketType['details']> = {}): TPublicTicketType {
  return {
    id,
    details: {
      name: id,
      details: '',
      price: 1000,
      allInPrice: 1000,
      remainingQuantity: 20,
      minTicketPerOrder: 1,
      maxTicketPerOrder: 10,
      salesAvailability: 'SALES_AVAILABILITY_OPT_1',
      startDate: null,
      startTime: null,
      endDate: null,
      endTime: null,
      salesStartAt: null,
      salesEndAt: null,
      otherTicketTypeId: null,
      sortOrder: 0,
      sk: id,
      available: true,
      ...over,
    },
  };
}

function eventWith(types: TPublicTicketType[], remainingCapacity = 100): TPublicEvent {
  return {
    id: 'e',
    tenantId: 't',
    details: {
      name: 'E',
      urlName: 'e',
      status: 'published',
      description: '',
      startDateTime: null,
      endDateTime: null,
      timeZone: 'America/New_York',
      venueName: '',
      address1: '',
      city: '',
      state: '',
      zip: '',
      country: 'USA',
      covidSafety: false,
      covidSafetyText: '',
      seatMap: null,
    },
    ticketTypes: types,
    settings: { remainingCapacity, emailDeliveryVerbiage: '', covidSafety: false, covidSafetyText: '', timeZone: 'America/New_York', seatMap: null, charity: null, autoShowActiveTicketsAsSoldOut: true },
  };
}

const item = (id: string, quantity: number): CartItem => ({ id, ticketName: id, price: 1000, quantity, details: '' });

describe('ticket menu states (spec §4 availability)', () => {
  it('sold out, window not yet open, window closed, linked type gone', () => {
    const ga = ticketType('ga');
    const gone = ticketType('gone', { remainingQuantity: 0 });
    const early = ticketType('early', { salesAvailability: 'SALES_AVAILABILITY_OPT_2', salesStartAt: '2031-07-01T00:00:00Z', salesEndAt: '2031-08-01T00:00:00Z' });
    const late = ticketType('late', { salesAvailability: 'SALES_AVAILABILITY_OPT_2', salesStartAt: '2031-01-01T00:00:00Z', salesEndAt: '2031-02-01T00:00:00Z' });
    const linked = ticketType('linked', { salesAvailability: 'SALES_AVAILABILITY_OPT_3', otherTicketTypeId: 'gone' });
    const event = eventWith([ga, gone, early, late, linked]);
    expect(ticketState(ga, event, NOW)).toBe('onSale');
    expect(ticketState(gone, event, NOW)).toBe('soldOut');
    expect(ticketState(early, event, NOW)).toBe('notYetOnSale');
    expect(ticketState(late, event, NOW)).toBe('salesEnded');
    expect(ticketState(linked, event, NOW)).toBe('notOnSale');
  });
});

describe('quantity steps', () => {
  it('shows at most 10, or the per-order maximum when lower (spec §9)', () => {
    expect(stepperMax(ticketType('a', { maxTicketPerOrder: 50 }))).toBe(10);
    expect(stepperMax(ticketType('a', { maxTicketPerOrder: 4 }))).toBe(4);
  });

  it('jumps to the per-order minimum and drops the line below it', () => {
    const t = ticketType('a', { minTicketPerOrder: 2 });
    expect(nextUp(t, 0)).toBe(2);
    expect(nextUp(t, 2)).toBe(3);
    expect(nextDown(t, 3)).toBe(2);
    expect(nextDown(t, 2)).toBe(0);
    expect(nextDown(undefined, 1)).toBe(0);
  });

  it('blocks adding past what is left, with the number remaining (spec §8 Quantity Limit Exceeded)', () => {
    const t = ticketType('a', { remainingQuantity: 2 });
    const event = eventWith([t]);
    expect(canAdd(t, event, [item('a', 1)], 2)).toEqual({ ok: true });
    expect(canAdd(t, event, [item('a', 2)], 3)).toEqual({ ok: false, remaining: 2 });
  });

  it("never offers more than the event's remaining capacity, less the cart's other lines", () => {
    const seat = ticketType('seat', { remainingQuantity: 10 });
    const stand = ticketType('stand', { remainingQuantity: 10 });
    const event = eventWith([seat, stand], 3);
    expect(canAdd(seat, event, [], 3)).toEqual({ ok: true });
    expect(canAdd(seat, event, [item('seat', 3)], 4)).toEqual({ ok: false, remaining: 3 });
    expect(canAdd(stand, event, [item('seat', 2)], 1)).toEqual({ ok: true });
    expect(canAdd(stand, event, [item('seat', 2), item('stand', 1)], 2)).toEqual({ ok: false, remaining: 1 });
    expect(canAdd(stand, eventWith([seat, stand], 0), [], 1)).toEqual({ ok: false, remaining: 0 });
  });

  it("shows each ticket type's remaining count capped by the event's, sold out when the event is full", () => {
    const seat = ticketType('seat', { remainingQuantity: 10 });
    const few = ticketType('few', { remainingQuantity: 2 });
    const capped = withCapacityCap(eventWith([seat, few], 3));
    expect(capped.ticketTypes.map((t) => t.details.remainingQuantity)).toEqual([3, 2]);
    expect(leftOf(seat, eventWith([seat], 3))).toBe(3);
    const uncapped = eventWith([seat, few], 100);
    expect(withCapacityCap(uncapped)).toBe(uncapped);
    const full = withCapacityCap(eventWith([seat], 0));
    expect(ticketState(full.ticketTypes[0]!, full, NOW)).toBe('soldOut');
  });
});

describe('cart checks (spec §5 cart validation)', () => {
  it('reports requested, available and excess per line and blocks CONTINUE', () => {
    const event = eventWith([ticketType('a', { remainingQuantity: 1 })]);
    const v = checkCart(event, [item('a', 3)], NOW);
    expect(v.blocked).toBe(true);
    expect(v.problems).toEqual([{ ticketTypeId: 'a', ticketName: 'a', kind: 'exceedsRemaining', requested: 3, available: 1, excess: 2 }]);
  });

  it('blocks an empty cart, no capacity left, and more than the capacity', () => {
    const event = eventWith([ticketType('a')], 2);
    expect(checkCart(event, [], NOW).blockReason).toBe('empty');
    expect(checkCart(eventWith([ticketType('a')], 0), [item('a', 1)], NOW).blockReason).toBe('noCapacity');
    expect(checkCart(event, [item('a', 3)], NOW).blockReason).toBe('overCapacity');
    expect(checkCart(event, [item('a', 2)], NOW).blocked).toBe(false);
  });

  it("takes each line's name and price from the event as it is now; gone types keep the stored copy", () => {
    const event = eventWith([ticketType('a', { name: 'General Admission (new)', price: 5000, details: 'Lawn' }), ticketType('b')]);
    const stored = [
      { id: 'a', ticketName: 'General Admission', price: 4500, quantity: 2, details: 'Lawn' },
      { id: 'b', ticketName: 'b', price: 1000, quantity: 1, details: '' },
      { id: 'gone', ticketName: 'Old', price: 700, quantity: 1, details: '' },
    ];
    expect(currentItems(event, stored)).toEqual([
      { id: 'a', ticketName: 'General Admission (new)', price: 5000, quantity: 2, details: 'Lawn' },
      stored[1],
      stored[2],
    ]);
    expect(currentItems(event, [stored[1]!])).toEqual([stored[1]]);
    const same = [stored[1]!];
    expect(currentItems(event, same)).toBe(same);
  });

  it('finds the lines to remove: off the menu or no longer on sale', () => {
    const event = eventWith([ticketType('a'), ticketType('b', { remainingQuantity: 0 })]);
    expect(unavailableItems(event, [item('a', 1), item('b', 1), item('gone', 2)], NOW).map((i) => i.id)).toEqual(['b', 'gone']);
  });
});
