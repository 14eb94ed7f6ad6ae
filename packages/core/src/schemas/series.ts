import { z } from 'zod';
import { isValidTimeZone, zonedDateTimeToInstant } from '../availability.js';
import { M } from '../messages.js';
import { isReservedPath } from '../reserved.js';
import { zListResponse } from './list.js';
import { MAX_PRICE_CENTS, MAX_TICKET_QUANTITY, URL_NAME_RE } from './events.js';

// Issue 28: an event series. The series is a parent; each date (and each timed-entry slot) is an
// ordinary event row linked to it, so inventory, check-in, reports and cancellation work per date
// (docs/decisions.md "Issue 28: event series").

/** Most dates (slots included) one series may have: a year of daily dates. */
export const SERIES_MAX_DATES = 366;
/** A series' URL name leaves room for the date's suffix (-2026-12-01-1900) within an event's 60. */
export const SERIES_URL_NAME_MAX = 40;

// Formats 'date' and 'time' in the OpenAPI document: a real calendar date, and HH:MM on a 24-hour clock.
const zDate = z.iso.date({ error: M.seriesDateInvalid });
const zTime = z.iso.time({ precision: -1, error: M.seriesTimeInvalid });

/** ISO weekdays: 1 Monday … 7 Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const WEEKDAY_LABELS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

export const ZWeeklyRule = z.object({
  /** The first day the rule may fall on (local to the series' time zone). */
  startDate: zDate,
  weekdays: z
    .array(z.number().int().min(1, M.seriesWeekdaysRequired).max(7, M.seriesWeekdaysRequired), { error: M.seriesWeekdaysRequired })
    .min(1, M.seriesWeekdaysRequired)
    .max(7, M.seriesWeekdaysRequired),
  /** Either a last day (inclusive) … */
  until: zDate.optional(),
  /** … or a number of dates. */
  count: z.number({ error: M.invalidValue }).int(M.invalidValue).min(1, M.invalidValue).max(10_000, M.seriesTooManyDates).optional(),
});
export type TWeeklyRule = z.infer<typeof ZWeeklyRule>;

/** Timed entry: a slot every `everyMinutes` from the date's start time until its end time. */
export const ZSlots = z.object({
  everyMinutes: z.number({ error: M.seriesSlotLength }).int(M.seriesSlotLength).min(0, M.seriesSlotLength).max(24 * 60, M.seriesSlotLength),
});

export const ZSchedule = z.object({
  /** A list of local dates … */
  dates: z.array(zDate).max(SERIES_MAX_DATES * 2, M.seriesTooManyDates).optional(),
  /** … and/or a weekly rule. */
  weekly: ZWeeklyRule.optional(),
  /** Each date's start and end, local to the series' time zone. */
  startTime: zTime,
  endTime: zTime,
  slots: ZSlots.nullable().optional(),
});
export type TSchedule = z.infer<typeof ZSchedule>;

export const ZSeriesTicketType = z.object({
  name: z.string({ error: M.invalidValue }).trim().min(1, M.invalidValue).max(200, M.invalidValue),
  price: z.number({ error: M.invalidValue }).int(M.invalidValue).min(0, M.invalidValue).max(MAX_PRICE_CENTS, M.invalidValue),
  /** Per date (per slot). */
  quantity: z.number({ error: M.invalidValue }).int(M.invalidValue).min(1, M.invalidValue).max(MAX_TICKET_QUANTITY, M.invalidValue),
});
export type TSeriesTicketType = z.infer<typeof ZSeriesTicketType>;

export const zSeriesUrlName = z
  .string({ error: M.urlNameFormat })
  .trim()
  .min(1, M.urlNameFormat)
  .max(SERIES_URL_NAME_MAX, M.urlNameFormat)
  .regex(URL_NAME_RE, M.urlNameFormat)
  .refine((v) => !isReservedPath(v), M.urlNameReserved);

