// Ticket availability and cart validation: pure rules shared by the server (authoritative, at
// order time) and the web (display). spec: reports-payouts-checkout §4 Cart, §5 Cart validation.

export const SALES_AVAILABILITY = ['SALES_AVAILABILITY_OPT_1', 'SALES_AVAILABILITY_OPT_2', 'SALES_AVAILABILITY_OPT_3'] as const;
export type SalesAvailability = (typeof SALES_AVAILABILITY)[number];

export const SALES_AVAILABILITY_LABELS: Record<SalesAvailability, string> = {
  SALES_AVAILABILITY_OPT_1: 'Always available',
  SALES_AVAILABILITY_OPT_2: 'Available within a sales window',
  SALES_AVAILABILITY_OPT_3: 'Available while another ticket type is available',
};

// ---- time zones (no library: Intl knows every IANA zone) ------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone || timeZone.length > 64) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

export type WallClock = { date: string; time: string };

function wallParts(timeZone: string, instantMs: number) {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(instantMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return parts as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** The zone's offset from UTC at an instant, in milliseconds (New York in winter: -5 h). */
export function timeZoneOffsetMs(timeZone: string, instantMs: number): number {
  const p = wallParts(timeZone, instantMs);
  const wallAsUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wallAsUtc - Math.floor(instantMs / 1000) * 1000;
}

/** The date (YYYY-MM-DD) and time (HH:mm) a wall clock in the zone shows at an instant. */
export function instantToWallClock(instant: Date | number, timeZone: string): WallClock {
  const p = wallParts(timeZone, typeof instant === 'number' ? instant : instant.getTime());
  const two = (n: number) => String(n).padStart(2, '0');
  return { date: `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)}`, time: `${two(p.hour)}:${two(p.minute)}` };
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Parses YYYY-MM-DD and HH:mm into wall-clock fields; null for anything that is not a real date and time. */
function parseWall(date: string, time: string) {
  const d = DATE_RE.exec(date);
  const t = TIME_RE.exec(time);
  if (!d || !t) return null;
  const [year, month, day, hour, minute, second] = [d[1], d[2], d[3], t[1], t[2], t[3] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2025-02-30 over to March: such a date does not exist.
  if (new Date(asUtc).getUTCDate() !== day) return null;
  return asUtc;
}

/**
 * The instant at which a wall clock in `timeZone` shows `date` `time` (the organiser's sales window
 * is typed in the event's zone). A time skipped by a spring-forward change is taken as the moment
 * the clocks jump (02:30 on that night means 03:00 plus the 30 minutes, as clocks do); a time that
 * happens twice in the autumn is the first of the two.
 */
export function zonedDateTimeToInstant(date: string, time: string, timeZone: string): Date | null {
  const wallMs = parseWall(date, time);
  if (wallMs === null || !isValidTimeZone(timeZone)) return null;
  // Offsets run from -12 h to +14 h, so the instant lies within 14 h of the wall time read as UTC:
  // the offsets in force at either end of that span are the ones before and after any transition.
  const before = timeZoneOffsetMs(timeZone, wallMs - 15 * 3600_000);
  const after = timeZoneOffsetMs(timeZone, wallMs + 15 * 3600_000);
  const candidates = [...new Set([before, after])]
    .map((offset) => wallMs - offset)
    .filter((instant) => instant - wallMs === -timeZoneOffsetMs(timeZone, instant))
    .sort((a, b) => a - b);
  const first = candidates[0];
  // No candidate: the wall time was skipped; read it with the offset from before the jump.
  return new Date(first ?? wallMs - before);
}

/**
 * An event's start as people read it (tickets, mails, notices): "Saturday, March 14, 2026 at
 * 7:30 PM EDT" in the event's own time zone; "Date to be announced" without one.
 */
export function formatEventDateTime(start: Date | null, timeZone: string): string {
  if (!start) return 'Date to be announced';
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(start);
  } catch {
    return start.toISOString();
  }
}

/**
 * A ticket type's sales window as instants: the organiser typed it as wall-clock times of the
 * event's zone (the server stores both; a time-zone change recomputes the instants).
 */
export function salesWindowInstants(
  t: { startDate: string | null; startTime: string | null; endDate: string | null; endTime: string | null },
  timeZone: string,
): { salesStartAt: Date | null; salesEndAt: Date | null } {
  return {
    salesStartAt: t.startDate && t.startTime ? zonedDateTimeToInstant(t.startDate, t.startTime, timeZone) : null,
    salesEndAt: t.endDate && t.endTime ? zonedDateTimeToInstant(t.endDate, t.endTime, timeZone) : null,
  };
}

// ---- availability (spec: reports-payouts-checkout §4 Cart) ------------------------------------

export type AvailabilityTicketType = {
  id: string;
  remainingQuantity: number;
  salesAvailability: string;
  /** The window as instants (ISO strings, epoch ms or Dates); null means open on that side. */
  salesStartAt?: string | number | Date | null;
  salesEndAt?: string | number | Date | null;
  otherTicketTypeId?: string | null;
  /** A ticket type switched off by the organiser is never available. */
  active?: boolean;
};

const toMs = (v: string | number | Date | null | undefined): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const ms = v instanceof Date ? v.getTime() : typeof v === 'number' ? v : Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
};

/** Within [start, end): the window opens at its start and is closed at its end. */
export function isWithinSalesWindow(tt: Pick<AvailabilityTicketType, 'salesStartAt' | 'salesEndAt'>, now: Date | number): boolean {
  const t = typeof now === 'number' ? now : now.getTime();
  const start = toMs(tt.salesStartAt);
  const end = toMs(tt.salesEndAt);
  return (start === null || t >= start) && (end === null || t < end);
}

/**
 * None left means unavailable; SALES_AVAILABILITY_OPT_2 only within its window;
 * SALES_AVAILABILITY_OPT_3 only while the linked ticket type is available; any other value always.
 * A chain of OPT_3 links that comes back on itself is unavailable.
 */
export function isTicketTypeAvailable(
  tt: AvailabilityTicketType,
  all: readonly AvailabilityTicketType[],
  now: Date | number,
  seen: ReadonlySet<string> = new Set(),
): boolean {
  if (tt.active === false || tt.remainingQuantity <= 0) return false;
  if (tt.salesAvailability === 'SALES_AVAILABILITY_OPT_2') return isWithinSalesWindow(tt, now);
  if (tt.salesAvailability === 'SALES_AVAILABILITY_OPT_3') {
    if (!tt.otherTicketTypeId || seen.has(tt.id)) return false;
    const other = all.find((o) => o.id === tt.otherTicketTypeId);
    if (!other || other.id === tt.id) return false;
    return isTicketTypeAvailable(other, all, now, new Set([...seen, tt.id]));
  }
  return true;
}

/** How many of a ticket type one order may hold: its remaining tickets, capped by its per-order maximum. */
export function maxOrderable(tt: { remainingQuantity: number; maxTicketPerOrder?: number | null }): number {
  const max = tt.maxTicketPerOrder ?? Number.POSITIVE_INFINITY;
  return Math.max(0, Math.min(tt.remainingQuantity, max));
}

/**
 * Adding to the cart is blocked when the ticket's total would exceed its remaining tickets
 * (spec §4; the web shows 'Quantity Limit Exceeded', N remaining).
 */
export function checkAddToCart(
  tt: { remainingQuantity: number },
  inCart: number,
  adding: number,
): { ok: true } | { ok: false; remaining: number } {
  return inCart + adding > tt.remainingQuantity ? { ok: false, remaining: Math.max(0, tt.remainingQuantity) } : { ok: true };
}

// ---- cart validation (spec: reports-payouts-checkout §5) --------------------------------------

export type CartLine = { ticketTypeId: string; quantity: number };

export type CartTicketType = AvailabilityTicketType & {
  name: string;
  minTicketPerOrder?: number | null;
  maxTicketPerOrder?: number | null;
};

/**
 * unavailable: no longer on sale (removed from the cart, 'Tickets Removed');
 * exceedsRemaining: more than are left ('Quantity Limit Exceeded');
 * belowMinimum / aboveMaximum: outside the ticket type's per-order limits.
 */
export type CartProblemKind = 'unavailable' | 'exceedsRemaining' | 'belowMinimum' | 'aboveMaximum';

export type CartProblem = {
  ticketTypeId: string;
  ticketName: string;
  kind: CartProblemKind;
  requested: number;
  /** How many this order may have: 0 when unavailable, the remaining count, or the per-order limit. */
  available: number;
  /** requested - available when too many, available - requested when below the minimum. */
  excess: number;
};

export type CartBlockReason = 'empty' | 'noCapacity' | 'overCapacity' | 'lineProblems';

export type CartValidation = {
  problems: CartProblem[];
  totalQuantity: number;
  remainingCapacity: number | null;
  /** CONTINUE is disabled when set. */
  blocked: boolean;
  blockReason: CartBlockReason | null;
};

/**
 * The cart as one quantity per ticket type: the same ticket type on two lines is one line of their
 * sum, and lines of zero are dropped. Cart validation, the quote and PLACE ORDER all count this way.
 */
export function mergeCartLines(lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>): Map<string, number> {
  const merged = new Map<string, number>();
  for (const line of lines) if (line.quantity > 0) merged.set(line.ticketTypeId, (merged.get(line.ticketTypeId) ?? 0) + line.quantity);
  return merged;
}

export function validateCart(input: {
  lines: readonly CartLine[];
  ticketTypes: readonly CartTicketType[];
  /** The event's remaining capacity; null when the event has no cap beyond its ticket types. */
  remainingCapacity: number | null;
  now: Date | number;
}): CartValidation {
  const { ticketTypes, remainingCapacity, now } = input;
  const merged = mergeCartLines(input.lines);

  const problems: CartProblem[] = [];
  let totalQuantity = 0;
  for (const [ticketTypeId, requested] of merged) {
    totalQuantity += requested;
    const tt = ticketTypes.find((t) => t.id === ticketTypeId);
    const ticketName = tt?.name ?? '';
    if (!tt || !isTicketTypeAvailable(tt, ticketTypes, now)) {
      problems.push({ ticketTypeId, ticketName, kind: 'unavailable', requested, available: 0, excess: requested });
      continue;
    }
    const remaining = Math.max(0, tt.remainingQuantity);
    if (requested > remaining) {
      problems.push({ ticketTypeId, ticketName, kind: 'exceedsRemaining', requested, available: remaining, excess: requested - remaining });
      continue;
    }
    const max = tt.maxTicketPerOrder ?? null;
    if (max !== null && requested > max) {
      problems.push({ ticketTypeId, ticketName, kind: 'aboveMaximum', requested, available: max, excess: requested - max });
      continue;
    }
    const min = tt.minTicketPerOrder ?? null;
    if (min !== null && requested < min) {
      problems.push({ ticketTypeId, ticketName, kind: 'belowMinimum', requested, available: min, excess: min - requested });
    }
  }

  let blockReason: CartBlockReason | null = null;
  if (totalQuantity === 0) blockReason = 'empty';
  else if (remainingCapacity !== null && remainingCapacity <= 0) blockReason = 'noCapacity';
  else if (remainingCapacity !== null && totalQuantity > remainingCapacity) blockReason = 'overCapacity';
  else if (problems.length > 0) blockReason = 'lineProblems';

  return { problems, totalQuantity, remainingCapacity, blocked: blockReason !== null, blockReason };
}
