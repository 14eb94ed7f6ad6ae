import type { TPublicEvent } from '@marquee/core';

// The event page's head: what a search engine, a chat's link preview and schema.org's Event
// rich result read (issue 13 "Server-rendered event pages").

export type PageHead = { title: string; description: string; canonical: string; image: string | null; jsonLd: Record<string, unknown> | null };

/** Escapes text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON inside <script>: no `</script>`, `<!--` or line separators can end or confuse the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Plain text of a (possibly rich, HTML) description, one line, at most `max` characters. */
export function plainText(html: string, max = 160): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** An instant as local wall time in `timeZone` with its UTC offset: 2026-07-04T19:00:00-05:00 (what schema.org startDate wants). */
export function isoWithOffset(iso: string, timeZone: string): string {
  const date = new Date(iso);
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  const offsetMin = Math.round((local - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${sign}${hh}:${mm}`;
}

const cents = (n: number) => (n / 100).toFixed(2);

/** Fields other helpers add to the public event (cover/social image, all-in price), read defensively. */
function optionalString(o: unknown, key: string): string | null {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' && v !== '' ? v : null;
}
function optionalNumber(o: unknown, key: string): number | null {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function eventImage(event: TPublicEvent, origin: string): string | null {
  const url = optionalString(event.details, 'socialImageUrl') ?? optionalString(event.details, 'coverImageUrl');
  if (!url) return null;
  return url.startsWith('/') ? `${origin}${url}` : url;
}

/** schema.org Event as Google documents it for Event rich results (developers.google.com/search/docs/appearance/structured-data/event). */
export function eventJsonLd(event: TPublicEvent, opts: { origin: string; organizer: string }): Record<string, unknown> | null {
  const d = event.details;
  if (!d.startDateTime) return null;
  const url = `${opts.origin}/${d.urlName}/`;
  const image = eventImage(event, opts.origin);
  const cancelled = d.status === 'cancelled';
  const address = {
    '@type': 'PostalAddress',
    ...(d.address1 ? { streetAddress: d.address1 } : {}),
    ...(d.city ? { addressLocality: d.city } : {}),
    ...(d.state ? { addressRegion: d.state } : {}),
    ...(d.zip ? { postalCode: d.zip } : {}),
    ...(d.country ? { addressCountry: d.country } : {}),
  };
  const offers = event.ticketTypes.map((t) => {
    const price = optionalNumber(t.details, 'allInPrice') ?? t.details.price;
    return {
      '@type': 'Offer',
      name: t.details.name,
      url: `${url}tickets`,
      price: cents(price),
      priceCurrency: 'USD',
      availability: t.details.available && t.details.remainingQuantity > 0 ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
      ...(t.details.salesStartAt ? { validFrom: t.details.salesStartAt } : {}),
    };
  });
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: d.name,
    url,
    startDate: isoWithOffset(d.startDateTime, d.timeZone),
    ...(d.endDateTime ? { endDate: isoWithOffset(d.endDateTime, d.timeZone) } : {}),
    eventStatus: cancelled ? 'https://schema.org/EventCancelled' : 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: { '@type': 'Place', name: d.venueName || d.city || d.name, address },
    ...(image ? { image: [image] } : {}),
    ...(d.description ? { description: plainText(d.description, 500) } : {}),
    ...(offers.length ? { offers } : {}),
    organizer: { '@type': 'Organization', name: opts.organizer, url: `${opts.origin}/events` },
  };
}

function dateLine(event: TPublicEvent): string {
  const d = event.details;
  if (!d.startDateTime) return '';
  let zone = d.timeZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(d.startDateTime));
}

export type EventPage = 'home' | 'tickets' | 'cart' | 'checkout';
const PAGE_PATHS: Record<EventPage, string> = { home: '', tickets: 'tickets', cart: 'cart', checkout: 'account' };

export function eventHead(event: TPublicEvent, opts: { origin: string; organizer: string; page: EventPage }): PageHead {
  const d = event.details;
  const where = [d.venueName, d.city].filter(Boolean).join(', ');
  const summary = [dateLine(event), where].filter(Boolean).join(' · ');
  const lead = plainText(d.description, 120);
  const cancelled = d.status === 'cancelled' ? 'Cancelled. ' : '';
  const description = `${cancelled}${summary}${summary && lead ? '. ' : ''}${lead}`.slice(0, 200) || d.name;
  // The app's own document title (event-layout), so that nothing changes when it starts.
  const title = `${d.name} · ${opts.organizer}`;
  return {
    title,
    description,
    canonical: `${opts.origin}/${d.urlName}/${PAGE_PATHS[opts.page]}`,
    image: eventImage(event, opts.origin),
    jsonLd: eventJsonLd(event, opts),
  };
}

/** The head's tags, replacing the app shell's <title>. */
export function headHtml(head: PageHead, siteName: string): string {
  const e = escapeHtml;
  const tags = [
    `<title>${e(head.title)}</title>`,
    `<meta name="description" content="${e(head.description)}">`,
    `<link rel="canonical" href="${e(head.canonical)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="${e(siteName)}">`,
    `<meta property="og:title" content="${e(head.title)}">`,
    `<meta property="og:description" content="${e(head.description)}">`,
    `<meta property="og:url" content="${e(head.canonical)}">`,
    head.image ? `<meta property="og:image" content="${e(head.image)}">` : '',
    `<meta name="twitter:card" content="${head.image ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${e(head.title)}">`,
    `<meta name="twitter:description" content="${e(head.description)}">`,
    head.image ? `<meta name="twitter:image" content="${e(head.image)}">` : '',
    head.jsonLd ? `<script type="application/ld+json">${jsonForScript(head.jsonLd)}</script>` : '',
  ];
  return tags.filter(Boolean).join('\n    ');
}

/** What eventsHead needs of each listed event (core's TPublicEventSummary). */
type ListedEvent = { urlName: string; name: string; startDateTime: string | null; timeZone: string; venueName: string; city: string; status: string; coverImageUrl: string | null };

/**
 * The head of the tenant host's public /events page (issue 13): the organiser's upcoming events as
 * a schema.org ItemList whose items are the Events (the summary-page shape Google documents for
 * carousels: each ListItem's url is the event's own page).
 */
export function eventsHead(events: ListedEvent[], opts: { origin: string; organizer: string }): PageHead {
  const names = events.slice(0, 3).map((e) => e.name);
  const more = events.length > 3 ? ` and ${events.length - 3} more` : '';
  const description = events.length
    ? `Tickets for upcoming events by ${opts.organizer}: ${names.join(', ')}${more}.`.slice(0, 200)
    : `Upcoming events by ${opts.organizer}.`;
  const cover = events.find((e) => e.coverImageUrl)?.coverImageUrl ?? null;
  return {
    title: `Upcoming events · ${opts.organizer}`,
    description,
    canonical: `${opts.origin}/events`,
    image: cover ? (cover.startsWith('/') ? `${opts.origin}${cover}` : cover) : null,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      itemListElement: events.map((e, i) => ({
        '@type': 'ListItem',
        position: i + 1,
        url: `${opts.origin}/${e.urlName}/`,
        item: {
          '@type': 'Event',
          name: e.name,
          url: `${opts.origin}/${e.urlName}/`,
          ...(e.startDateTime ? { startDate: isoWithOffset(e.startDateTime, e.timeZone) } : {}),
          eventStatus: e.status === 'cancelled' ? 'https://schema.org/EventCancelled' : 'https://schema.org/EventScheduled',
          location: { '@type': 'Place', name: e.venueName || e.city || e.name, ...(e.city ? { address: { '@type': 'PostalAddress', addressLocality: e.city } } : {}) },
        },
      })),
    },
  };
}