export const ZCreateSeriesRequest = z.object({
  details: z.object({
    name: z.string({ error: M.eventNameRequired }).trim().min(1, M.eventNameRequired).max(150, M.invalidValue),
    urlName: zSeriesUrlName.optional(),
    description: z.string().trim().max(20_000, M.invalidValue).optional(),
    timeZone: z.string({ error: M.timeZoneInvalid }).refine(isValidTimeZone, M.timeZoneInvalid),
    venueName: z.string().trim().max(200, M.invalidValue).optional(),
    /** Each date's (each slot's) capacity; null: only the ticket types' quantities. */
    capacity: z.number({ error: M.invalidValue }).int(M.invalidValue).min(1, M.invalidValue).max(MAX_TICKET_QUANTITY, M.invalidValue).nullable().optional(),
    ticketTypes: z.array(ZSeriesTicketType, { error: M.seriesTicketTypesRequired }).min(1, M.seriesTicketTypesRequired).max(20, M.invalidValue),
    schedule: ZSchedule,
    /** Publish every date at once (each is an ordinary event: draft until published). */
    publish: z.boolean().optional(),
  }),
});
export type TCreateSeriesRequest = z.input<typeof ZCreateSeriesRequest>;

/** A series-level edit of one of its ticket types; it flows to the dates whose copy still has the old value. */
export const ZUpdateSeriesTicketTypeRequest = z.object({ details: ZSeriesTicketType.partial() });
export type TUpdateSeriesTicketTypeRequest = z.input<typeof ZUpdateSeriesTicketTypeRequest>;

export const ZAddSeriesDateRequest = z.object({
  details: z.object({ date: zDate, startTime: zTime, endTime: zTime }),
});
export type TAddSeriesDateRequest = z.input<typeof ZAddSeriesDateRequest>;

export const ZMoveSeriesDateRequest = z.object({
  details: z.object({ date: zDate, startTime: zTime, endTime: zTime }),
});
export type TMoveSeriesDateRequest = z.input<typeof ZMoveSeriesDateRequest>;

export const ZCancelSeriesDateRequest = z.object({ message: z.string().trim().max(2_000, M.invalidValue).optional() }).nullable().optional();

export const ZSeriesDate = z.object({
  eventId: z.string(),
  name: z.string(),
  urlName: z.string(),
  status: z.enum(['draft', 'published', 'cancelled']),
  startDateTime: z.string().nullable(),
  endDateTime: z.string().nullable(),
  /** Tickets sold (paid, not refunded or voided). */
  sold: z.number().int(),
  /** What is left to sell (capacity or the ticket types' remaining, whichever is smaller); null: no limit. */
  left: z.number().int().nullable(),
  soldOut: z.boolean(),
  /** Gross sales in cents (the report rollup). */
  grossSales: z.number().int(),
});
export type TSeriesDate = z.infer<typeof ZSeriesDate>;

export const ZSeries = z.object({
  id: z.string(),
  details: z.object({
    name: z.string(),
    urlName: z.string(),
    description: z.string(),
    timeZone: z.string(),
    venueName: z.string(),
    capacity: z.number().int().nullable(),
    ticketTypes: z.array(ZSeriesTicketType.extend({ id: z.string() })),
    dates: z.array(ZSeriesDate),
    /** The whole series: the sums of its dates. */
    totals: z.object({ dates: z.number().int(), sold: z.number().int(), left: z.number().int().nullable(), grossSales: z.number().int() }),
  }),
});
export type TSeries = z.infer<typeof ZSeries>;

/**
 * The answer to a series-level ticket type edit: the series, and each date that kept its own
 * quantity because the new one is below what that date already sold or holds (the server's message).
 */
export const ZSeriesTicketTypeUpdate = ZSeries.extend({
  kept: z.array(z.object({ eventId: z.string(), name: z.string(), field: z.literal('quantity'), soldOrHeld: z.number().int(), message: z.string() })),
});
export type TSeriesTicketTypeUpdate = z.infer<typeof ZSeriesTicketTypeUpdate>;

export const ZSeriesSummary = z.object({
  id: z.string(),
  details: z.object({ name: z.string(), urlName: z.string(), dates: z.number().int(), firstStart: z.string().nullable(), lastStart: z.string().nullable() }),
});
export const ZSeriesList = zListResponse(ZSeriesSummary);
export type TSeriesList = z.infer<typeof ZSeriesList>;

