// A mail's MIME source built by nodemailer's own composer (issue 26 "mail2"), on whichever thread
// calls it: the PDF worker threads (pdf-worker.ts), or the calling thread when there are none.
import nodemailer from 'nodemailer';
import type { ComposeInput, Composed } from '../../platform/mail.js';

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
