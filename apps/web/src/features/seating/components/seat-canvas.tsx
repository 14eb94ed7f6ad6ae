import {
  SEAT_CATEGORY_COLOURS,
  SEAT_MINE_COLOUR,
  SEAT_MINE_RING,
  SEAT_NOT_FOR_SALE_COLOUR,
  SEAT_TAKEN_COLOUR,
  seatCategoryColour,
  type TSeatMap,
} from '@marquee/core';
import { useEffect, useMemo, useRef } from 'react';
import { paintSeats, type Buckets, type View } from '../paint-seats';
import type { SeatDrawAnswer, SeatDrawRequest } from '../seat-draw.worker';
import { planOf, seatAt, type SeatPlan } from '../seat-plan';
import css from './seating.module.css';

// Issue 27 (seat map on a phone): the seat map drawn on one <canvas>, not an element per seat. The
// plan becomes typed arrays once (positions, categories, flags, a grid index for taps); each state
// change sorts the seats into colour buckets once; each frame is one pass over the buckets with the
// view's transform (scale k, offset tx/ty in CSS pixels), drawn in requestAnimationFrame, so zoom and
// pan never re-render React. Seats are coloured by category (free), dark with a gold ring (yours,
// drawn last, on top), grey (held or sold) or faint (not for sale); a ring marks accessible seats
// once they are big enough to show one. The canvas is aria-hidden: the list by section and row
// beside it (seat-picker.tsx) is the keyboard and screen-reader way to choose.

// The colours are core's (the server's preview image of the map uses the same).
export const CATEGORY_COLOURS = SEAT_CATEGORY_COLOURS;
export const colourOf = seatCategoryColour;
export const MINE_COLOUR = SEAT_MINE_COLOUR;
export const MINE_RING = SEAT_MINE_RING;
export const TAKEN_COLOUR = SEAT_TAKEN_COLOUR;
export const NOT_FOR_SALE_COLOUR = SEAT_NOT_FOR_SALE_COLOUR;
/** A tap this far from a seat (CSS px) still picks it. */
const TAP_SLOP_PX = 10;
/**
 * Issue 27 (paint2): the canvas reaches this share of the frame's size beyond each of its edges
 * (hidden by the frame), so that a pan, which moves the drawn canvas (a CSS transform, no redraw),
 * shows seats rather than a blank edge until the gesture ends and the map is drawn again.
 */
export const OVERSCAN = 0.25;
/**
 * A wheel's zoom that has not moved for this long (ms) is drawn again at its view (a wheel has no end
 * event). A finger's drag or pinch is drawn again only when the fingers lift: a draw of 20,000 seats
 * is a long task on a phone, and drawn during a pause it dropped the frames of the move after it.
 */
const SETTLE_MS = 120;


export type SeatCanvasProps = {
  map: TSeatMap;
  /** A letter per seat (f free, h held, s sold, x not for sale); '' while unknown. */
  states: string;
  mine: ReadonlySet<number>;
  onToggle?: (n: number) => void;
  label: string;
  height?: number;
};


function bucketsOf(plan: SeatPlan, categories: number, states: string, mine: ReadonlySet<number>): Buckets {
  const colours = [...Array.from({ length: categories }, (_, i) => colourOf(i)), NOT_FOR_SALE_COLOUR, TAKEN_COLOUR, MINE_COLOUR];
  const [X, T, M] = [categories, categories + 1, categories + 2];
  const of = new Uint8Array(plan.n);
  const start = new Int32Array(colours.length + 1);
  for (let i = 0; i < plan.n; i++) {
    const state = states.charCodeAt(i); // NaN while unknown: free
    const b = mine.has(i) ? M : state === 120 /* x */ ? X : state === 104 /* h */ || state === 115 /* s */ ? T : Math.min(plan.cats[i]!, categories - 1);
    of[i] = b;
    start[b + 1]!++;
  }
  for (let b = 0; b < colours.length; b++) start[b + 1]! += start[b]!;
  const fill = start.slice(0, colours.length);
  const order = new Int32Array(plan.n);
  for (let i = 0; i < plan.n; i++) order[fill[of[i]!]!++] = i;
  return { colours, start, order };
}

