/// <reference path="../../fontkit.d.ts" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { formatEventDateTime, formatMoney, M } from '@marquee/core';
import type PDFKitDocument from 'pdfkit';
import type QRCodeLib from 'qrcode';
import type { BitMatrix, QRCodeOptions, QRCodeSegment } from 'qrcode';
import type { ComposeInput, Composed } from '../../platform/mail.js';
import { composeMail } from './compose-mail.js';
import { pdfAndMailPool, pdfPool } from './pdf-workers.js';

// Print-at-home tickets: one Letter page per ticket with the event, the seat's details and a QR
// code of the ticket's signed code (modules/checkin ticket-code.ts: what the door scanner reads).
// The Ticket ID printed beside it stays the ticket's uid (manual check-in, the reports).

export type TicketEventInfo = {
  name: string;
  startDateTime: Date | null;
  timeZone: string;
  venueName: string;
  address1: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  emailDeliveryVerbiage: string;
  /** The cover's ticket crop (JPEG, 2:1), printed in the header beside the event's name (issue 15). */
  coverImage?: Buffer | null;
};

/** `code`: the text of the QR code, the ticket's signed code. */
/** `seat`: issue 27's reserved seat ('Section · Row · Seat'); null: general admission. */
export type TicketInfo = { ticketId?: string; ticketUid: string; code: string; ticketTypeName: string; seat?: string | null; price: number; fullName: string };

export type TicketDocument = { event: TicketEventInfo; orderUid: string; tickets: TicketInfo[] };

/**
 * Error correction M survives a crease or a smudge on a printed page. The mask is fixed (issue 26
 * "pdf4"): qrcode otherwise draws the symbol under each of the 8 masks and scores each (about half of
 * a symbol's cost). Any mask is valid QR that every reader decodes; mask 2 (every third column) is the
 * one qrcode's scoring picks most often for a ticket's code (half of 400 random codes) and the lowest
 * penalty of the 8 on average over them.
 */
export const TICKET_QR_OPTIONS: QRCodeOptions = { errorCorrectionLevel: 'M', maskPattern: 2 };

/**
 * QR's alphanumeric mode: digits, capitals and nine signs, 5.5 bits a character against byte mode's 8.
 * A run of at least ALNUM_RUN of them is its own segment: a segment costs a mode and a length field
 * (4 + 9 to 4 + 13 bits), and one in the middle of byte-mode text a second byte segment's (4 + 8 or
 * 4 + 16), so a shorter run saves nothing.
 */
const ALNUM_RUNS = /[0-9A-Z $%*+\-./:]+/g;
const ALNUM_RUN = 13;
/**
 * The text's segments, chosen in one pass (issue 26 "pdf4"): qrcode's automatic segmentation builds
 * a graph of every split of the text and searches it (Dijkstra) for each symbol, a third of its cost.
 * A ticket's code (`MQ1.<event id>.<ticket uid>.<signature>`) is lower-case and mixed-case text
 * around the upper-case uid: this makes the uid's run (and its neighbours') alphanumeric, the rest
 * bytes, which is the symbol version the automatic one reaches (pdf.test.ts checks it on 300 codes).
 */
export function qrSegments(text: string): QRCodeSegment[] {
  const out: QRCodeSegment[] = [];
  let from = 0;
  for (const run of text.matchAll(ALNUM_RUNS)) {
    if (run[0].length < ALNUM_RUN) continue;
    if (run.index > from) out.push({ data: Buffer.from(text.slice(from, run.index)), mode: 'byte' });
    out.push({ data: run[0], mode: 'alphanumeric' });
    from = run.index + run[0].length;
  }
  if (from < text.length || out.length === 0) out.push({ data: Buffer.from(text.slice(from)), mode: 'byte' });
  return out;
}

/** The QR symbol printed for a ticket's code: its segments and options above. */
export function ticketQrSymbol(code: string): BitMatrix {
  return QRCode.create(qrSegments(code), TICKET_QR_OPTIONS).modules;
}
/**
 * Points per QR module; whole points keep every module on the PDF's grid. A signed code (154
 * characters) is a 49-module symbol (version 8) at level M: 4 pt (1.4 mm) a module keeps it about 8 cm wide,
 * leaving the details column room for the Ticket ID on one line.
 */