/** One occurrence a schedule makes: its local date and start time, and its instants. */
export type SeriesOccurrence = { date: string; startTime: string; start: Date; end: Date };

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** ISO weekday of a calendar date (1 Monday … 7 Sunday). */
export const isoWeekday = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const timeOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Why a schedule makes no valid list of dates; null when it is fine. */
export type ScheduleProblem = { field: string; message: string; code: 'SERIES_NO_DATES' | 'SERIES_TOO_MANY_DATES' | 'SERIES_BAD_TIMES' };

/**
 * The dates (and slots) a schedule makes, sorted and without repeats, as instants in `timeZone`.
 * A date whose end time is not after its start time is refused, and so is a slot length that does
 * not fit once between them; more than SERIES_MAX_DATES occurrences is refused (never truncated).
 */
export function expandSchedule(schedule: TSchedule, timeZone: string): { occurrences: SeriesOccurrence[] } | { problem: ScheduleProblem } {
  const startMin = minutesOf(schedule.startTime);
  const endMin = minutesOf(schedule.endTime);
  if (endMin <= startMin) return { problem: { field: 'details.schedule.endTime', message: M.seriesEndBeforeStart, code: 'SERIES_BAD_TIMES' } };
  const every = schedule.slots?.everyMinutes ?? null;
  if (every !== null && (every <= 0 || startMin + every > endMin)) {
    return { problem: { field: 'details.schedule.slots.everyMinutes', message: M.seriesSlotLength, code: 'SERIES_BAD_TIMES' } };
  }
  const days = new Set(schedule.dates ?? []);
  const rule = schedule.weekly;
  if (rule) {
    if ((rule.until === undefined) === (rule.count === undefined)) {
      return { problem: { field: 'details.schedule.weekly.until', message: M.seriesRuleEnd, code: 'SERIES_NO_DATES' } };
    }
    if (rule.until !== undefined && rule.until < rule.startDate) {
      return { problem: { field: 'details.schedule.weekly.until', message: M.seriesEndBeforeStart, code: 'SERIES_BAD_TIMES' } };
    }
    const weekdays = new Set(rule.weekdays);
    let made = 0;
    // A rule that would make more than the maximum is refused; stop walking as soon as it does.
    for (let day = rule.startDate, i = 0; i < 7 * (SERIES_MAX_DATES + 1) + 7; day = addDays(day, 1), i++) {
      if (rule.until !== undefined && day > rule.until) break;
      if (rule.count !== undefined && made >= rule.count) break;
      if (!weekdays.has(isoWeekday(day))) continue;
      days.add(day);
      made++;
      if (days.size > SERIES_MAX_DATES) break;
    }
  }
  const starts = every === null ? [startMin] : Array.from({ length: Math.floor((endMin - startMin) / every) }, (_, i) => startMin + i * every);
  if (days.size === 0) return { problem: { field: 'details.schedule', message: M.seriesNoDates, code: 'SERIES_NO_DATES' } };
  if (days.size * starts.length > SERIES_MAX_DATES) return { problem: { field: 'details.schedule', message: M.seriesTooManyDates, code: 'SERIES_TOO_MANY_DATES' } };
  const occurrences: SeriesOccurrence[] = [];
  for (const date of [...days].sort()) {
    for (const s of starts) {
      const startTime = timeOf(s);
      const endTime = timeOf(every === null ? endMin : s + every);
      const start = zonedDateTimeToInstant(date, startTime, timeZone);
      const end = zonedDateTimeToInstant(date, endTime, timeZone);
      if (!start || !end) return { problem: { field: 'details.timeZone', message: M.timeZoneInvalid, code: 'SERIES_BAD_TIMES' } };
      occurrences.push({ date, startTime, start, end });
    }
  }
  return { occurrences };
}

/** A date's own URL name: the series' with its local date and start time (city-walk-2026-12-01-1900). */
export const seriesDateUrlName = (seriesUrlName: string, date: string, startTime: string) => `${seriesUrlName}-${date}-${startTime.replace(':', '')}`;

/** A date's event name as buyers read it on the cart, ticket and mails: "City walk · Tue, Dec 1, 7:00 PM". */
export function seriesDateName(seriesName: string, start: Date, timeZone: string): string {
  const when = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }).format(start);
  return `${seriesName} · ${when}`;
}
