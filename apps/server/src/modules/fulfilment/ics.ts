// "Add to calendar" for the ticket mail (issue 15): one VEVENT, RFC 5545. Times are UTC (…Z), so
// no VTIMEZONE is needed and every calendar shows the event at the right instant in its own zone.

export type IcsEvent = {
  uid: string;
  start: Date;
  /** Without an end the event lasts three hours (docs/decisions.md "Calendar entry length"). */
  end: Date | null;
  summary: string;
  location: string;
  description: string;
  url: string;
  stamp?: Date;
};

const DEFAULT_LENGTH_MS = 3 * 3600_000;

/** 20300601T003000Z */
export function icsDate(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** TEXT values (RFC 5545 §3.3.11): backslash, semicolon, comma escaped; newlines as \n. */
export function icsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n|\r/g, '\\n');
}

/**
 * Folds a content line at 75 octets (RFC 5545 §3.1): continuation lines start with one space.
 * Never splits a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    // The first line holds 75 octets; continuations hold 74 after their leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function eventIcs(e: IcsEvent): string {
  const end = e.end && e.end > e.start ? e.end : new Date(e.start.getTime() + DEFAULT_LENGTH_MS);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Marquee//Tickets//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `DTSTAMP:${icsDate(e.stamp ?? new Date())}`,
    `DTSTART:${icsDate(e.start)}`,
    `DTEND:${icsDate(end)}`,
    `SUMMARY:${icsText(e.summary)}`,
    ...(e.location ? [`LOCATION:${icsText(e.location)}`] : []),
    `DESCRIPTION:${icsText(e.description)}`,
    `URL:${e.url}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