export const QR_MODULE_PT = 4;
const QR_QUIET_MODULES = 4;

const PAGE = { width: 612, height: 792, margin: 54 };
/** The cover in the header: 2:1, beside the event's name, so a ticket stays one page. */
const COVER = { width: 176, height: 88, gap: 18 };

/**
 * DejaVu Sans, embedded (and subset by pdfkit): attendees' and events' names in Latin scripts
 * beyond Western Europe, Greek and Cyrillic print as typed. The 14 standard PDF fonts only know
 * WinAnsi, which would have turned a "Łukasz" or an "Анна" into wrong letters on the ticket.
 */
const resolveFont = createRequire(import.meta.url).resolve;
/**
 * The two faces, parsed once per thread (fontkit, pdfkit's own font reader) and shared by every
 * document: pdfkit takes a parsed font where it takes bytes, and still subsets it per document.
 * Bytes passed to each document were parsed again for each (issue 26: about half of the CPU of a
 * sale's fulfilment went to reading the same 1.4 MB of TrueType tables for every order).
 */
type ParsedFont = { layout: (text: string) => unknown };
type Glyph = { codePoints: number[] };
type GlyphSource = { getGlyph(id: number, codePoints?: number[]): Glyph | null };
/**
 * fontkit keeps each glyph it has made, with the characters it was first asked for. A glyph first
 * made without them (a part of an accented letter, read while a document wrote its subset) kept none,
 * and every later document sharing the parsed face laid that letter out with no characters: pdfkit
 * left it out of the text layer (ToUnicode), and the PDF's text read back wrong ("Ada LovelaMe";
 * printing was right). A glyph asked for with its characters now gets them if it had none.
 */
