import { describe, expect, it } from 'vitest';
import { eventIcs, foldLine, icsDate, icsText } from './ics.js';
import { receiptLines } from './mails.js';

const unfold = (ics: string) => ics.replace(/\r\n /g, '');

describe('.ics (RFC 5545)', () => {
  const base = {
    uid: 'T1234ABCD@acme.marquee.test',
    start: new Date('2030-06-01T00:30:00Z'),
    end: new Date('2030-06-01T03:00:00Z'),
    summary: 'Jazz; Blues, and "More"',
    location: 'The Hall, 10 Main St, Springfield, NY 10001, USA',
    description: 'Order T1234ABCD: 2 tickets.\nBring ID\\passport',
    url: 'http://acme.marquee.test/jazz/',
    stamp: new Date('2026-11-25T22:00:05.123Z'),
  };

  it('has one VEVENT with UID, DTSTAMP, DTSTART/DTEND in UTC, SUMMARY, LOCATION, DESCRIPTION and URL, CRLF lines', () => {
    const ics = eventIcs(base);
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = unfold(ics).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    expect(lines).toContain('VERSION:2.0');
    expect(lines.filter((l) => l.startsWith('PRODID:'))).toHaveLength(1);
    expect(lines).toContain('UID:T1234ABCD@acme.marquee.test');
    expect(lines).toContain('DTSTAMP:20261125T220005Z');
    expect(lines).toContain('DTSTART:20300601T003000Z');
    expect(lines).toContain('DTEND:20300601T030000Z');
    expect(lines).toContain('SUMMARY:Jazz\\; Blues\\, and "More"');
    expect(lines).toContain('LOCATION:The Hall\\, 10 Main St\\, Springfield\\, NY 10001\\, USA');
    expect(lines).toContain('DESCRIPTION:Order T1234ABCD: 2 tickets.\\nBring ID\\\\passport');
    expect(lines).toContain('URL:http://acme.marquee.test/jazz/');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
  });

  it('an event without an end (or ending before it starts) lasts three hours', () => {
    expect(unfold(eventIcs({ ...base, end: null }))).toContain('DTEND:20300601T033000Z');
    expect(unfold(eventIcs({ ...base, end: new Date('2030-05-01T00:00:00Z') }))).toContain('DTEND:20300601T033000Z');
  });

  it('folds lines longer than 75 octets, never inside a UTF-8 character, and unfolds to the same text', () => {
    const long = `DESCRIPTION:${'Łódź café — '.repeat(20)}`;
    const folded = foldLine(long);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    for (const [i, p] of parts.entries()) {
      expect(Buffer.byteLength(p, 'utf8')).toBeLessThanOrEqual(75);
      if (i > 0) expect(p.startsWith(' ')).toBe(true);
      expect(p).not.toContain('\uFFFD');
    }
    expect(folded.replace(/\r\n /g, '')).toBe(long);
    expect(foldLine('SHORT:line')).toBe('SHORT:line');
    const ics = eventIcs({ ...base, description: 'x'.repeat(300) });
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
  });

  it('formats dates in UTC and escapes TEXT', () => {
    expect(icsDate(new Date('2030-01-02T03:04:05.678Z'))).toBe('20300102T030405Z');
    expect(icsText('a\\b;c,d\r\ne\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });
});

describe('receipt lines', () => {
  const order = {
    subtotal: 10000,
    discount: 1500,
    discountCode: 'SPRING',
    surcharge: 425,
    processingFee: 310,
    vat: 680,
    donation: 500,
    charityName: 'Food Bank',
    totalAmount: 10000 - 1500 + 425 + 310 + 680 + 500 + 45 + 99,
    breakdown: JSON.stringify({ donationFee: 45, channelCharge: 99, somethingElse: 1 }),
  };
  const lines = [
    { ticketName: 'VIP', unitPrice: 5000, quantity: 1 },
    { ticketName: 'General Admission', unitPrice: 2500, quantity: 2 },
  ];

  it('lists every line of the stored breakdown, as stored, in the checkout’s order and words', () => {
    expect(receiptLines(order, lines)).toEqual([
      { label: 'VIP × 1 @ $50.00', amount: 5000, kind: 'ticket' },
      { label: 'General Admission × 2 @ $25.00', amount: 5000, kind: 'ticket' },
      { label: 'Subtotal (3 tickets)', amount: 10000, kind: 'charge' },
      { label: 'Discount (SPRING)', amount: -1500, kind: 'discount' },
      { label: 'Service fee', amount: 425, kind: 'charge' },
      { label: 'Processing fee', amount: 310, kind: 'charge' },
      { label: 'Taxes', amount: 680, kind: 'charge' },
      { label: 'Online charge', amount: 99, kind: 'charge' },
      { label: 'Donation to Food Bank', amount: 500, kind: 'charge' },
      { label: 'Donation fee', amount: 45, kind: 'charge' },
      { label: 'Total', amount: order.totalAmount, kind: 'total' },
    ]);
  });

  it('the charges between subtotal and total add up to the stored total; zero charges are left out', () => {
    const r = receiptLines(order, lines);
    const sum = r.filter((l) => l.kind === 'charge' || l.kind === 'discount').reduce((s, l) => s + l.amount, 0);
    expect(sum).toBe(order.totalAmount);
    const plain = receiptLines({ ...order, discount: 0, discountCode: null, surcharge: 0, processingFee: 0, vat: 0, donation: 0, charityName: null, totalAmount: 10000, breakdown: null }, lines);
    expect(plain.map((l) => l.label)).toEqual(['VIP × 1 @ $50.00', 'General Admission × 2 @ $25.00', 'Subtotal (3 tickets)', 'Total']);
  });

  it('never recomputes: a stored total that differs from the sum is shown as stored', () => {
    expect(receiptLines({ ...order, totalAmount: 1 }, lines).at(-1)).toEqual({ label: 'Total', amount: 1, kind: 'total' });
  });
});
