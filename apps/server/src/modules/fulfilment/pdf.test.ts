import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodePdfQr, inspectPdf, pdfQrModules } from '../../../test/harness.js';
import { readTicketCode, signTicketCode } from '../checkin/ticket-code.js';
import { formatEventDateTime } from '@marquee/core';
import { QR_MODULE_PT, qrSegments, renderTicketsPdf, ticketFaces, ticketFontsFor, ticketQrSymbol, TICKET_QR_OPTIONS, type TicketDocument, type TicketInfo } from './pdf.js';
import { newTicketUid } from './service.js';
import { closePdfWorkers, pdfWorkerStats, usePdfWorkers } from './pdf-workers.js';

const SECRET = 'pdf-test-secret-pdf-test-secret-0123456';
const EVENT_ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

/** A ticket as fulfilment prints it: its QR code is the uid's signed code. */
const ticket = (t: Omit<TicketInfo, 'code'>): TicketInfo => ({ ...t, code: signTicketCode(SECRET, EVENT_ID, t.ticketUid) });

const event: TicketDocument['event'] = {
  name: 'Jazz Under The Stars',
  startDateTime: new Date('2026-07-04T23:30:00Z'),
  timeZone: 'America/Los_Angeles',
  venueName: 'Harbor Pavilion',
  address1: '1 Ocean Ave',
  city: 'San Diego',
  state: 'CA',
  zip: '92101',
  country: 'USA',
  emailDeliveryVerbiage: 'Doors open one hour before the show.',
};

/** Rebuilds the QR module grid a page draws, row-major, as "row,col" of every dark module. */
const drawnModules = (page: Parameters<typeof pdfQrModules>[0]) => pdfQrModules(page, QR_MODULE_PT);

function expectedModules(text: string): Set<string> {
  const modules = ticketQrSymbol(text);
  const out = new Set<string>();
  for (let r = 0; r < modules.size; r++) for (let c = 0; c < modules.size; c++) if (modules.get(r, c)) out.add(`${r},${c}`);
  return out;
}

