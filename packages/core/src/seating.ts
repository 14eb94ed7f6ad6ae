// Issue 27: reserved seating, the pure part shared by the server (authoritative) and the web (the
// editor's preview, the map): a layout's seats generated from its sections' grids, each seat's
// label and its "best seat" score, and the runs of adjacent seats "best available: N together" picks.

export const ROW_LABEL_SCHEMES = ['letters', 'numbers'] as const;
export type RowLabelScheme = (typeof ROW_LABEL_SCHEMES)[number];
export const SEAT_NUMBERING = ['ltr', 'rtl', 'odd-even'] as const;
export type SeatNumbering = (typeof SEAT_NUMBERING)[number];
export const SEAT_STATUSES = ['open', 'blocked', 'kept'] as const;
export type SeatStatus = (typeof SEAT_STATUSES)[number];

/** Map units between two seats' centres, and between two rows. */
export const SEAT_PITCH = 10;
export const ROW_PITCH = 12;
/** The most seats a layout may have (a 20,000-seat arena fits). */
export const MAX_LAYOUT_SEATS = 25_000;
export const MAX_SECTIONS = 60;
export const MAX_ROWS = 100;
export const MAX_SEATS_PER_ROW = 120;

export type SectionSpec = {
  name: string;
  category: string;
  rows: number;
  seatsPerRow: number;
  rowLabels: RowLabelScheme;
  /** The first row's number (1 = A or 1). */
  firstRow: number;
  numbering: SeatNumbering;
  /** Seat positions (1-based, from the left) after which an aisle opens. */
  aisleAfter: number[];
  /** How far the middle of a row bows away from the stage (rows wrap around it), in rows' height (0: straight rows). */
  curve: number;
  /** The section's rotation in degrees (angled blocks at the sides). */
  angle: number;
  x: number;
  y: number;
};

export type GeneratedSeat = {
  /** 'section|row|seat': unique in a layout, what the house flags name. */
  key: string;
  section: string;
  row: string;
  seat: string;
  category: string;
  /** Rows across the layout, in order; the position along the row (aisle gaps included). */
  rowKey: number;
  seatIndex: number;
  x: number;
  y: number;
};

/** Row n (1-based) as the scheme writes it: A..Z, AA..AZ, … or 1, 2, …. */
export function rowLabelOf(scheme: RowLabelScheme, n: number): string {
  if (scheme === 'numbers') return String(n);
  let label = '';
  let k = n;
  while (k > 0) {
    const r = (k - 1) % 26;
    label = String.fromCharCode(65 + r) + label;
    k = Math.floor((k - 1) / 26);
  }
  return label;
}

/** The numbers of a row's seats from the left: 1..n, n..1, or odd numbers down to the centre then even ones up (…5 3 1 2 4…). */
export function seatNumbersOf(numbering: SeatNumbering, count: number): number[] {
  if (numbering === 'ltr') return Array.from({ length: count }, (_, i) => i + 1);
  if (numbering === 'rtl') return Array.from({ length: count }, (_, i) => count - i);
  const left = Math.ceil(count / 2);
  const odds = Array.from({ length: left }, (_, i) => 2 * (left - i) - 1);
  const evens = Array.from({ length: count - left }, (_, i) => 2 * (i + 1));
  return [...odds, ...evens];
}

export const seatKeyOf = (section: string, row: string, seat: string) => `${section}|${row}|${seat}`;
/** What a ticket, the check-in and the exports show. */
export const seatLabelOf = (section: string, row: string, seat: string) => `${section} · Row ${row} · Seat ${seat}`;

/** Every seat of the layout, section by section, row by row, from the left. */
export function generateSeats(sections: readonly SectionSpec[]): GeneratedSeat[] {
  const seats: GeneratedSeat[] = [];
  let rowKey = 0;
  for (const s of sections) {
    const numbers = seatNumbersOf(s.numbering, s.seatsPerRow);
    const gaps = new Set(s.aisleAfter);
    const positions: number[] = [];
    let pos = 0;
    for (let i = 0; i < s.seatsPerRow; i++) {
      positions.push(pos);
      pos += gaps.has(i + 1) ? 2 : 1;
    }
    const mid = (positions[positions.length - 1] ?? 0) / 2;
    const rad = (s.angle * Math.PI) / 180;
    const [cos, sin] = [Math.cos(rad), Math.sin(rad)];
    for (let r = 0; r < s.rows; r++) {
      const row = rowLabelOf(s.rowLabels, s.firstRow + r);
      for (let i = 0; i < s.seatsPerRow; i++) {
        const p = positions[i]!;
        const lx = p * SEAT_PITCH;
        const sag = mid > 0 ? s.curve * ROW_PITCH * (1 - ((p - mid) / mid) ** 2) : 0;
        const ly = r * ROW_PITCH + sag;
        const seat = String(numbers[i]);
        seats.push({
          key: seatKeyOf(s.name, row, seat),
          section: s.name,
          row,
          seat,
          category: s.category,
          rowKey,
          seatIndex: p,
          x: Math.round((s.x + lx * cos - ly * sin) * 10) / 10,
          y: Math.round((s.y + lx * sin + ly * cos) * 10) / 10,
        });
      }
      rowKey++;
    }
  }
  return seats;
}

