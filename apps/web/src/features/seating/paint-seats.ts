// Issue 27 (pan4): the seats' painting, shared by the seat map's canvas (seat-canvas.tsx, on the page's
// thread) and its drawing worker (seat-draw.worker.ts): the same pixels whichever thread paints them.
import { SEAT_MINE_COLOUR, SEAT_MINE_RING, SEAT_RADIUS as R, SEAT_STAGE_COLOUR, SEAT_TAKEN_COLOUR, seatStageRect, type SeatPlanBox } from '@marquee/core';

/** What a frame needs of the plan (seat-plan.ts SeatPlan has it all): positions, flags (1: accessible), bounds. */
export type PaintPlan = { n: number; xs: Float32Array; ys: Float32Array; flags: Uint8Array; box: SeatPlanBox };
/** The seats sorted into colour buckets (a counting sort): categories first, then not for sale, taken, and yours last (on top). */
export type Buckets = { colours: string[]; start: Int32Array; order: Int32Array };
/** Scale k and offset (tx, ty), CSS px: a plan point (x, y) is at (x k + tx, y k + ty) in the canvas. */
export type View = { k: number; tx: number; ty: number };

/**
 * Paints the stage, the seats in view (one fill per colour bucket) and the accessible seats' rings on a
 * cleared W x H (device px) 2D context at the view, for a device pixel ratio dpr.
 */
export function paintSeats(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, p: PaintPlan, b: Buckets, { k, tx, ty }: View, W: number, H: number, dpr: number) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, W, H);
  // Everything below in device pixels: a plan point (x, y) is at ((x k + tx) dpr, (y k + ty) dpr).
  const K = k * dpr;
  const TX = tx * dpr;
  const TY = ty * dpr;
  // The stage.
  const stage = seatStageRect(p.box);
  ctx.fillStyle = SEAT_STAGE_COLOUR;
  ctx.beginPath();
  ctx.roundRect(stage.x * K + TX, stage.y * K + TY, stage.w * K, stage.h * K, 4 * K);
  ctx.fill();
  if (8 * K >= 6 * dpr) {
    ctx.fillStyle = '#4a3d8f';
    ctx.font = `700 ${8 * K}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('STAGE', (p.box.x + p.box.w / 2) * K + TX, (p.box.y + 11) * K + TY);
  }
  // The seats in view, one bucket (one colour) at a time. Small seats are device-pixel squares
  // (snapped, so a seat's pixel is exactly its colour); from 3 device pixels across, circles.
  const r = R * K;
  const x0 = -r;
  const y0 = -r;
  const x1 = W + r;
  const y1 = H + r;
  const round = r >= 1.5;
  const side = Math.max(1, Math.round(2 * r));
  const last = b.colours.length - 1;
  for (let c = 0; c <= last; c++) {
    const from = b.start[c]!;
    const to = b.start[c + 1]!;
    if (from === to) continue;
    ctx.fillStyle = b.colours[c]!;
    if (round) ctx.beginPath();
    for (let j = from; j < to; j++) {
      const i = b.order[j]!;
      const sx = p.xs[i]! * K + TX;
      const sy = p.ys[i]! * K + TY;
      if (sx < x0 || sx > x1 || sy < y0 || sy > y1) continue;
      if (round) {
        ctx.moveTo(sx + r, sy);
        ctx.arc(sx, sy, r, 0, 2 * Math.PI);
      } else ctx.fillRect(Math.round(sx - side / 2), Math.round(sy - side / 2), side, side);
    }
    if (round) ctx.fill();
    // Not for sale: a faint outline, so the gap reads as seats.
    if (c === last - 2 && round) {
      ctx.strokeStyle = SEAT_TAKEN_COLOUR;
      ctx.lineWidth = Math.max(1, 0.6 * K);
      ctx.stroke();
    }
    // Yours: a gold ring.
    if (c === last && round) {
      ctx.strokeStyle = SEAT_MINE_RING;
      ctx.lineWidth = Math.max(1, 1.4 * K);
      ctx.stroke();
    }
  }
  // Accessible seats: a dark ring, once a ring can be seen.
  if (r >= 3) {
    ctx.beginPath();
    let any = false;
    for (let i = 0; i < p.n; i++) {
      if ((p.flags[i]! & 1) !== 1) continue;
      const sx = p.xs[i]! * K + TX;
      const sy = p.ys[i]! * K + TY;
      if (sx < x0 || sx > x1 || sy < y0 || sy > y1) continue;
      ctx.moveTo(sx + r, sy);
      ctx.arc(sx, sy, r, 0, 2 * Math.PI);
      any = true;
    }
    if (any) {
      ctx.strokeStyle = SEAT_MINE_COLOUR;
      ctx.lineWidth = Math.max(1, 1.2 * K);
      ctx.stroke();
    }
  }
}