describe('ticket PDF', () => {
  it('is a real PDF with one page per ticket: event, local date and time, venue, type, attendee, order, price, the uid as Ticket ID, and a QR of its signed code', async () => {
    const tickets = [
      ticket({ ticketUid: newTicketUid(), ticketTypeName: 'VIP', price: 123456, fullName: 'Ada Lovelace' }),
      ticket({ ticketUid: newTicketUid(), ticketTypeName: 'General Admission', price: 2500, fullName: 'Ada Lovelace' }),
      ticket({ ticketUid: newTicketUid(), ticketTypeName: 'Kids', price: 0, fullName: 'Ada Lovelace' }),
    ];
    const pdf = await renderTicketsPdf({ event, orderUid: 'ORD-123ABC', tickets });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { pages } = inspectPdf(pdf);
    expect(pages).toHaveLength(3);
    // A real decoder (ZXing) reads each page's symbol as that page's signed code.
    for (const [i, page] of pages.entries()) expect(await decodePdfQr(page, QR_MODULE_PT)).toEqual([tickets[i]!.code]);
    pages.forEach((page, i) => {
      const t = tickets[i]!;
      expect(page.text).toContain('Jazz Under The Stars');
      // 23:30 UTC on July 4th is 4:30 PM in Los Angeles (PDT).
      expect(page.text).toContain('Saturday, July 4, 2026 at 4:30 PM PDT');
      expect(page.text).toContain('Harbor Pavilion');
      expect(page.text).toContain('San Diego, CA 92101, USA');
      expect(page.text).toContain(t.ticketTypeName);
      expect(page.text).toContain('Ada Lovelace');
      expect(page.text).toContain('ORD-123ABC');
      expect(page.text).toContain(t.ticketUid);
      expect(page.text).toContain('Print At Home (Email)');
      expect(page.text).toContain('Doors open one hour before the show.');
      expect(page.text).toContain(`Ticket ${i + 1} of 3`);
      // The Ticket ID printed is the uid; the signed code is only in the symbol.
      expect(page.text).toMatch(new RegExp(`TICKET ID\\s*\\n${t.ticketUid}`));
      expect(page.text).not.toContain(t.code);
      // The drawn symbol is exactly the QR code of this page's signed code, and of no other; the
      // code verifies, names this event and ticket, and carries no personal data.
      expect(drawnModules(page)).toEqual(expectedModules(t.code));
      expect(drawnModules(page)).not.toEqual(expectedModules(tickets[(i + 1) % 3]!.code));
      expect(t.code).toMatch(new RegExp(`^MQ1\\.${EVENT_ID}\\.${t.ticketUid}\\.[A-Za-z0-9_-]{86}$`));
      expect(readTicketCode(SECRET, t.code)).toEqual({ ok: true, eventId: EVENT_ID, ticketUid: t.ticketUid });
      expect(t.code).not.toMatch(/Ada|Lovelace|ORD-123ABC/);
    });
    expect(pages[0]!.text).toContain('$1,234.56');
    expect(pages[1]!.text).toContain('$25.00');
    expect(pages[2]!.text).toContain('$0.00');
  });

  it('prints the Ticket ID on one line however wide its letters', async () => {
    const wide = 'WWWWWWWWWWWWWWWWWWWWWWWWWM';
    const pdf = await renderTicketsPdf({ event, orderUid: 'ORD-WIDE', tickets: [ticket({ ticketUid: wide, ticketTypeName: 'GA', price: 100, fullName: 'X' })] });
    expect(inspectPdf(pdf).pages[0]!.text).toMatch(new RegExp(`TICKET ID\\s*\\n${wide}\\n`));
  });

  it('keeps one page per ticket even with a long delivery wording', async () => {
    const pdf = await renderTicketsPdf({
      event: { ...event, name: 'A very long event name '.repeat(6), emailDeliveryVerbiage: 'Bring your ID. '.repeat(400) },
      orderUid: 'ORD-LONG',
      tickets: [
        ticket({ ticketUid: newTicketUid(), ticketTypeName: 'GA', price: 100, fullName: 'X' }),
        ticket({ ticketUid: newTicketUid(), ticketTypeName: 'GA', price: 100, fullName: 'Y' }),
      ],
    });
    expect(inspectPdf(pdf).pages).toHaveLength(2);
  });

  it("prints the cover's ticket crop in the header (issue 15), still one page per ticket with a long name and wording", async () => {
    const cover = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#5b3cc4' } }).jpeg().toBuffer();
    const long = { ...event, name: 'A very long event name '.repeat(6), emailDeliveryVerbiage: 'Bring your ID. '.repeat(400), coverImage: cover };
    const tickets = [ticket({ ticketUid: newTicketUid(), ticketTypeName: 'GA', price: 100, fullName: 'X' }), ticket({ ticketUid: newTicketUid(), ticketTypeName: 'GA', price: 100, fullName: 'Y' })];
    const pdf = await renderTicketsPdf({ event: long, orderUid: 'ORD-COVER', tickets });
    const src = pdf.toString('latin1');
    // One image object, drawn on both pages.
    expect(src.match(/\/Subtype \/Image/g)).toHaveLength(1);
    expect(src).toContain('/DCTDecode');
    const { pages } = inspectPdf(pdf);
    expect(pages).toHaveLength(2);
    for (const page of pages) expect(page.text).toContain('A very long event name');
    const without = await renderTicketsPdf({ event, orderUid: 'ORD-PLAIN', tickets });
    expect(without.toString('latin1')).not.toContain('/Subtype /Image');
  });

  it('prints names beyond Western European letters as typed (Polish, Czech, Greek, Cyrillic), in a subset of the embedded font', async () => {
    const names = ['Łukasz Żółć', 'Jiří Dvořák', 'Νίκος Παπαδόπουλος', 'Анна Каренина'];
    const pdf = await renderTicketsPdf({
      event: { ...event, name: 'Łódź Jazz — Праздник', city: 'Kraków' },
      orderUid: 'ORD-UNI',
      tickets: names.map((fullName) => ticket({ ticketUid: newTicketUid(), ticketTypeName: 'Wstęp ogólny', price: 4500, fullName })),
    });
    const { pages } = inspectPdf(pdf);
    expect(pages).toHaveLength(4);
    pages.forEach((page, i) => {
      expect(page.text).toContain(names[i]);
      expect(page.text).toContain('Łódź Jazz — Праздник');
      expect(page.text).toContain('Kraków');
      expect(page.text).toContain('Wstęp ogólny');
      expect(page.text).not.toContain('\ufffd');
    });
    // Only the glyphs used are embedded: a few tens of KB, not the font's 700 KB.
    expect(pdf.length).toBeLessThan(120_000);
  });

  it("reads back text set with ligatures ('ff', 'fi') and everything printed after them", async () => {
    // The font draws 'ff' and 'fi' as one glyph each; its ToUnicode entry maps one code to two
    // letters. The test reader once dropped those entries and misread every later glyph.
    const pdf = await renderTicketsPdf({
      event: { ...event, name: 'Office Staff Fiesta', city: 'Suffolk' },
      orderUid: 'ORD-LIG',
      tickets: [ticket({ ticketUid: 'AFFIRM0FFICE0FINAL0000000', ticketTypeName: 'Official Buffet', price: 12000, fullName: 'Effie Griffin' })],
    });
    const [page] = inspectPdf(pdf).pages;
    for (const text of ['Office Staff Fiesta', 'Suffolk', 'Official Buffet', 'Effie Griffin', '$120.00', 'ORD-LIG', 'AFFIRM0FFICE0FINAL0000000']) expect(page!.text).toContain(text);
    expect(page!.text).not.toContain('\ufffd');
  });

  it('formats the date in the event time zone and says when there is none', () => {
    expect(formatEventDateTime(new Date('2026-01-15T01:00:00Z'), 'America/New_York').replace(/\u202f/g, ' ')).toBe(
      'Wednesday, January 14, 2026 at 8:00 PM EST',
    );
    expect(formatEventDateTime(null, 'America/New_York')).toBe('Date to be announced');
  });

  it('makes ticket uids of 26 base32 characters that do not repeat', () => {
    const uids = new Set(Array.from({ length: 2000 }, () => newTicketUid()));
    expect(uids.size).toBe(2000);
    for (const uid of uids) expect(uid).toMatch(/^[A-Z2-7]{26}$/);
  });
});

