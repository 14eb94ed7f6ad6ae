// Issue 27 (pan4): the seat map's drawing worker. The map drawn again when a drag or a pinch ends (20,000
// seats at a new view: a long task on a phone, ~130 ms at 4x CPU) is painted here, on an OffscreenCanvas,
// and handed back as an ImageBitmap (transferred, not copied), so the page's thread keeps answering
// fingers and making frames meanwhile. The painting is paint-seats.ts's, as on the page's thread.
import { paintSeats, type Buckets, type PaintPlan, type View } from './paint-seats';

export type SeatDrawRequest =
  | { type: 'plan'; plan: PaintPlan }
  | { type: 'buckets'; buckets: Buckets }
  | { type: 'draw'; id: number; view: View; W: number; H: number; dpr: number };
export type SeatDrawAnswer = { type: 'ready' } | { type: 'drawn'; id: number; bitmap: ImageBitmap } | { type: 'failed'; id: number };

type Scope = { postMessage(message: SeatDrawAnswer, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<SeatDrawRequest>) => void) | null };
const scope = self as unknown as Scope;

let plan: PaintPlan | null = null;
let buckets: Buckets | null = null;
const canvas = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(1, 1);
const ctx = canvas?.getContext('2d') ?? null;

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'plan') plan = m.plan;
  else if (m.type === 'buckets') buckets = m.buckets;
  else if (m.type === 'draw') {
    if (!canvas || !ctx || !plan || !buckets) return scope.postMessage({ type: 'failed', id: m.id });
    if (canvas.width !== m.W || canvas.height !== m.H) [canvas.width, canvas.height] = [m.W, m.H];
    paintSeats(ctx, plan, buckets, m.view, m.W, m.H, m.dpr);
    const bitmap = canvas.transferToImageBitmap();
    scope.postMessage({ type: 'drawn', id: m.id, bitmap }, [bitmap]);
  }
};
// Only a worker that can paint says so: the page draws on its own thread otherwise.
if (ctx) scope.postMessage({ type: 'ready' });