export function SeatCanvas({ map, states, mine, onToggle, label, height = 420 }: SeatCanvasProps) {
  const plan = useMemo(() => planOf(map), [map]);
  const buckets = useMemo(() => bucketsOf(plan, Math.max(1, map.categories.length), states, mine), [plan, map.categories.length, states, mine]);
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const view = useRef<View>({ k: 1, tx: 0, ty: 0 });
  const fitted = useRef(false);
  const raf = useRef(0);
  /** The view the canvas's pixels were drawn with (null before the first draw). */
  const drawn = useRef<View | null>(null);
  /** The frame asked for is a move of the pixels (place), not a draw. */
  const moving = useRef(false);
  /** Fingers (or the mouse button) down on a drag or pinch: nothing is drawn until they lift. */
  const held = useRef(false);
  const settle = useRef(0);
  /**
   * Issue 27 (pan3): the frame's inner size (CSS px) and the overscan derived from it, measured from
   * the frame alone (on mount and on every resize of the frame); the canvas's box is set from these
   * numbers, never read back, so a fit, a draw and a tap all use one geometry.
   */
  const geo = useRef({ fw: 0, fh: 0, ox: 0, oy: 0 });
  /** What the canvas's pixels show (the view, the size, the seats' colours): a draw that would change nothing is skipped. */
  const shown = useRef<{ key: string; buckets: Buckets | null }>({ key: '', buckets: null });
  // What the draw reads, kept in refs so gestures and frames never go through React.
  const live = useRef({ plan, buckets, onToggle, sections: map.sections, seats: map.seats });
  live.current = { plan, buckets, onToggle, sections: map.sections, seats: map.seats };

  /**
   * Measures the frame and sizes the canvas from it (the frame's inner box plus OVERSCAN of it on
   * each side, in whole CSS px): true when the size changed. Issue 27 (pan3): the canvas's box was
   * the stylesheet's percentages and the fit read the canvas's own size, so the two could disagree.
   */
  const measure = (): boolean => {
    const el = canvas.current;
    const f = frame.current;
    if (!el || !f) return false;
    const fw = f.clientWidth;
    const fh = f.clientHeight;
    const g = geo.current;
    if (fw === g.fw && fh === g.fh) return false;
    const ox = Math.round(fw * OVERSCAN);
    const oy = Math.round(fh * OVERSCAN);
    geo.current = { fw, fh, ox, oy };
    el.style.left = `${-ox}px`;
    el.style.top = `${-oy}px`;
    el.style.width = `${fw + 2 * ox}px`;
    el.style.height = `${fh + 2 * oy}px`;
    return true;
  };
  // The part of the canvas the frame shows (CSS px in the canvas): the canvas overscans the frame
  // by OVERSCAN on each side, and views are in the canvas's own coordinates.
  const visible = () => {
    const { fw, fh, ox, oy } = geo.current;
    return { x: ox, y: oy, w: fw, h: fh };
  };
  const fitView = (): View => {
    const { x, y, w, h } = visible();
    const box = live.current.plan.box;
    if (w === 0 || h === 0) return { k: 1, tx: 0, ty: 0 };
    const k = Math.min(w / box.w, h / box.h);
    return { k, tx: x + (w - box.w * k) / 2 - box.x * k, ty: y + (h - box.h * k) / 2 - box.y * k };
  };
  const limits = () => {
    const fit = fitView().k;
    return { min: fit * 0.67, max: Math.max(fit * 1.5, visible().w / 40) };
  };

  /**
   * Issue 27 (pan4): where the seats are drawn. A 2D canvas on screen was copied whole into a new
   * compositor resource at every frame the page committed, drawn or not (measured in Chromium with
   * software compositing, the bench's phone: 119 copies of a 1416 x 1614 bitmap, 9 MB each, in a
   * 120-move drag with no draw, 2-35 ms each at 4x CPU; a pan's transform makes every frame a commit).
   * So the seats are drawn on an OffscreenCanvas and handed to the on-screen canvas as one ImageBitmap
   * (a 'bitmaprenderer' context), which the compositor takes once per draw (0 copies in the same
   * drag). Without OffscreenCanvas or that context (older browsers), the canvas is drawn directly.
   */
  const surface = useRef<{ off: OffscreenCanvas; out: ImageBitmapRenderingContext } | null | undefined>(undefined);
  const surfaceOf = (el: HTMLCanvasElement) => {
    if (surface.current === undefined) {
      let out: ImageBitmapRenderingContext | null = null;
      if (typeof OffscreenCanvas !== 'undefined') {
        try {
          out = el.getContext('bitmaprenderer');
        } catch {
          out = null;
        }
      }
      surface.current = out ? { off: new OffscreenCanvas(1, 1), out } : null;
    }
    return surface.current;
  };

  /**
   * Issue 27 (pan4): the drawing worker (seat-draw.worker.ts), used for the draw at a gesture's end
   * (a finger lifted, the wheel settled): that draw of the seats at the new view was the one long task
   * left in a pan (~130 ms at 4x CPU, most of it rasterising the arcs). Until it answers, the drawn
   * pixels stay moved by the transform, as during the gesture. Every other draw (the first, a new plan,
   * new states or seats, the buttons, a resize) stays on this thread, at once, as before.
   */
  const worker = useRef<{ w: Worker; ready: boolean; plan: SeatPlan | null; buckets: Buckets | null; id: number; pending: { id: number; view: View; key: string; buckets: Buckets; W: number; H: number } | null } | null>(null);
  /** The next draw may go to the worker (a gesture's end). */
  const offThread = useRef(false);
  const post = (m: SeatDrawRequest) => worker.current?.w.postMessage(m);

  const draw = () => {
    raf.current = 0;
    clearTimeout(settle.current);
    const off = offThread.current;
    offThread.current = false;
    const el = canvas.current;
    if (!el) return;
    const dpr = window.devicePixelRatio || 1;
    const { fw, fh, ox, oy } = geo.current;
    const w = fw + 2 * ox;
    const h = fh + 2 * oy;
    if (fw === 0 || fh === 0) return;
    const { plan: p, buckets: b } = live.current;
    const { k, tx, ty } = view.current;
    // Issue 27 (pan3): the pixels already show this (a re-render of the page, the states' poll
    // answering the same states): nothing to draw. Each needless draw of 20,000 seats was a long
    // task on a phone every second while the page sat still.
    const key = `${k} ${tx} ${ty} ${w} ${h} ${dpr}`;
    if (shown.current.key === key && shown.current.buckets === b) {
      el.style.transform = '';
      return;
    }
    const W = Math.round(w * dpr);
    const H = Math.round(h * dpr);
    // Issue 27 (pan4): drawn off screen and handed to the canvas as one bitmap when the surface allows it.
    const s = surfaceOf(el);
    const wk = worker.current;
    if (off && s && wk?.ready && el.width === W && el.height === H) {
      if (wk.plan !== p) post({ type: 'plan', plan: { n: p.n, xs: p.xs, ys: p.ys, flags: p.flags, box: p.box } });
      if (wk.buckets !== b) post({ type: 'buckets', buckets: b });
      [wk.plan, wk.buckets] = [p, b];
      wk.pending = { id: ++wk.id, view: { k, tx, ty }, key, buckets: b, W, H };
      post({ type: 'draw', id: wk.id, view: { k, tx, ty }, W, H, dpr });
      return;
    }
    // A draw here supersedes one asked of the worker.
    if (wk) wk.pending = null;
    if (el.width !== W || el.height !== H) {
      el.width = W;
      el.height = H;
    }
    if (s && (s.off.width !== W || s.off.height !== H)) {
      s.off.width = W;
      s.off.height = H;
    }
    const ctx = s ? s.off.getContext('2d') : el.getContext('2d');
    if (!ctx) return;
    paintSeats(ctx, p, b, view.current, W, H, dpr);
    // The drawn pixels become the canvas's own, at once (the canvas shows this bitmap until the next draw).
    if (s) s.out.transferFromImageBitmap(s.off.transferToImageBitmap());
    shownAt(el, { k, tx, ty }, key, b, p.n, 'page');
  };
  /** The canvas's pixels now show view v (drawn here or by the worker). */
  const shownAt = (el: HTMLCanvasElement, v: View, key: string, b: Buckets, n: number, by: 'page' | 'worker') => {
    // The view, for tests: a seat (x, y) of the plan is at (x k + tx, y k + ty) CSS px in the canvas;
    // and which thread drew it (the page's, or the drawing worker after a gesture).
    el.dataset.view = `${v.k} ${v.tx} ${v.ty}`;
    el.dataset.drawnBy = by;
    drawn.current = v;
    shown.current = { key, buckets: b };
    // No transform of the pixels is left to apply, unless the view moved on since (a new gesture
    // while the worker drew): then the new pixels are moved to it, as the old ones were.
    const c = view.current;
    if (c.k === v.k && c.tx === v.tx && c.ty === v.ty) el.style.transform = '';
    else moveDrawn();
    // The first frame with the seats drawn, as a user timing (bench/seat-page-lighthouse.ts reads it).
    if (n > 0 && typeof performance.mark === 'function' && performance.getEntriesByName('mq-seat-map-painted').length === 0) performance.mark('mq-seat-map-painted');
  };
  /** The worker's bitmap: shown if it is the draw last asked for (and the canvas's size is still its). */
  const fromWorker = (m: SeatDrawAnswer) => {
    const wk = worker.current;
    if (m.type === 'ready') {
      if (wk) wk.ready = true;
      return;
    }
    const pending = wk?.pending;
    const el = canvas.current;
    const s = surface.current;
    if (!wk || !pending || pending.id !== m.id) {
      if (m.type === 'drawn') m.bitmap.close();
      return;
    }
    wk.pending = null;
    if (m.type === 'failed' || !el || !s || el.width !== pending.W || el.height !== pending.H) {
      if (m.type === 'drawn') m.bitmap.close();
      if (m.type === 'failed') wk.ready = false;
      return schedule();
    }
    s.out.transferFromImageBitmap(m.bitmap);
    shownAt(el, pending.view, pending.key, pending.buckets, live.current.plan.n, 'worker');
    // New states or seats arrived while the worker drew: drawn at once, here.
    if (live.current.buckets !== pending.buckets) schedule();
  };
  const schedule = () => {
    if (held.current) {
      // New seat states while a finger is down: the transform keeps moving the drawn pixels; the
      // draw at the gesture's end shows them.
      clearTimeout(settle.current);
      return;
    }
    if (raf.current && !moving.current) return;
    if (raf.current) cancelAnimationFrame(raf.current);
    moving.current = false;
    raf.current = requestAnimationFrame(draw);
  };
  // Issue 27 (paint2): during a gesture (drag, pinch, wheel) the view moves the pixels already drawn
  // (a CSS transform of the canvas, which the compositor applies: no seat is drawn again, so a frame
  // of a moving finger costs next to nothing even with 20,000 seats); the map is drawn again at the
  // new view when the gesture ends or pauses.
  const place = () => {
    raf.current = 0;
    moving.current = false;
    if (!moveDrawn()) draw();
  };
  /** The drawn pixels moved (a transform) from the view they were drawn at to the current one. */
  const moveDrawn = (): boolean => {
    const el = canvas.current;
    const d = drawn.current;
    if (!el || !d) return false;
    const v = view.current;
    const s = v.k / d.k;
    el.style.transform = `translate(${v.tx - d.tx * s}px, ${v.ty - d.ty * s}px) scale(${s})`;
    return true;
  };
  /** A gesture ended (the fingers lifted, the wheel settled): its draw may go to the worker. */
  const settled = () => {
    offThread.current = true;
    schedule();
  };
  const glide = () => {
    if (!drawn.current) return schedule();
    if (!raf.current) {
      moving.current = true;
      raf.current = requestAnimationFrame(place);
    }
    clearTimeout(settle.current);
    if (!held.current) settle.current = window.setTimeout(settled, SETTLE_MS);
  };

  // A new plan (the editor's sections changed): show all of it again. New states or your seats: repaint.
  useEffect(() => {
    fitted.current = false;
  }, [plan]);
  useEffect(() => {
    measure();
    if (!fitted.current && geo.current.fw > 0) {
      view.current = fitView();
      fitted.current = true;
    }
    // Only when the pixels would change (a new plan, new states or seats of yours); a re-render alone draws nothing.
    if (shown.current.buckets !== live.current.buckets) schedule();
  });
  useEffect(
    () => () => {
      cancelAnimationFrame(raf.current);
      clearTimeout(settle.current);
    },
    [],
  );
  // Issue 27 (pan4): the drawing worker, where the canvas can show a bitmap and the browser has workers.
  useEffect(() => {
    const el = canvas.current;
    if (!el || typeof Worker === 'undefined' || !surfaceOf(el)) return;
    let w: Worker;
    try {
      w = new Worker(new URL('../seat-draw.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      return;
    }
    const wk = { w, ready: false, plan: null, buckets: null, id: 0, pending: null };
    worker.current = wk;
    w.onmessage = (e: MessageEvent<SeatDrawAnswer>) => fromWorker(e.data);
    // A worker that fails (its script not loaded, an error while painting): the draws stay here.
    w.onerror = () => {
      const pending = wk.pending;
      wk.ready = false;
      wk.pending = null;
      if (pending) schedule();
    };
    return () => {
      w.terminate();
      if (worker.current === wk) worker.current = null;
    };
  }, []);
  // The frame's size (the phone turned, the preview's width changed, the page's layout settled):
  // the canvas sized again from the frame, the map fitted to it and drawn. Issue 27 (pan3): the
  // frame is observed, not the canvas (whose box follows from the frame's).
  useEffect(() => {
    const f = frame.current;
    if (!f || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (!measure()) return;
      view.current = fitView();
      fitted.current = geo.current.fw > 0;
      // A gesture's transform belongs to the old size: the map drawn at once at the new fit.
      held.current = false;
      schedule();
    });
    observer.observe(f);
    return () => observer.disconnect();
  }, []);

  /** Zoom about (cx, cy), canvas CSS px; a gesture's step (pinch, wheel) moves the drawn pixels until it settles. */
  const zoomAt = (factor: number, cx: number, cy: number, gesture = false) => {
    const v = view.current;
    const { min, max } = limits();
    const k = Math.min(max, Math.max(min, v.k * factor));
    const f = k / v.k;
    view.current = { k, tx: cx - (cx - v.tx) * f, ty: cy - (cy - v.ty) * f };
    if (gesture) glide();
    else schedule();
  };
  const zoomCentre = (factor: number) => {
    const { x, y, w, h } = visible();
    zoomAt(factor, x + w / 2, y + h / 2);
  };

  // Gestures: one finger (or the mouse) drags, two pinch (zooming about their midpoint), the wheel
  // zooms about the pointer; a tap that did not move picks the seat under it (the grid index).
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const pointers = new Map<number, { x: number; y: number }>();
    let moved = 0;
    let pinch: number | null = null;
    // A point in the canvas's own CSS px, as drawn without a transform: from the frame's box (the
    // canvas's box moves with the transform a gesture gives it until the map is drawn again) and the
    // overscan the canvas was placed with.
    const local = (e: { clientX: number; clientY: number }) => {
      const f = frame.current ?? el;
      const rect = f.getBoundingClientRect();
      const { ox, oy } = geo.current;
      return { x: e.clientX - rect.left - f.clientLeft + ox, y: e.clientY - rect.top - f.clientTop + oy };
    };
    const down = (e: PointerEvent) => {
      pointers.set(e.pointerId, local(e));
      if (pointers.size === 1) moved = 0;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = Math.hypot(a!.x - b!.x, a!.y - b!.y);
        moved = Infinity; // a pinch is never a tap
      }
    };
    const move = (e: PointerEvent) => {
      const last = pointers.get(e.pointerId);
      if (!last) {
        // Hovering with a mouse: the seat's name as a tooltip.
        if (e.pointerType === 'mouse') {
          const v = view.current;
          const at = local(e);
          const { plan: p, sections, seats } = live.current;
          const n = seatAt(p, (at.x - v.tx) / v.k, (at.y - v.ty) / v.k, 2 / v.k);
          const s = n >= 0 ? seats[n] : undefined;
          el.title = s ? `${sections[s[0]]} · Row ${s[1]} · Seat ${s[2]}` : '';
          el.style.cursor = s ? 'pointer' : '';
        }
        return;
      }
      const at = local(e);
      const dx = at.x - last.x;
      const dy = at.y - last.y;
      pointers.set(e.pointerId, at);
      moved += Math.abs(dx) + Math.abs(dy);
      if (moved > 6 && pointers.size === 1 && !el.hasPointerCapture(e.pointerId)) el.setPointerCapture(e.pointerId);
      if (moved > 6) held.current = true;
      if (pointers.size === 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a!.x - b!.x, a!.y - b!.y);
        if (d > 0) zoomAt(d / pinch, (a!.x + b!.x) / 2, (a!.y + b!.y) / 2, true);
        pinch = d;
        return;
      }
      if (pointers.size === 1) {
        view.current = { ...view.current, tx: view.current.tx + dx, ty: view.current.ty + dy };
        glide();
      }
    };
    const up = (e: PointerEvent) => {
      const was = pointers.get(e.pointerId);
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      // The gesture ended: the map drawn at its view.
      if (pointers.size === 0) held.current = false;
      if (was && moved > 6 && pointers.size === 0) settled();
      if (e.type !== 'pointerup' || !was || moved > 6 || pointers.size > 0) return;
      const { onToggle: pick, plan: p } = live.current;
      if (!pick) return;
      const v = view.current;
      const at = local(e);
      const n = seatAt(p, (at.x - v.tx) / v.k, (at.y - v.ty) / v.k, TAP_SLOP_PX / v.k);
      if (n >= 0) pick(n);
    };
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      const at = local(e);
      zoomAt(e.deltaY > 0 ? 1 / 1.15 : 1.15, at.x, at.y, true);
    };
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
    el.addEventListener('wheel', wheel, { passive: false });
    return () => {
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
      el.removeEventListener('wheel', wheel);
    };
  }, []);

  return (
    <div ref={frame} className={css.mapFrame} style={{ height }} data-testid="seat-map" data-seats={plan.n} aria-label={label} role="group">
      <canvas ref={canvas} className={css.map} aria-hidden="true" data-testid="seat-canvas" />
      <div className={css.zoomButtons}>
        <button type="button" aria-label="Zoom in" onClick={() => zoomCentre(1.4)}>
          +
        </button>
        <button type="button" aria-label="Zoom out" onClick={() => zoomCentre(1 / 1.4)}>
          −
        </button>
        <button
          type="button"
          aria-label="Show the whole map"
          onClick={() => {
            view.current = fitView();
            schedule();
          }}
        >
          ⤢
        </button>
      </div>
    </div>
  );
}

/** The legend: each category's colour and price, then the states. */
export function SeatLegend({ map, price }: { map: TSeatMap; price: (cents: number) => string }) {
  return (
    <ul className={css.legend} aria-label="Legend">
      {map.categories.map((c, i) => (
        <li key={c.name}>
          <span className={css.swatch} style={{ background: colourOf(i) }} />
          {c.ticketTypeName ?? c.name}
          {c.price !== null && <span className={css.legendPrice}>{price(c.price)}</span>}
        </li>
      ))}
      <li>
        <span className={css.swatch} style={{ background: MINE_COLOUR, boxShadow: `0 0 0 2px ${MINE_RING}` }} />
        Your seats
      </li>
      <li>
        <span className={css.swatch} style={{ background: TAKEN_COLOUR }} />
        Taken
      </li>
      <li>
        <span className={css.swatch} style={{ background: NOT_FOR_SALE_COLOUR, boxShadow: `inset 0 0 0 1px ${TAKEN_COLOUR}` }} />
        Not for sale
      </li>
      <li>
        <span className={css.swatch} style={{ background: '#fff', boxShadow: `inset 0 0 0 2px ${MINE_COLOUR}` }} />
        Accessible
      </li>
    </ul>
  );
}