describe('what a ticket PDF costs (issue 26: payment to ticket mail)', () => {
  it('reads the embedded faces once per process and shares them between documents, which still subset them each', async () => {
    const doc = (name: string): TicketDocument => ({ event, orderUid: 'MQ-COST1', tickets: [ticket({ ticketUid: newTicketUid(), ticketTypeName: 'General Admission', price: 2500, fullName: name })] });
    const first = await renderTicketsPdf(doc('Ada Lovelace'));
    const faces = ticketFaces();
    const second = await renderTicketsPdf(doc('Łukasz Анна'));
    // The same parsed faces (fontkit objects, not bytes to parse again) for the next document.
    expect(ticketFaces()).toBe(faces);
    expect(typeof faces.regular.layout).toBe('function');
    expect(typeof faces.bold.layout).toBe('function');
    // Each document embeds its own subset: the second one's letters are in it, and the first is unchanged by it.
    expect(inspectPdf(second).pages[0]!.text).toContain('Łukasz Анна');
    expect(inspectPdf(first).pages[0]!.text).toContain('Ada Lovelace');
    expect(inspectPdf(first).pages[0]!.text).not.toContain('Łukasz');
  });
});

describe('faces shared between documents (issue 26 "mail")', () => {
  it('a document after others in accented and non-Latin letters still reads back as typed (each glyph keeps its letters)', async () => {
    const doc = (names: string[], name = event.name): TicketDocument => ({
      event: { ...event, name },
      orderUid: 'MQ-SHARE1',
      tickets: names.map((fullName) => ticket({ ticketUid: newTicketUid(), ticketTypeName: 'General Admission', price: 2500, fullName })),
    });
    // The order that once made the third document read "Ada LovelaMe" and "Q-SH1RAEM".
    for (const names of [['Łukasz Żółć', 'Jiří Dvořák', 'Νίκος Παπαδόπουλος', 'Анна Каренина'], ['Łukasz Анна'], ['Ada Lovelace', 'Łukasz Żółć']]) {
      const pages = inspectPdf(await renderTicketsPdf(doc(names, 'Łódź Jazz — Праздник'))).pages;
      pages.forEach((page, i) => {
        for (const text of [names[i]!, 'MQ-SHARE1', 'Łódź Jazz — Праздник', 'General Admission', 'Delivery: Print At Home (Email)']) expect(page.text).toContain(text);
        expect(page.text).not.toContain('\ufffd');
      });
    }
  });
});