function keepGlyphCharacters(font: GlyphSource) {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id, codePoints = []) => {
    const glyph = getGlyph(id, codePoints);
    if (glyph && glyph.codePoints.length === 0 && codePoints.length > 0) glyph.codePoints = codePoints;
    return glyph;
  };
  return font;
}
let fonts: { regular: ParsedFont; bold: ParsedFont } | undefined;
export function ticketFaces() {
  const parse = (file: string) => keepGlyphCharacters(fontkit.create(readFileSync(resolveFont(file))) as unknown as GlyphSource) as unknown as ParsedFont;
  fonts ??= { regular: parse('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), bold: parse('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf') };
  return fonts;
}
const REGULAR = 'Ticket';
const BOLD = 'Ticket-Bold';

/**
 * The characters PDF's standard fonts print (WinAnsiEncoding: Latin-1's printable letters and the
 * few extra signs of Windows-1252, pdfkit's WIN_ANSI_MAP), besides the line breaks pdfkit splits on.
 */
const WIN_ANSI = /^[\n\r\t\x20-\x7e\xa0-\xff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2020\u2021\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]*$/;

/** Every string a document prints (as printed: typographic spaces already plain). `when`: the event's date as printed. */
function printedStrings(d: TicketDocument, when: string): string[] {
  return [
    d.orderUid,
    d.event.name,
    d.event.emailDeliveryVerbiage,
    when,
    ...venueLines(d.event),
    ...d.tickets.flatMap((t) => [t.ticketUid, t.ticketTypeName, t.seat ?? '', formatMoney(t.price), t.fullName]),
  ].map(pdfText);
}

/**
 * The faces a document is set in (issue 26 "mail"): PDF's standard Helvetica and Helvetica-Bold when
 * every string it prints is in WinAnsi (nothing embedded: a reader has them; most tickets), DejaVu
 * Sans embedded and subset otherwise (a "Łukasz" or an "Анна" prints as typed). Embedding and
 * subsetting DejaVu was most of a one-ticket PDF's CPU.
 */
export function ticketFontsFor(d: TicketDocument, when = eventWhen(d)): 'standard' | 'embedded' {
  return printedStrings(d, when).every((text) => WIN_ANSI.test(text)) ? 'standard' : 'embedded';
}

/**
 * The event's date and time as a document prints it (formatted once per document: an Intl formatter is
 * made per call), and kept for the next documents of the same event (issue 26 "mail3": a sale's PDFs
 * are all of a few events; the formatting was a few percent of a one-ticket PDF).
 */
const whenOf = new Map<string, string>();
const eventWhen = (d: TicketDocument) => {
  const key = `${d.event.startDateTime?.getTime() ?? ''}|${d.event.timeZone}`;
  let when = whenOf.get(key);
  if (when === undefined) {
    when = pdfText(formatEventDateTime(d.event.startDateTime, d.event.timeZone));
    if (whenOf.size >= 500) whenOf.clear();
    whenOf.set(key, when);
  }
  return when;
};

/** Typographic spaces from Intl become plain spaces (the same width on a ticket, and easy to search). */
const pdfText = (text: string) => text.replace(/[\u202f\u2009\u00a0]/g, ' ');

export function venueLines(e: TicketEventInfo): string[] {
  const cityLine = [e.city, [e.state, e.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [e.venueName, e.address1, [cityLine, e.country].filter(Boolean).join(', ')].filter((l) => l.trim() !== '');
}

/**
 * Draws the QR symbol as filled rectangles: crisp at any print resolution, and no image decoding. Each
 * row's run of dark modules is one rectangle one module high (issue 26 "pdf4": a third of the
 * rectangles of a square per module, so a smaller page to build and to deflate; the same area filled).
 */
function drawQr(doc: PDFKit.PDFDocument, modules: BitMatrix, x: number, y: number) {
  const size = modules.size;
  const side = qrSideOf(modules);
  doc.save();
  doc.rect(x, y, side, side).fill('#ffffff');
  const x0 = x + QR_QUIET_MODULES * QR_MODULE_PT;
  const y0 = y + QR_QUIET_MODULES * QR_MODULE_PT;
  const dark = modules.data;
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (!dark[row * size + col]) continue;
      const from = col;
      while (col + 1 < size && dark[row * size + col + 1]) col++;
      doc.rect(x0 + from * QR_MODULE_PT, y0 + row * QR_MODULE_PT, (col - from + 1) * QR_MODULE_PT, QR_MODULE_PT);
    }
  }
  doc.fill('#000000');
  doc.restore();
  return side;
}
const qrSideOf = (modules: BitMatrix) => (modules.size + 2 * QR_QUIET_MODULES) * QR_MODULE_PT;

/**
 * An image pdfkit has opened: `doc.image()` takes it where it takes bytes, and embeds it once however
 * many pages draw it (bytes passed to each page would be embedded on every page). pdfkit has
 * `openImage` but its types do not declare it.
 */
type OpenedImage = { width: number; height: number };
const openImage = (doc: PDFKit.PDFDocument, bytes: Buffer) => (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(bytes);

/** `cover`: the event's picture, opened once for the whole document. */
function drawTicket(doc: PDFKit.PDFDocument, d: TicketDocument, t: TicketInfo, index: number, cover: OpenedImage | null, when: string) {
  const { margin, width } = PAGE;
  const inner = width - 2 * margin;
  // The event's lines wrap beside the cover, when there is one.
  const head = cover ? inner - COVER.width - COVER.gap : inner;
  doc.fillColor('#59636e').font(REGULAR).fontSize(10).text(pdfText(`${M.printAtHome}  ·  Ticket ${index + 1} of ${d.tickets.length}`), margin, margin, { width: head });
  doc.moveDown(0.6);
  doc.fillColor('#000000').font(BOLD).fontSize(22).text(pdfText(d.event.name), { width: head });
  doc.moveDown(0.3);
  doc.font(REGULAR).fontSize(12).text(when, { width: head });
  for (const line of venueLines(d.event)) doc.text(pdfText(line), { width: head });
  let headBottom = doc.y;
  if (cover) {
    doc.save();
    doc.roundedRect(width - margin - COVER.width, margin, COVER.width, COVER.height, 6).clip();
    doc.image(cover as unknown as Buffer, width - margin - COVER.width, margin, { width: COVER.width, height: COVER.height });
    doc.restore();
    headBottom = Math.max(headBottom, margin + COVER.height);
  }

  const top = headBottom + 18;
  doc.moveTo(margin, top - 9).lineTo(width - margin, top - 9).lineWidth(0.5).strokeColor('#d0d7de').stroke();
  // The symbol is computed once, then measured and drawn.
  const modules = ticketQrSymbol(t.code);
  const qrSide = qrSideOf(modules);
  const qrX = Math.round(width - margin - qrSide);
  drawQr(doc, modules, qrX, Math.round(top));

  const colWidth = qrX - margin - 18;
  const rows: Array<[string, string]> = [
    ['Ticket type', t.ticketTypeName],
    ...(t.seat ? ([['Seat', t.seat]] as Array<[string, string]>) : []),
    ['Price', formatMoney(t.price)],
    ['Attendee', t.fullName || '-'],
    ['Order ID', d.orderUid],
    ['Ticket ID', t.ticketUid],
  ];
  doc.x = margin;
  doc.y = top;
  for (const [label, value] of rows) {
    doc.fillColor('#59636e').font(REGULAR).fontSize(9).text(label.toUpperCase(), margin, doc.y, { width: colWidth });
    doc.fillColor('#000000').font(BOLD).fontSize(13);
    // The Ticket ID is typed in at the door: one line, never broken, smaller if its letters are wide.
    if (label === 'Ticket ID') doc.fontSize(Math.min(13, Math.floor((13 * colWidth * 10) / doc.widthOfString(value)) / 10));
    doc.text(pdfText(value), margin, doc.y, { width: colWidth });
    doc.moveDown(0.5);
  }

  doc.y = Math.max(doc.y, top + qrSide) + 18;
  doc.font(BOLD).fontSize(11).fillColor('#000000').text(pdfText(`Delivery: ${M.printAtHome}`), margin, doc.y, { width: inner });
  doc.font(REGULAR).fontSize(10);
  const verbiage = d.event.emailDeliveryVerbiage.trim();
  // Bounded so that one ticket is always one page.
  if (verbiage) doc.moveDown(0.3).text(pdfText(verbiage.length > 1200 ? `${verbiage.slice(0, 1200)}...` : verbiage), { width: inner });
  doc.moveDown(0.3).text('Print this page or show it on your phone at the entrance. Each QR code admits one person once; do not share it.', {
    width: inner,
  });
}

// pdfkit (with its fonts and decoders) and qrcode are loaded by the first PDF, not at every start
// (about 0.1 to 0.2 s of it: bench/README.md "Start").
let PDFDocument: typeof PDFKitDocument;
let QRCode: typeof QRCodeLib;
let fontkit: { create(bytes: Buffer): unknown };
let loading: Promise<void> | undefined;
const loadPdfLibs = () =>
  (loading ??= Promise.all([import('pdfkit'), import('qrcode'), import('fontkit')]).then(([pdfkit, qrcode, fk]) => {
    PDFDocument = pdfkit.default;
    QRCode = qrcode.default;
    fontkit = fk as unknown as typeof fontkit;
  }));

/**
 * The tickets of a document as one PDF: built on the process's PDF worker threads when it has some
 * (PDF_WORKERS, pdf-workers.ts: a sale's PDFs off the thread that answers requests and runs the
 * jobs), here otherwise.
 */
export async function renderTicketsPdf(d: TicketDocument): Promise<Buffer> {
  if (d.tickets.length === 0) throw new Error('no tickets to render');
  const pool = pdfPool();
  return pool ? pool(d) : renderTicketsPdfHere(d);
}

/**
 * A document's PDF and the mail that carries it (issue 26 "mail3"): `mail` is the message as the mail
 * job would compose it, its attachment `pdfAt` to be this PDF (its content there is ignored); null
 * builds the PDF alone. One task on the PDF worker threads when the process has some, here otherwise.
 */
export type PdfAndMail = { doc: TicketDocument; mail: ComposeInput | null; pdfAt: number };
export async function renderTicketsPdfAndMail(t: PdfAndMail): Promise<{ pdf: Buffer; composed: Composed | null }> {
  if (t.doc.tickets.length === 0) throw new Error('no tickets to render');
  const pool = pdfAndMailPool();
  return pool ? pool(t) : renderTicketsPdfAndMailHere(t);
}

export async function renderTicketsPdfAndMailHere(t: PdfAndMail): Promise<{ pdf: Buffer; composed: Composed | null }> {
  const pdf = await renderTicketsPdfHere(t.doc);
  if (!t.mail) return { pdf, composed: null };
  const attachments = t.mail.attachments.map((a, i) => (i === t.pdfAt ? { ...a, content: pdf } : a));
  return { pdf, composed: await composeMail({ ...t.mail, attachments }) };
}

/**
 * pdfkit's font of a document, as its `font()` keeps it (pdfkit's own fields: not part of its API). A
 * standard font is a StandardFont whose `font` is the face's metrics (an AFMFont: the glyph widths and
 * the kerning pairs as lookup tables), read only once made.
 */
type PdfkitFont = { document: unknown; id: string; name: string };
type PdfkitFonts = { _fontFamilies: Record<string, PdfkitFont>; _fontCount: number };
/** Helvetica and Helvetica-Bold as pdfkit made them for this thread's first standard document, before it used them. */
let standardFaces: Array<{ key: string; proto: object; fields: PdfkitFont }> | undefined;
/**
 * Sets a document's faces to Helvetica and Helvetica-Bold (issue 26 "pdf4"). pdfkit builds a standard
 * face's metrics tables anew for every document (`new AFMFont` in its StandardFont: about 0.3 ms a
 * document, a sixth of a one-ticket PDF) and offers no way to share them: no option, and its
 * font classes are not exported. So the first standard document of a thread has its faces opened by
 * pdfkit and their fields kept (before any use: no document's reference in them); every later one
 * gets faces made from those fields (the same read-only metrics object) with this document and its
 * own font ids, put where `font()` looks a face up by name, as `font()` would put them.
 */
function useStandardFaces(doc: PDFKit.PDFDocument) {
  const fonts = doc as unknown as PdfkitFonts;
  if (!standardFaces) {
    doc.registerFont(REGULAR, 'Helvetica');
    doc.registerFont(BOLD, 'Helvetica-Bold');
    const opened = [REGULAR, BOLD].map((key) => {
      doc.font(key);
      const face = fonts._fontFamilies[key]!;
      return { key, proto: Object.getPrototypeOf(face) as object, fields: { ...face } };
    });
    standardFaces = opened;
    return;
  }
  for (const { key, proto, fields } of standardFaces) {
    const face = Object.assign(Object.create(proto) as PdfkitFont, fields, { document: doc, id: `F${++fonts._fontCount}` });
    fonts._fontFamilies[key] = face;
    fonts._fontFamilies[face.name] = face;
  }
}

/** Builds the PDF on this thread (the PDF workers run this). */
export async function renderTicketsPdfHere(d: TicketDocument): Promise<Buffer> {
  if (d.tickets.length === 0) throw new Error('no tickets to render');
  await loadPdfLibs();
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'LETTER',
      margin: PAGE.margin,
      autoFirstPage: false,
      // No Helvetica: every text is set in our own faces, and the default font's metrics were parsed per document.
      font: null as unknown as string,
      info: { Title: pdfText(`Tickets ${d.orderUid} - ${d.event.name}`), Author: 'Marquee' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const when = eventWhen(d);
    if (ticketFontsFor(d, when) === 'standard') {
      useStandardFaces(doc);
    } else {
      const { regular, bold } = ticketFaces();
      doc.registerFont(REGULAR, regular as unknown as Buffer);
      doc.registerFont(BOLD, bold as unknown as Buffer);
    }
    const cover = d.event.coverImage ? openImage(doc, d.event.coverImage) : null;
    d.tickets.forEach((t, i) => {
      doc.addPage();
      drawTicket(doc, d, t, i, cover, when);
    });
    doc.end();
  });
}
