// One PDF worker thread (pdf-workers.ts): builds a ticket document's PDF with the same code as the main
// thread, a mail's MIME source (composeMail, issue 26 "mail2") with nodemailer's own composer, or both
// in one task (renderAndCompose, issue 26 "mail3": the fulfilment's PDF and its tickets mail).
import { renderTicketsPdfAndMailHere, renderTicketsPdfHere, type PdfAndMail, type TicketDocument } from './pdf.js';

export { composeMail } from './compose-mail.js';

/** The cover crossed as a Uint8Array: pdfkit opens images from a Buffer. */
function withBufferCover(d: TicketDocument): TicketDocument {
  const cover = d.event.coverImage ? Buffer.from(d.event.coverImage.buffer, d.event.coverImage.byteOffset, d.event.coverImage.byteLength) : null;
  return { ...d, event: { ...d.event, coverImage: cover } };
}

export default async function render(d: TicketDocument): Promise<Uint8Array> {
  return renderTicketsPdfHere(withBufferCover(d));
}

export async function renderAndCompose(t: PdfAndMail) {
  return renderTicketsPdfAndMailHere({ ...t, doc: withBufferCover(t.doc) });
}