describe('standard fonts when they can print every letter (issue 26 "mail")', () => {
  it('sets a ticket whose strings are all WinAnsi in Helvetica, embedding no font; any other letter embeds DejaVu, and both print as typed', async () => {
    const latin = (fullName: string, name = 'Café Müller — Ça va? 1€ “live”'): TicketDocument => ({
      event: { ...event, name },
      orderUid: 'MQ-STD1',
      tickets: [ticket({ ticketUid: newTicketUid(), ticketTypeName: 'General Admission', seat: 'Floor · Row B · Seat 12', price: 2500, fullName })],
    });
    const standard = latin('Zoë Ñúñez');
    expect(ticketFontsFor(standard)).toBe('standard');
    const pdf = await renderTicketsPdf(standard);
    const src = pdf.toString('latin1');
    expect(src).toContain('/BaseFont /Helvetica');
    expect(src).toContain('/BaseFont /Helvetica-Bold');
    expect(src).toContain('/WinAnsiEncoding');
    expect(src).not.toMatch(/FontFile|DejaVu/);
    const [page] = inspectPdf(pdf).pages;
    // WinAnsi's letters are Latin-1's (the reader decodes the codes as Latin-1): the name, the seat.
    for (const text of ['Zoë Ñúñez', 'Café Müller', 'Floor · Row B · Seat 12', '$25.00', 'General Admission', 'MQ-STD1']) expect(page!.text).toContain(text);
    // Nothing embedded: a fraction of the embedded font's size.
    expect(pdf.length).toBeLessThan(12_000);

    // One letter beyond WinAnsi (in any string: the attendee, the event's name) and the document embeds DejaVu.
    for (const other of [latin('Łukasz Nowak'), latin('Zoë', 'Café Кафе')]) {
      expect(ticketFontsFor(other)).toBe('embedded');
      const embedded = await renderTicketsPdf(other);
      expect(embedded.toString('latin1')).toMatch(/DejaVu/);
      expect(embedded.toString('latin1')).not.toContain('/BaseFont /Helvetica');
    }
    expect(inspectPdf(await renderTicketsPdf(latin('Łukasz Nowak'))).pages[0]!.text).toContain('Łukasz Nowak');
  });
});

describe('ticket PDFs on worker threads (issue 26: payment to ticket mail)', () => {
  it('builds them on the pool when the process has PDF workers, the same pages as inline, cover included', async () => {
    const cover = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#3366cc' } }).jpeg().toBuffer();
    const doc: TicketDocument = {
      event: { ...event, coverImage: cover },
      orderUid: 'MQ-POOL1',
      tickets: ['Ada Lovelace', 'Łukasz Żółć'].map((fullName) => ticket({ ticketUid: newTicketUid(), ticketTypeName: 'General Admission', price: 2500, fullName })),
    };
    usePdfWorkers(0);
    const inline = inspectPdf(await renderTicketsPdf(doc));
    expect(await pdfWorkerStats()).toBeUndefined();
    usePdfWorkers(1);
    try {
      const pdfs = await Promise.all([renderTicketsPdf(doc), renderTicketsPdf(doc), renderTicketsPdf(doc)]);
      expect(await pdfWorkerStats()).toEqual({ threads: 1, completed: 3 });
      for (const pdf of pdfs) {
        expect(Buffer.isBuffer(pdf)).toBe(true);
        const pages = inspectPdf(pdf).pages;
        expect(pages.map((p) => p.text)).toEqual(inline.pages.map((p) => p.text));
        expect(pages.map((p) => p.rects)).toEqual(inline.pages.map((p) => p.rects));
        // The cover crossed to the thread as bytes and is embedded (once) as in the inline PDF.
        expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length).toBe(1);
      }
    } finally {
      usePdfWorkers(0);
      await closePdfWorkers();
    }
    expect(await pdfWorkerStats()).toBeUndefined();
  });
});

