import { describe, expect, it } from 'vitest';
import { adjacentRuns, generateSeats, rowLabelOf, seatNumbersOf, seatScores } from './seating.js';
import { ZVenueLayoutInput, SM } from './schemas/seating.js';

const section = { name: 'Stalls', category: 'Stalls', rows: 2, seatsPerRow: 6, rowLabels: 'letters' as const, firstRow: 1, numbering: 'ltr' as const, aisleAfter: [3], curve: 0, angle: 0, x: 0, y: 0 };

describe('reserved seating rules (issue 27)', () => {
  it('labels rows A..Z, AA.. or by number, and numbers seats left to right, right to left, or odd/even from the centre', () => {
    expect([1, 26, 27, 52].map((n) => rowLabelOf('letters', n))).toEqual(['A', 'Z', 'AA', 'AZ']);
    expect(rowLabelOf('numbers', 7)).toBe('7');
    expect(seatNumbersOf('rtl', 4)).toEqual([4, 3, 2, 1]);
    expect(seatNumbersOf('odd-even', 6)).toEqual([5, 3, 1, 2, 4, 6]);
  });

  it('generates each seat with its key and position; an aisle leaves a gap that breaks adjacency', () => {
    const seats = generateSeats([section]);
    expect(seats).toHaveLength(12);
    expect(seats[0]).toMatchObject({ key: 'Stalls|A|1', row: 'A', seat: '1', rowKey: 0, seatIndex: 0 });
    expect(seats.slice(0, 6).map((s) => s.seatIndex)).toEqual([0, 1, 2, 4, 5, 6]);
    const scores = seatScores(seats);
    const free = seats.map((s, n) => ({ n, rowKey: s.rowKey, seatIndex: s.seatIndex, score: scores[n]! }));
    const runs = adjacentRuns(free, 2);
    // No run crosses the aisle (seats 3 and 4 of a row), and the front row comes first.
    expect(runs.every(([a, b]) => b!.seatIndex - a!.seatIndex === 1)).toBe(true);
    expect(runs[0]!.every((s) => s.rowKey === 0)).toBe(true);
    expect(adjacentRuns(free, 4)).toEqual([]);
  });

  it('refuses a layout with a marked seat that is not in it, or too many seats', () => {
    const bad = ZVenueLayoutInput.safeParse({ name: 'Hall', sections: [section], blocked: ['Stalls|Z|9'] });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error)).toContain(SM.unknownSeatKey);
    const huge = ZVenueLayoutInput.safeParse({ name: 'Hall', sections: Array.from({ length: 3 }, (_, i) => ({ ...section, name: `S${i}`, rows: 100, seatsPerRow: 120 })) });
    expect(JSON.stringify(huge.error)).toContain(SM.tooManySeats);
  });
});
