import { DEFAULT_TIME_ZONE, instantToWallClock, isValidTimeZone, timeZoneOffsetMs, zonedDateTimeToInstant } from '@marquee/core';

// Everything an organiser types about when (the event's start, a sales window, a discount's
// validity) is a wall clock in the event's own time zone, whatever zone the browser is in.

export type ZoneOption = { value: string; label: string };

/** The zones most US organisers need, first in the list. */
export const US_TIME_ZONES: ZoneOption[] = [
  { value: 'America/New_York', label: 'Eastern Time (New York)' },
  { value: 'America/Chicago', label: 'Central Time (Chicago)' },
  { value: 'America/Denver', label: 'Mountain Time (Denver)' },
  { value: 'America/Phoenix', label: 'Mountain Time, no DST (Phoenix)' },
  { value: 'America/Los_Angeles', label: 'Pacific Time (Los Angeles)' },
  { value: 'America/Anchorage', label: 'Alaska Time (Anchorage)' },
  { value: 'Pacific/Honolulu', label: 'Hawaii Time (Honolulu)' },
  { value: 'America/Puerto_Rico', label: 'Atlantic Time (Puerto Rico)' },
];

/** "UTC−04:00" for the zone's offset now. */
export function utcOffsetLabel(timeZone: string, at: number = Date.now()): string {
  const minutes = Math.round(timeZoneOffsetMs(timeZone, at) / 60_000);
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

let otherZones: ZoneOption[] | null = null;

/** Every other IANA zone the browser knows, labelled "Europe/London" → "Europe / London". */
export function otherTimeZones(): ZoneOption[] {
  if (!otherZones) {
    const us = new Set(US_TIME_ZONES.map((z) => z.value));
    const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    otherZones = [...new Set([...all, 'UTC'])]
      .filter((z) => !us.has(z) && isValidTimeZone(z))
      .sort()
      .map((z) => ({ value: z, label: z.replace(/_/g, ' ').replace(/\//g, ' / ') }));
  }
  return otherZones;
}

/** The browser's own zone, or undefined when it cannot say. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

// Zones that say where the clock is set, not where the person is (servers, privacy modes that hide the zone).
const PLACELESS = /^(UTC|GMT|UCT|Universal|Zulu|Etc\/.*)$/;

/**
 * The zone a new event starts with (docs/decisions.md "A new event's time zone"): tenants have no
 * zone of their own, so the browser's, when the form lists it and it names a place; otherwise
 * DEFAULT_TIME_ZONE.
 */
export function defaultEventTimeZone(browserZone: string | undefined = browserTimeZone()): string {
  if (!browserZone || PLACELESS.test(browserZone)) return DEFAULT_TIME_ZONE;
  const listed = US_TIME_ZONES.some((z) => z.value === browserZone) || otherTimeZones().some((z) => z.value === browserZone);
  return listed ? browserZone : DEFAULT_TIME_ZONE;
}

/** A zone's name for people: the US label when it has one, otherwise the IANA id. */
export function timeZoneName(timeZone: string): string {
  return US_TIME_ZONES.find((z) => z.value === timeZone)?.label ?? timeZone.replace(/_/g, ' ');
}

/** The short abbreviation the zone uses at an instant (EDT, PST, GMT+1). */
export function zoneAbbreviation(timeZone: string, at: number | Date = Date.now()): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(at);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

/**
 * The abbreviation the zone uses on a wall clock typed in it: PDT for a July date in Los Angeles and
 * PST for a December one, whatever today is. A date without a usable time is read at noon of that
 * day; with no usable date yet, it is today's.
 */
export function zoneAbbreviationOnWall(timeZone: string, date: string | null | undefined, time: string | null | undefined, now: number = Date.now()): string {
  const instant = date ? (zonedDateTimeToInstant(date, time ?? '', timeZone) ?? zonedDateTimeToInstant(date, '12:00', timeZone)) : null;
  return zoneAbbreviation(timeZone, instant ?? now);
}

/** "Sat, Aug 1, 2026, 7:00 PM EDT": an instant as the event's own clock shows it. */
export function formatInZone(iso: string | null, timeZone: string, opts: { withZone?: boolean; withWeekday?: boolean } = {}): string {
  if (!iso) return '';
  const { withZone = true, withWeekday = true } = opts;
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: withWeekday ? 'short' : undefined,
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: withZone ? 'short' : undefined,
  }).format(new Date(iso));
}

/** "Sat, Aug 1, 2026" in the event's zone. */
export function formatDateInZone(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso));
}

/** "7:00 PM EDT" in the event's zone. */
export function formatTimeInZone(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso));
}

/** "Aug 1, 2026, 7:00 PM" from a wall clock already in the event's zone (a sales window). */
export function formatWallClock(date: string | null, time: string | null): string {
  if (!date) return '';
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = (time ?? '00:00').split(':').map(Number) as [number, number];
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }).format(
    new Date(Date.UTC(y, m - 1, d, hh, mm)),
  );
}

export type WallValue = { date: string | null; time: string };

/** The wall clock (date, time) that an instant shows in the zone, for a form. */
export function toWall(iso: string | null, timeZone: string): WallValue {
  if (!iso) return { date: null, time: '' };
  const wall = instantToWallClock(new Date(iso), timeZone);
  return { date: wall.date, time: wall.time };
}

/**
 * The instant for a wall clock typed in the zone: null when both parts are empty, undefined when
 * only one is there or it is not a real date (the form reports it).
 */
export function fromWall(date: string | null, time: string, timeZone: string): string | null | undefined {
  if (!date && !time) return null;
  if (!date || !time) return undefined;
  return zonedDateTimeToInstant(date, time, timeZone)?.toISOString() ?? undefined;
}

// An incomplete or impossible date-time goes to validation as text the contract refuses, so the
// form shows the contract's own message.
const NOT_A_DATE = 'not-a-date';

/** fromWall for a contract: null stays null, an unusable wall clock becomes a value it refuses. */
export function instantOrInvalid(date: string | null, time: string, timeZone: string): string | null {
  const instant = fromWall(date, time, timeZone);
  return instant === undefined ? NOT_A_DATE : instant;
}