/** The stage is at the top centre of the layout: a seat's score is its distance from there, front counting twice (lower is better). */
export function seatScores(seats: ReadonlyArray<{ x: number; y: number }>): number[] {
  if (seats.length === 0) return [];
  let [minX, maxX, minY] = [Infinity, -Infinity, Infinity];
  for (const s of seats) {
    minX = Math.min(minX, s.x);
    maxX = Math.max(maxX, s.x);
    minY = Math.min(minY, s.y);
  }
  const cx = (minX + maxX) / 2;
  return seats.map((s) => Math.round(2 * (s.y - minY) + Math.abs(s.x - cx)));
}

export type RunSeat = { n: number; rowKey: number; seatIndex: number; score: number };

/** Runs of `size` adjacent seats (one row, consecutive positions, no aisle between) among free seats, best (lowest total score) first. */
export function adjacentRuns<S extends RunSeat>(free: readonly S[], size: number): S[][] {
  const byRow = new Map<number, S[]>();
  for (const s of free) {
    const row = byRow.get(s.rowKey);
    if (row) row.push(s);
    else byRow.set(s.rowKey, [s]);
  }
  const runs: Array<{ seats: S[]; total: number }> = [];
  for (const row of byRow.values()) {
    row.sort((a, b) => a.seatIndex - b.seatIndex);
    for (let i = 0; i + size <= row.length; i++) {
      if (row[i + size - 1]!.seatIndex - row[i]!.seatIndex !== size - 1) continue;
      const seats = row.slice(i, i + size);
      runs.push({ seats, total: seats.reduce((t, s) => t + s.score, 0) });
    }
  }
  runs.sort((a, b) => a.total - b.total || a.seats[0]!.n - b.seats[0]!.n);
  return runs.map((r) => r.seats);
}

/** The map's state letters, one per seat number: free, held, sold, not for sale. */
export const SEAT_STATE_CHARS = { free: 'f', held: 'h', sold: 's', closed: 'x' } as const;

// Issue 27 (paint): what the map looks like, shared by the canvas (web seat-canvas.tsx) and the
// server's preview image of it (seating/seat-preview.ts), so the two show a seat in the same colour.

/** Free seats by category (the layout's category order, wrapping). */
export const SEAT_CATEGORY_COLOURS = ['#6d4fd8', '#0f8f7e', '#d9822b', '#2b7bd9', '#c2417a', '#6f7f1a', '#8a5a2b', '#3b4a6b'] as const;
export const seatCategoryColour = (i: number): string => SEAT_CATEGORY_COLOURS[((i % SEAT_CATEGORY_COLOURS.length) + SEAT_CATEGORY_COLOURS.length) % SEAT_CATEGORY_COLOURS.length]!;
/** The buyer's own seats (with a gold ring). */
export const SEAT_MINE_COLOUR = '#1d1b2e';
export const SEAT_MINE_RING = '#f5c542';
/** Held or sold. */
export const SEAT_TAKEN_COLOUR = '#c4c7d3';
/** Blocked, kept back, or of no ticket type. */
export const SEAT_NOT_FOR_SALE_COLOUR = '#eef0f5';
export const SEAT_STAGE_COLOUR = '#e7e3f7';
/** A seat's radius in map units. */
export const SEAT_RADIUS = 4;

export type SeatPlanBox = { x: number; y: number; w: number; h: number };

/** The map's bounds around its seats (their centres), with a margin and room above for the stage. */
export function seatPlanBox(minX: number, minY: number, maxX: number, maxY: number): SeatPlanBox {
  if (!Number.isFinite(minX)) [minX, minY, maxX, maxY] = [0, 0, 100, 100];
  const pad = 14;
  return { x: minX - pad, y: minY - pad - 26, w: maxX - minX + 2 * pad, h: maxY - minY + 2 * pad + 26 };
}

/** The stage's bar above the seats, in map units. */
export function seatStageRect(box: SeatPlanBox): SeatPlanBox {
  const w = Math.min(box.w * 0.5, 220);
  return { x: box.x + box.w / 2 - w / 2, y: box.y + 4, w, h: 14 };
}
