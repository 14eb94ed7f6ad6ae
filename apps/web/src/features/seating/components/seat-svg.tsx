import type { TSeatMap } from '@marquee/core';
import { memo, useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent, type WheelEvent } from 'react';
import css from './seating.module.css';

// Issue 27.4: the seat map as one SVG. Seats are circles coloured by category (free), dark
// (yours), grey (held or sold) or faint (not for sale). Zoom and pan: two fingers pinch, one drags,
// the wheel zooms, and the + / − buttons do both for those without either. A tap that did not
// drag toggles a free seat.

export const CATEGORY_COLOURS = ['#6d4fd8', '#0f8f7e', '#d9822b', '#2b7bd9', '#c2417a', '#6f7f1a', '#8a5a2b', '#3b4a6b'];
export const colourOf = (i: number) => CATEGORY_COLOURS[((i % CATEGORY_COLOURS.length) + CATEGORY_COLOURS.length) % CATEGORY_COLOURS.length]!;
const R = 4;

type Box = { x: number; y: number; w: number; h: number };

export type SeatSvgProps = {
  map: TSeatMap;
  /** A letter per seat (f free, h held, s sold, x not for sale); '' while unknown. */
  states: string;
  mine: ReadonlySet<number>;
  onToggle?: (n: number) => void;
  label: string;
  /** Seats that may be chosen (the others are shown, not offered); all free seats when absent. */
  height?: number;
};

function boundsOf(map: TSeatMap): Box {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const s of map.seats) {
    minX = Math.min(minX, s[3]);
    maxX = Math.max(maxX, s[3]);
    minY = Math.min(minY, s[4]);
    maxY = Math.max(maxY, s[4]);
  }
  if (!Number.isFinite(minX)) return { x: 0, y: 0, w: 100, h: 100 };
  const pad = 14;
  // Room above the seats for the stage.
  return { x: minX - pad, y: minY - pad - 26, w: maxX - minX + 2 * pad, h: maxY - minY + 2 * pad + 26 };
}

const Seats = memo(function Seats({ map, states, mine }: { map: TSeatMap; states: string; mine: ReadonlySet<number> }) {
  return (
    <g>
      {map.seats.map((s, n) => {
        const state = states[n] ?? 'f';
        const own = mine.has(n);
        const free = state === 'f';
        const fill = own ? '#1d1b2e' : free ? colourOf(s[5]) : state === 'x' ? '#eef0f5' : '#c4c7d3';
        const accessible = (s[6] & 1) === 1;
        return (
          <circle
            key={n}
            data-n={n}
            cx={s[3]}
            cy={s[4]}
            r={R}
            fill={fill}
            stroke={own ? '#f5c542' : accessible ? '#1d1b2e' : state === 'x' ? '#c4c7d3' : 'none'}
            strokeWidth={own || accessible ? 1.4 : 0.6}
            className={free || own ? css.seatFree : undefined}
          >
            <title>{`${map.sections[s[0]]} · Row ${s[1]} · Seat ${s[2]}`}</title>
          </circle>
        );
      })}
    </g>
  );
});

