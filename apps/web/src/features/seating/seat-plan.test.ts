import type { TSeatMap } from '@marquee/core';
import { describe, expect, it } from 'vitest';
import { planOf, seatAt } from './seat-plan';

// The canvas map's tap: the grid index finds the seat under a point, the nearest when two are in
// reach, none in an aisle or off the plan; the same answer as looking at every seat.

const grid = (rows: number, perRow: number, pitch = 10): TSeatMap => ({
  version: 'v',
  sections: ['Stalls'],
  categories: [{ name: 'Stalls', ticketTypeId: null, ticketTypeName: null, price: null }],
  seats: Array.from({ length: rows * perRow }, (_, n) => [0, String(Math.floor(n / perRow) + 1), String((n % perRow) + 1), (n % perRow) * pitch + (n % perRow >= perRow / 2 ? 20 : 0), Math.floor(n / perRow) * pitch, 0, 0] as TSeatMap['seats'][number]),
});

describe('seat plan grid index', () => {
  it('answers the seat under a point, the nearest of two in reach, and none in the aisle or outside', () => {
    const map = grid(25, 100);
    const plan = planOf(map);
    expect(plan.n).toBe(2500);
    expect(seatAt(plan, 0, 0, 0)).toBe(0);
    expect(seatAt(plan, 31, 12, 0)).toBe(103); // row 2, seat 4 (x 30, y 10)
    expect(seatAt(plan, 36, 10, 2)).toBe(104); // between 103 and 104, nearer 104 (x 40)
    expect(seatAt(plan, 505, 0, 1)).toBe(-1); // the aisle after seat 50 (x 490 .. 520)
    expect(seatAt(plan, -50, -50, 5)).toBe(-1);
    expect(seatAt(plan, 5000, 5000, 5)).toBe(-1);
  });

  it('agrees with a look at every seat, for points all over the plan', () => {
    const map = grid(30, 40, 9);
    const plan = planOf(map);
    const brute = (x: number, y: number, slop: number) => {
      let best = -1;
      let bestD = (4 + slop) ** 2;
      map.seats.forEach((s, n) => {
        const d = (s[3] - x) ** 2 + (s[4] - y) ** 2;
        if (d <= bestD) [best, bestD] = [n, d];
      });
      return best;
    };
    for (let i = 0; i < 2000; i++) {
      const x = ((i * 7919) % 4200) / 10 - 10;
      const y = ((i * 104729) % 2900) / 10 - 10;
      expect(seatAt(plan, x, y, 3)).toBe(brute(x, y, 3));
    }
  });

  it('an empty plan has bounds and no seat', () => {
    const plan = planOf({ ...grid(1, 1), seats: [] });
    expect(plan.box.w).toBeGreaterThan(0);
    expect(seatAt(plan, 0, 0, 10)).toBe(-1);
  });
});
