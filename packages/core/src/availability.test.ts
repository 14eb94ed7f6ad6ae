import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkAddToCart,
  formatEventDateTime,
  instantToWallClock,
  isTicketTypeAvailable,
  isValidTimeZone,
  maxOrderable,
  mergeCartLines,
  salesWindowInstants,
  timeZoneOffsetMs,
  validateCart,
  zonedDateTimeToInstant,
  type AvailabilityTicketType,
  type CartTicketType,
} from './availability.js';

const NOW = Date.parse('2025-06-15T12:00:00Z');

const tt = (over: Partial<CartTicketType> = {}): CartTicketType => ({
  id: 'ga',
  name: 'General Admission',
  remainingQuantity: 10,
  salesAvailability: 'SALES_AVAILABILITY_OPT_1',
  salesStartAt: null,
  salesEndAt: null,
  otherTicketTypeId: null,
  minTicketPerOrder: 1,
  maxTicketPerOrder: 10,
  ...over,
});

describe('time zones', () => {
  it('knows IANA zones and refuses anything else', () => {
    expect(isValidTimeZone('America/New_York')).toBe(true);
    expect(isValidTimeZone('Europe/London')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });

  it('finds the offset in winter and in summer', () => {
    expect(timeZoneOffsetMs('America/New_York', Date.parse('2025-01-15T12:00:00Z'))).toBe(-5 * 3600_000);
    expect(timeZoneOffsetMs('America/New_York', Date.parse('2025-07-15T12:00:00Z'))).toBe(-4 * 3600_000);
    expect(timeZoneOffsetMs('Asia/Kolkata', Date.parse('2025-07-15T12:00:00Z'))).toBe(5.5 * 3600_000);
    expect(timeZoneOffsetMs('UTC', Date.parse('2025-07-15T12:00:00Z'))).toBe(0);
  });

  it('turns a wall clock in the event zone into the instant', () => {
    expect(zonedDateTimeToInstant('2025-07-04', '19:30', 'America/New_York')?.toISOString()).toBe('2025-07-04T23:30:00.000Z');
    expect(zonedDateTimeToInstant('2025-12-24', '09:00', 'America/Los_Angeles')?.toISOString()).toBe('2025-12-24T17:00:00.000Z');
    expect(zonedDateTimeToInstant('2025-07-04', '19:30', 'Australia/Sydney')?.toISOString()).toBe('2025-07-04T09:30:00.000Z');
    expect(zonedDateTimeToInstant('2025-07-04', '00:00', 'Pacific/Kiritimati')?.toISOString()).toBe('2025-07-03T10:00:00.000Z');
  });

  it('takes a skipped spring-forward time as the moment after the jump, and the first of a repeated autumn time', () => {
    // 2025-03-09 02:30 does not exist in New York: clocks go from 02:00 EST to 03:00 EDT.
    expect(zonedDateTimeToInstant('2025-03-09', '02:30', 'America/New_York')?.toISOString()).toBe('2025-03-09T07:30:00.000Z');
    // 2025-11-02 01:30 happens twice: first in EDT (05:30Z), then in EST (06:30Z).
    expect(zonedDateTimeToInstant('2025-11-02', '01:30', 'America/New_York')?.toISOString()).toBe('2025-11-02T05:30:00.000Z');
  });

  it('refuses dates and times that do not exist', () => {
    expect(zonedDateTimeToInstant('2025-02-30', '10:00', 'UTC')).toBeNull();
    expect(zonedDateTimeToInstant('2025-13-01', '10:00', 'UTC')).toBeNull();
    expect(zonedDateTimeToInstant('2025-01-01', '24:00', 'UTC')).toBeNull();
    expect(zonedDateTimeToInstant('01/02/2025', '10:00', 'UTC')).toBeNull();
    expect(zonedDateTimeToInstant('2025-01-01', '10:00', 'Nowhere/City')).toBeNull();
  });

  it('round-trips every instant through the wall clock of any zone (property)', () => {
    const zones = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns', 'UTC', 'Pacific/Apia', 'Pacific/Chatham', 'Antarctica/Troll', 'Pacific/Kiritimati', 'America/Sao_Paulo'];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2000-01-01T00:00:00Z') / 60_000, max: Date.parse('2037-12-31T00:00:00Z') / 60_000 }),
        fc.constantFrom(...zones),
        (minutes, zone) => {
          const instant = minutes * 60_000;
          const wall = instantToWallClock(instant, zone);
          const back = zonedDateTimeToInstant(wall.date, wall.time, zone);
          expect(back).not.toBeNull();
          // The same wall clock, and never later than the original (a repeated hour reads as its first pass).
          expect(instantToWallClock(back!, zone)).toEqual(wall);
          expect(back!.getTime()).toBeLessThanOrEqual(instant);
          // At most the zone's largest fall-back: two hours (Antarctica/Troll goes from UTC+2 to UTC+0).
          expect(instant - back!.getTime()).toBeLessThanOrEqual(2 * 3600_000);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('availability (spec §4 Cart)', () => {
  it('none left means unavailable, whatever the option', () => {
    for (const salesAvailability of ['SALES_AVAILABILITY_OPT_1', 'SALES_AVAILABILITY_OPT_2', 'SALES_AVAILABILITY_OPT_3', 'OTHER']) {
      expect(isTicketTypeAvailable(tt({ remainingQuantity: 0, salesAvailability }), [], NOW)).toBe(false);
    }
  });

  it('OPT_1 and unknown values are always available', () => {
    expect(isTicketTypeAvailable(tt(), [], NOW)).toBe(true);
    expect(isTicketTypeAvailable(tt({ salesAvailability: 'SOMETHING_ELSE' }), [], NOW)).toBe(true);
  });

  it('OPT_2 only within its window: opens at the start, closed at the end', () => {
    const window = tt({ salesAvailability: 'SALES_AVAILABILITY_OPT_2', salesStartAt: '2025-06-15T12:00:00Z', salesEndAt: '2025-06-16T12:00:00Z' });
    expect(isTicketTypeAvailable(window, [], NOW - 1)).toBe(false);
    expect(isTicketTypeAvailable(window, [], NOW)).toBe(true);
    expect(isTicketTypeAvailable(window, [], Date.parse('2025-06-16T11:59:59Z'))).toBe(true);
    expect(isTicketTypeAvailable(window, [], Date.parse('2025-06-16T12:00:00Z'))).toBe(false);
  });

  it('OPT_3 only while the linked ticket type is available', () => {
    const early = tt({ id: 'early', remainingQuantity: 5 });
    const late = tt({ id: 'late', salesAvailability: 'SALES_AVAILABILITY_OPT_3', otherTicketTypeId: 'early' });
    expect(isTicketTypeAvailable(late, [early, late], NOW)).toBe(true);
    const soldOut = { ...early, remainingQuantity: 0 };
    expect(isTicketTypeAvailable(late, [soldOut, late], NOW)).toBe(false);
    // A missing link, a link to itself, or a loop of links is unavailable.
    expect(isTicketTypeAvailable(late, [late], NOW)).toBe(false);
    expect(isTicketTypeAvailable({ ...late, otherTicketTypeId: 'late' }, [late], NOW)).toBe(false);
    const a = tt({ id: 'a', salesAvailability: 'SALES_AVAILABILITY_OPT_3', otherTicketTypeId: 'b' });
    const b = tt({ id: 'b', salesAvailability: 'SALES_AVAILABILITY_OPT_3', otherTicketTypeId: 'a' });
    expect(isTicketTypeAvailable(a, [a, b], NOW)).toBe(false);
  });

  it('a ticket type switched off is unavailable', () => {
    expect(isTicketTypeAvailable(tt({ active: false }), [], NOW)).toBe(false);
  });

  it('follows the rules on random ticket types (property)', () => {
    const arbTt = (id: string, other: string): fc.Arbitrary<AvailabilityTicketType> =>
      fc.record({
        id: fc.constant(id),
        remainingQuantity: fc.integer({ min: -2, max: 5 }),
        salesAvailability: fc.constantFrom('SALES_AVAILABILITY_OPT_1', 'SALES_AVAILABILITY_OPT_2', 'SALES_AVAILABILITY_OPT_3', 'X'),
        salesStartAt: fc.option(fc.integer({ min: NOW - 10_000, max: NOW + 10_000 })),
        salesEndAt: fc.option(fc.integer({ min: NOW - 10_000, max: NOW + 10_000 })),
        otherTicketTypeId: fc.constantFrom(other, null),
      });
    fc.assert(
      fc.property(arbTt('a', 'b'), arbTt('b', 'a'), fc.integer({ min: NOW - 20_000, max: NOW + 20_000 }), (a, b, now) => {
        const all = [a, b];
        const got = isTicketTypeAvailable(a, all, now);
        let expected: boolean;
        if (a.remainingQuantity <= 0) expected = false;
        else if (a.salesAvailability === 'SALES_AVAILABILITY_OPT_2') {
          const start = a.salesStartAt as number | null;
          const end = a.salesEndAt as number | null;
          expected = (start === null || now >= start) && (end === null || now < end);
        } else if (a.salesAvailability === 'SALES_AVAILABILITY_OPT_3') {
          // a follows b. b is available by the same rules, except that b on OPT_3 links back to a
          // (a loop) or to nothing: unavailable either way.
          const bStart = b.salesStartAt as number | null;
          const bEnd = b.salesEndAt as number | null;
          let bAvailable: boolean;
          if (b.remainingQuantity <= 0) bAvailable = false;
          else if (b.salesAvailability === 'SALES_AVAILABILITY_OPT_2') bAvailable = (bStart === null || now >= bStart) && (bEnd === null || now < bEnd);
          else if (b.salesAvailability === 'SALES_AVAILABILITY_OPT_3') bAvailable = false;
          else bAvailable = true;
          expected = a.otherTicketTypeId === 'b' && bAvailable;
        } else expected = true;
        expect(got).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('caps what one order may take by the per-order maximum', () => {
    expect(maxOrderable({ remainingQuantity: 3, maxTicketPerOrder: 10 })).toBe(3);
    expect(maxOrderable({ remainingQuantity: 30, maxTicketPerOrder: 10 })).toBe(10);
    expect(maxOrderable({ remainingQuantity: -1, maxTicketPerOrder: 10 })).toBe(0);
  });

  it('blocks adding past the remaining tickets (Quantity Limit Exceeded, N remaining)', () => {
    expect(checkAddToCart({ remainingQuantity: 5 }, 3, 2)).toEqual({ ok: true });
    expect(checkAddToCart({ remainingQuantity: 5 }, 4, 2)).toEqual({ ok: false, remaining: 5 });
  });
});

describe('cart validation (spec §5)', () => {
  const ga = tt();
  const vip = tt({ id: 'vip', name: 'VIP', remainingQuantity: 2, maxTicketPerOrder: 4, minTicketPerOrder: 2 });

  it('passes a cart within every limit', () => {
    const v = validateCart({ lines: [{ ticketTypeId: 'ga', quantity: 3 }, { ticketTypeId: 'vip', quantity: 2 }], ticketTypes: [ga, vip], remainingCapacity: 100, now: NOW });
    expect(v).toEqual({ problems: [], totalQuantity: 5, remainingCapacity: 100, blocked: false, blockReason: null });
  });

  it('reports a line over its remaining tickets with requested, available and excess', () => {
    const v = validateCart({ lines: [{ ticketTypeId: 'vip', quantity: 3 }], ticketTypes: [ga, vip], remainingCapacity: null, now: NOW });
    expect(v.problems).toEqual([{ ticketTypeId: 'vip', ticketName: 'VIP', kind: 'exceedsRemaining', requested: 3, available: 2, excess: 1 }]);
    expect(v.blocked).toBe(true);
    expect(v.blockReason).toBe('lineProblems');
  });

  it('reports unavailable and unknown lines, and per-order limits', () => {
    const gone = tt({ id: 'gone', name: 'Early Bird', remainingQuantity: 0 });
    const v = validateCart({
      lines: [
        { ticketTypeId: 'gone', quantity: 1 },
        { ticketTypeId: 'nope', quantity: 2 },
        { ticketTypeId: 'ga', quantity: 11 },
      ],
      ticketTypes: [ga, vip, gone],
      remainingCapacity: null,
      now: NOW,
    });
    expect(v.problems).toEqual([
      { ticketTypeId: 'gone', ticketName: 'Early Bird', kind: 'unavailable', requested: 1, available: 0, excess: 1 },
      { ticketTypeId: 'nope', ticketName: '', kind: 'unavailable', requested: 2, available: 0, excess: 2 },
      { ticketTypeId: 'ga', ticketName: 'General Admission', kind: 'exceedsRemaining', requested: 11, available: 10, excess: 1 },
    ]);
    const min = validateCart({ lines: [{ ticketTypeId: 'vip', quantity: 1 }], ticketTypes: [vip], remainingCapacity: null, now: NOW });
    expect(min.problems[0]).toMatchObject({ kind: 'belowMinimum', requested: 1, available: 2, excess: 1 });
    const big = tt({ id: 'big', remainingQuantity: 100, maxTicketPerOrder: 4 });
    const max = validateCart({ lines: [{ ticketTypeId: 'big', quantity: 6 }], ticketTypes: [big], remainingCapacity: null, now: NOW });
    expect(max.problems[0]).toMatchObject({ kind: 'aboveMaximum', requested: 6, available: 4, excess: 2 });
  });

  it('blocks an empty cart, an event with no capacity left, and a cart over the capacity', () => {
    expect(validateCart({ lines: [], ticketTypes: [ga], remainingCapacity: 10, now: NOW }).blockReason).toBe('empty');
    expect(validateCart({ lines: [{ ticketTypeId: 'ga', quantity: 0 }], ticketTypes: [ga], remainingCapacity: 10, now: NOW }).blockReason).toBe('empty');
    expect(validateCart({ lines: [{ ticketTypeId: 'ga', quantity: 1 }], ticketTypes: [ga], remainingCapacity: 0, now: NOW }).blockReason).toBe('noCapacity');
    expect(validateCart({ lines: [{ ticketTypeId: 'ga', quantity: 4 }], ticketTypes: [ga], remainingCapacity: 3, now: NOW }).blockReason).toBe('overCapacity');
  });

  it('counts the same ticket type on two lines together', () => {
    const v = validateCart({ lines: [{ ticketTypeId: 'vip', quantity: 1 }, { ticketTypeId: 'vip', quantity: 2 }], ticketTypes: [vip], remainingCapacity: null, now: NOW });
    expect(v.problems[0]).toMatchObject({ kind: 'exceedsRemaining', requested: 3, available: 2 });
  });

  it('is blocked exactly when the spec says (property)', () => {
    const types = [ga, vip, tt({ id: 'x', name: 'X', remainingQuantity: 0 })];
    fc.assert(
      fc.property(
        fc.array(fc.record({ ticketTypeId: fc.constantFrom('ga', 'vip', 'x', 'unknown'), quantity: fc.integer({ min: 0, max: 15 }) }), { maxLength: 6 }),
        fc.option(fc.integer({ min: 0, max: 30 })),
        (lines, remainingCapacity) => {
          const v = validateCart({ lines, ticketTypes: types, remainingCapacity, now: NOW });
          const total = lines.reduce((s, l) => s + l.quantity, 0);
          expect(v.totalQuantity).toBe(total);
          // The problems, written out from the lines: one per ticket type (lines of one type summed,
          // in the order the type first appears), naming the first rule it breaks.
          const byType = new Map<string, number>();
          for (const l of lines) if (l.quantity > 0) byType.set(l.ticketTypeId, (byType.get(l.ticketTypeId) ?? 0) + l.quantity);
          const expectedProblems: unknown[] = [];
          for (const [id, q] of byType) {
            const t = types.find((x) => x.id === id);
            const problem = (kind: string, available: number, excess: number) => ({ ticketTypeId: id, ticketName: t?.name ?? '', kind, requested: q, available, excess });
            if (!t || t.remainingQuantity <= 0) expectedProblems.push(problem('unavailable', 0, q));
            else if (q > t.remainingQuantity) expectedProblems.push(problem('exceedsRemaining', t.remainingQuantity, q - t.remainingQuantity));
            else if (q > t.maxTicketPerOrder!) expectedProblems.push(problem('aboveMaximum', t.maxTicketPerOrder!, q - t.maxTicketPerOrder!));
            else if (q < t.minTicketPerOrder!) expectedProblems.push(problem('belowMinimum', t.minTicketPerOrder!, t.minTicketPerOrder! - q));
          }
          expect(v.problems).toEqual(expectedProblems);
          // Blocked, and why, in the spec's order: empty, no capacity, over capacity, line problems.
          let expectedReason: string | null = null;
          if (total === 0) expectedReason = 'empty';
          else if (remainingCapacity !== null && remainingCapacity <= 0) expectedReason = 'noCapacity';
          else if (remainingCapacity !== null && total > remainingCapacity) expectedReason = 'overCapacity';
          else if (expectedProblems.length > 0) expectedReason = 'lineProblems';
          expect(v.blockReason).toBe(expectedReason);
          expect(v.blocked).toBe(expectedReason !== null);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('mergeCartLines', () => {
  it('sums the same ticket type over its lines and drops lines of zero, in first-seen order', () => {
    const merged = mergeCartLines([
      { ticketTypeId: 'b', quantity: 2 },
      { ticketTypeId: 'a', quantity: 0 },
      { ticketTypeId: 'c', quantity: 1 },
      { ticketTypeId: 'b', quantity: 3 },
    ]);
    expect([...merged]).toEqual([
      ['b', 5],
      ['c', 1],
    ]);
  });
});

describe('salesWindowInstants', () => {
  it('reads the typed window as wall-clock times of the zone, and leaves a half-typed end open', () => {
    const w = salesWindowInstants({ startDate: '2026-07-01', startTime: '09:00', endDate: '2026-07-02', endTime: null }, 'America/New_York');
    expect(w.salesStartAt?.toISOString()).toBe('2026-07-01T13:00:00.000Z');
    expect(w.salesEndAt).toBeNull();
  });
});

describe('formatEventDateTime', () => {
  it("says the start in the event's zone, and 'Date to be announced' without one", () => {
    expect(formatEventDateTime(new Date('2026-01-15T01:00:00Z'), 'America/New_York').replace(/\u202f/g, ' ')).toBe('Wednesday, January 14, 2026 at 8:00 PM EST');
    expect(formatEventDateTime(null, 'UTC')).toBe('Date to be announced');
  });
});
