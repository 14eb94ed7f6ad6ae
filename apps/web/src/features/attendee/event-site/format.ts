import { formatMoney } from '../../../ui/money';

// Dates are shown in the event's own time zone (a concert in New York starts at 7 pm wherever the
// buyer is), with the zone's short name so nobody misreads it.

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat('en-US', options);
    }
    cache.set(key, f);
  }
  return f;
}

/** "Saturday, August 1, 2026" */
export function eventDay(iso: string | null, timeZone: string): string {
  if (!iso) return 'Date to be announced';
  return formatter(timeZone, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }).format(new Date(iso));
}

/** "7:00 PM EDT" */
export function eventTime(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  return formatter(timeZone, { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso));
}

/** "Sat, Aug 1, 2026 · 7:00 PM EDT" */
export function eventDateLine(iso: string | null, timeZone: string): string {
  if (!iso) return 'Date to be announced';
  const day = formatter(timeZone, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso));
  return `${day} · ${eventTime(iso, timeZone)}`;
}

/** For the calendar badge on the hero: {month: "AUG", day: "1"}. */
export function eventBadge(iso: string | null, timeZone: string): { month: string; day: string } | null {
  if (!iso) return null;
  const d = new Date(iso);
  return {
    month: formatter(timeZone, { month: 'short' }).format(d).toUpperCase(),
    day: formatter(timeZone, { day: 'numeric' }).format(d),
  };
}

/** A moment such as a sales window opening or a hold expiring: "Aug 1, 7:00 PM EDT". */
export function shortMoment(iso: string, timeZone: string): string {
  return formatter(timeZone, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso));
}

export const money = (cents: number) => formatMoney(cents);

export function venueLines(d: { venueName: string; address1: string; city: string; state: string; zip: string }): string[] {
  const cityLine = [d.city, [d.state, d.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [d.venueName, d.address1, cityLine].filter((l) => l.trim().length > 0);
}

/** A moment that matters to the buyer where they are (a hold running out): "8:15 PM", local time. */
export function localTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}
