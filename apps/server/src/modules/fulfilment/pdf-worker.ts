// One PDF worker thread (pdf-workers.ts): builds a ticket document's PDF with the same code as the main thread.
import { renderTicketsPdfHere, type TicketDocument } from './pdf.js';

export default async function render(d: TicketDocument): Promise<Uint8Array> {
  // The cover crossed as a Uint8Array: pdfkit opens images from a Buffer.
  const cover = d.event.coverImage ? Buffer.from(d.event.coverImage.buffer, d.event.coverImage.byteOffset, d.event.coverImage.byteLength) : null;
  return renderTicketsPdfHere({ ...d, event: { ...d.event, coverImage: cover } });
}
