// Issue 27 (seat map on a phone): the seat plan as typed arrays for the canvas (seat-canvas.tsx), and a
// grid index that finds the seat under a tap without looking at 20,000 seats.
import { SEAT_RADIUS, seatPlanBox, type SeatPlanBox, type TSeatMap } from '@marquee/core';

/** A seat's radius in plan units (core's: the server's preview image draws the same map). */
export { SEAT_RADIUS };
const R = SEAT_RADIUS;
/** The grid index's cell, in plan units. */
const CELL = 16;

export type Box = SeatPlanBox;

/** The plan as typed arrays, its bounds (with room above for the stage) and a grid index (cell -> seats). */
export type SeatPlan = { n: number; xs: Float32Array; ys: Float32Array; cats: Uint16Array; flags: Uint8Array; box: Box; cols: number; rows: number; cellStart: Int32Array; cellSeats: Int32Array };

export function planOf(map: TSeatMap): SeatPlan {
  const n = map.seats.length;
  const xs = new Float32Array(n);
  const ys = new Float32Array(n);
  const cats = new Uint16Array(n);
  const flags = new Uint8Array(n);
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    const s = map.seats[i]!;
    xs[i] = s[3];
    ys[i] = s[4];
    cats[i] = s[5];
    flags[i] = s[6];
    if (s[3] < minX) minX = s[3];
    if (s[3] > maxX) maxX = s[3];
    if (s[4] < minY) minY = s[4];
    if (s[4] > maxY) maxY = s[4];
  }
  const box = seatPlanBox(minX, minY, maxX, maxY);
  // The grid: counting sort of the seats by cell.
  const cols = Math.max(1, Math.ceil(box.w / CELL));
  const rows = Math.max(1, Math.ceil(box.h / CELL));
  const cellOf = (i: number) => Math.min(rows - 1, Math.floor((ys[i]! - box.y) / CELL)) * cols + Math.min(cols - 1, Math.floor((xs[i]! - box.x) / CELL));
  const cellStart = new Int32Array(cols * rows + 1);
  for (let i = 0; i < n; i++) cellStart[cellOf(i) + 1]!++;
  for (let c = 0; c < cols * rows; c++) cellStart[c + 1]! += cellStart[c]!;
  const fill = cellStart.slice(0, cols * rows);
  const cellSeats = new Int32Array(n);
  for (let i = 0; i < n; i++) cellSeats[fill[cellOf(i)]!++] = i;
  return { n, xs, ys, cats, flags, box, cols, rows, cellStart, cellSeats };
}

/** The seat under a point of the plan (within `slop` plan units of its edge), nearest first; -1 when none. */
export function seatAt(plan: SeatPlan, x: number, y: number, slop: number): number {
  const reach = R + slop;
  const c0 = Math.max(0, Math.floor((x - reach - plan.box.x) / CELL));
  const c1 = Math.min(plan.cols - 1, Math.floor((x + reach - plan.box.x) / CELL));
  const r0 = Math.max(0, Math.floor((y - reach - plan.box.y) / CELL));
  const r1 = Math.min(plan.rows - 1, Math.floor((y + reach - plan.box.y) / CELL));
  let best = -1;
  let bestD = reach * reach;
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const cell = r * plan.cols + c;
      for (let j = plan.cellStart[cell]!; j < plan.cellStart[cell + 1]!; j++) {
        const i = plan.cellSeats[j]!;
        const d = (plan.xs[i]! - x) ** 2 + (plan.ys[i]! - y) ** 2;
        if (d <= bestD) [best, bestD] = [i, d];
      }
    }
  }
  return best;
}