export function SeatSvg({ map, states, mine, onToggle, label, height = 420 }: SeatSvgProps) {
  const full = useMemo(() => boundsOf(map), [map]);
  const [box, setBox] = useState<Box>(full);
  // Another plan (the editor's sections changed): show all of it again.
  useEffect(() => setBox(full), [full]);
  // The first frame with the seats drawn, as a user timing (bench/seat-page-lighthouse.ts reads it).
  useEffect(() => {
    if (map.seats.length === 0 || typeof performance.mark !== 'function') return;
    const frame = requestAnimationFrame(() => {
      if (performance.getEntriesByName('mq-seat-map-painted').length === 0) performance.mark('mq-seat-map-painted');
    });
    return () => cancelAnimationFrame(frame);
  }, [map]);
  const svg = useRef<SVGSVGElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const moved = useRef(0);
  const pinch = useRef<number | null>(null);

  const unitsPerPx = () => {
    const el = svg.current;
    if (!el || el.clientWidth === 0) return 1;
    return Math.max(box.w / el.clientWidth, box.h / el.clientHeight);
  };
  const zoom = (factor: number, cx = box.x + box.w / 2, cy = box.y + box.h / 2) => {
    setBox((b) => {
      const w = Math.min(full.w * 1.5, Math.max(40, b.w * factor));
      const h = (b.h / b.w) * w;
      return { x: cx - ((cx - b.x) / b.w) * w, y: cy - ((cy - b.y) / b.h) * h, w, h };
    });
  };

  const onPointerDown = (e: ReactPointerEvent<SVGSVGElement>) => {
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.current.size === 1) moved.current = 0;
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      pinch.current = Math.hypot(a!.x - b!.x, a!.y - b!.y);
    }
  };
  const onPointerMove = (e: ReactPointerEvent<SVGSVGElement>) => {
    const last = pointers.current.get(e.pointerId);
    if (!last) return;
    const dx = e.clientX - last.x;
    const dy = e.clientY - last.y;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    moved.current += Math.abs(dx) + Math.abs(dy);
    if (moved.current > 6 && pointers.current.size === 1) {
      svg.current?.setPointerCapture(e.pointerId);
    }
    if (pointers.current.size === 2 && pinch.current) {
      const [a, b] = [...pointers.current.values()];
      const d = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      if (d > 0) zoom(pinch.current / d);
      pinch.current = d;
      return;
    }
    const k = unitsPerPx();
    setBox((bx) => ({ ...bx, x: bx.x - dx * k, y: bx.y - dy * k }));
  };
  const onPointerUp = (e: ReactPointerEvent<SVGSVGElement>) => {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
  };
  const onClick = (e: React.MouseEvent<SVGSVGElement>) => {
    if (moved.current > 6 || !onToggle) return;
    const n = (e.target as Element).getAttribute?.('data-n');
    if (n !== null && n !== undefined) onToggle(Number(n));
  };
  const onWheel = (e: WheelEvent<SVGSVGElement>) => {
    const el = svg.current;
    if (!el) return;
    const rect = el.getBoundingClientRect();
    const k = unitsPerPx();
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, box.x + (e.clientX - rect.left) * k, box.y + (e.clientY - rect.top) * k);
  };

  const stageW = Math.min(full.w * 0.5, 220);
  return (
    <div className={css.mapFrame} style={{ height }}>
      <svg
        ref={svg}
        className={css.map}
        viewBox={`${box.x} ${box.y} ${box.w} ${box.h}`}
        preserveAspectRatio="xMidYMid meet"
        role="img"
        aria-label={label}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onClick={onClick}
        onWheel={onWheel}
        data-testid="seat-map"
      >
        <rect x={full.x + full.w / 2 - stageW / 2} y={full.y + 4} width={stageW} height={14} rx={4} fill="#e7e3f7" />
        <text x={full.x + full.w / 2} y={full.y + 14} textAnchor="middle" fontSize={8} fill="#4a3d8f" fontWeight={700}>
          STAGE
        </text>
        <Seats map={map} states={states} mine={mine} />
      </svg>
      <div className={css.zoomButtons}>
        <button type="button" aria-label="Zoom in" onClick={() => zoom(1 / 1.4)}>
          +
        </button>
        <button type="button" aria-label="Zoom out" onClick={() => zoom(1.4)}>
          −
        </button>
        <button type="button" aria-label="Show the whole map" onClick={() => setBox(full)}>
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
        <span className={css.swatch} style={{ background: '#1d1b2e', boxShadow: '0 0 0 2px #f5c542' }} />
        Your seats
      </li>
      <li>
        <span className={css.swatch} style={{ background: '#c4c7d3' }} />
        Taken
      </li>
      <li>
        <span className={css.swatch} style={{ background: '#eef0f5', boxShadow: 'inset 0 0 0 1px #c4c7d3' }} />
        Not for sale
      </li>
      <li>
        <span className={css.swatch} style={{ background: '#fff', boxShadow: 'inset 0 0 0 2px #1d1b2e' }} />
        Accessible
      </li>
    </ul>
  );
}
