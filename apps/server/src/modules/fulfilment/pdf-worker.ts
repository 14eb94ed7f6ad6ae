// One PDF worker thread (pdf-workers.ts): builds a ticket document's PDF with the same code as the main
// thread, and a mail's MIME source (composeMail, issue 26 "mail2") with nodemailer's own composer.
import nodemailer from 'nodemailer';
import type { ComposeInput, Composed } from '../../platform/mail.js';
import { renderTicketsPdfHere, type TicketDocument } from './pdf.js';

/** nodemailer's stream transport hands back the message it built instead of sending it. */
let composer: ReturnType<typeof nodemailer.createTransport> | undefined;

export async function composeMail(m: ComposeInput): Promise<Composed> {
  composer ??= nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = (await composer.sendMail({
    ...m,
    attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength) })),
  })) as unknown as { envelope: { from: string; to: string[] }; message: Buffer };
  return { envelope: { from: info.envelope.from, to: info.envelope.to }, raw: info.message };
}

export default async function render(d: TicketDocument): Promise<Uint8Array> {
  // The cover crossed as a Uint8Array: pdfkit opens images from a Buffer.
  const cover = d.event.coverImage ? Buffer.from(d.event.coverImage.buffer, d.event.coverImage.byteOffset, d.event.coverImage.byteLength) : null;
  return renderTicketsPdfHere({ ...d, event: { ...d.event, coverImage: cover } });
}