describe('what a ticket PDF costs, the same page (issue 26 "pdf4")', () => {
  const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const randomUid = () => Array.from(randomBytes(26), (b) => B32[b & 31]).join('');

  it('lays out every line of a page as before: the same text, font size and place (Helvetica and embedded DejaVu)', async () => {
    // Taken from the code before issue 26 "pdf4" (pdfkit with qrcode's automatic symbol): each
    // text-showing operator's x, y, font size and text, page by page. A change of wording, wrapping,
    // size or place (a QR symbol of another size moves the lines below it) fails here.
    const golden = JSON.parse(readFileSync(new URL('../../../test/fixtures/ticket-pdf-runs.json', import.meta.url), 'utf8')) as Record<
      'standard' | 'embedded',
      Array<Array<[number, number, number, string]>>
    >;
    const doc = (fullName: string): TicketDocument => ({
      event: {
        ...event,
        emailDeliveryVerbiage:
          'Doors open one hour before the show. Bring a photo ID; bags larger than a sheet of Letter paper are checked at the door, and the box office opens at 5 PM.',
      },
      orderUid: 'MQ-GOLD1',
      tickets: [
        ticket({ ticketUid: 'AAAABBBBCCCCDDDDEEEEFFFFGG', ticketTypeName: 'VIP', seat: 'Floor · Row B · Seat 12', price: 123456, fullName }),
        ticket({ ticketUid: 'ZZZZYYYYXXXXWWWWVVVVUUUUTT', ticketTypeName: 'General Admission', price: 2500, fullName }),
      ],
    });
    for (const [fonts, fullName] of [['standard', 'Ada Lovelace'], ['embedded', 'Łukasz Анна']] as const) {
      const d = doc(fullName);
      expect(ticketFontsFor(d)).toBe(fonts);
      const pages = inspectPdf(await renderTicketsPdf(d)).pages;
      expect(pages.map((p) => p.runs.map((r) => [r.x, r.y, r.size, r.text]))).toEqual(golden[fonts]);
      for (const [i, page] of pages.entries()) expect(await decodePdfQr(page, QR_MODULE_PT)).toEqual([d.tickets[i]!.code]);
    }
  });

  it("shares Helvetica's metrics between a thread's documents: a document after the first is the same bytes as pdfkit's own", async () => {
    // A new PDF worker thread: its first standard document has its faces opened by pdfkit, the next
    // ones get faces made from those (pdf.ts useStandardFaces). The same document rendered first and
    // then again, and after a document in other letters, is the same file but for its date and id.
    const d: TicketDocument = {
      event,
      orderUid: 'MQ-SAME1',
      tickets: ['Zoë Ñúñez', 'Ada Lovelace'].map((fullName, i) => ticket({ ticketUid: `SAMEFACES0000000000000000${i}`, ticketTypeName: 'VIP', seat: 'Floor · Row B · Seat 12', price: 2500, fullName })),
    };
    expect(ticketFontsFor(d)).toBe('standard');
    const undated = (pdf: Buffer) => pdf.toString('latin1').replace(/\(D:\d{14}Z\)/, '').replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/, '');
    usePdfWorkers(0);
    await closePdfWorkers();
    usePdfWorkers(1);
    try {
      const first = await renderTicketsPdf(d);
      const second = await renderTicketsPdf(d);
      await renderTicketsPdf({ ...d, tickets: [ticket({ ticketUid: 'SAMEFACES00000000000000009', ticketTypeName: 'GA', price: 100, fullName: 'Łukasz' })] });
      const third = await renderTicketsPdf(d);
      expect(await pdfWorkerStats()).toEqual({ threads: 1, completed: 4 });
      expect(undated(first)).toContain('/BaseFont /Helvetica-Bold');
      expect(undated(second)).toBe(undated(first));
      expect(undated(third)).toBe(undated(first));
      expect(second.toString('latin1')).not.toBe(undated(second));
    } finally {
      usePdfWorkers(0);
      await closePdfWorkers();
    }
  });

  it("draws a ticket code's symbol at the version qrcode's own segmentation reaches, under the fixed mask, and a real decoder reads every one", async () => {
    const codes = Array.from({ length: 300 }, () => signTicketCode(SECRET, randomUUID(), randomUid()));
    for (const code of codes) {
      const automatic = QRCode.create(code, { errorCorrectionLevel: 'M' });
      const printed = QRCode.create(qrSegments(code), TICKET_QR_OPTIONS);
      expect(printed.version).toBe(automatic.version);
      expect(printed.maskPattern).toBe(2);
      expect(ticketQrSymbol(code).data).toEqual(printed.modules.data);
    }
    // The segments are the text, in order: the upper-case uid's run alphanumeric, the rest bytes.
    const segments = qrSegments(codes[0]!);
    expect(segments.map((s) => Buffer.from(s.data as string | Uint8Array).toString()).join('')).toBe(codes[0]);
    expect(segments.map((s) => s.mode)).toEqual(['byte', 'alphanumeric', 'byte']);
    expect(qrSegments('abc').map((s) => s.mode)).toEqual(['byte']);
    // 12 of them printed on the pages of one document, each page decoded (ZXing) to its own code.
    const tickets = codes.slice(0, 12).map((code, i): TicketInfo => ({ ticketUid: `U${i}`, code, ticketTypeName: 'GA', price: 100, fullName: 'Ada Lovelace' }));
    const pages = inspectPdf(await renderTicketsPdf({ event, orderUid: 'MQ-QR12', tickets })).pages;
    expect(pages).toHaveLength(12);
    for (const [i, page] of pages.entries()) expect(await decodePdfQr(page, QR_MODULE_PT)).toEqual([tickets[i]!.code]);
    // About a second of CPU (300 symbols by qrcode's automatic segmentation and mask choice): room for a loaded CI machine.
  }, 120_000);
});
