import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db, DbOrTx } from '../db/client.js';
import { outbox, tenants } from '../db/schema/index.js';
import type { Jobs } from './jobs.js';
import type { Storage } from './storage.js';

// Every message is written to the outbox in the caller's transaction and delivered by a job:
// through SMTP when SMTP_URL is set, otherwise kept in the outbox (the platform console lists it)
// with its links logged, so a newcomer can click a verification link with no mail server.

export type MailAttachment = { filename: string; contentType: string; key: string };
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  tenantId?: string | null;
  /** Defaults to the tenant's contact e-mail when tenantId is set: replies reach the organiser, not us. */
  replyTo?: string | null;
  attachments?: MailAttachment[];
  /** Extra headers, e.g. List-Unsubscribe (issue 15, messages to attendees). */
  headers?: Record<string, string>;
};

export type Mailer = {
  send(tx: DbOrTx, message: MailMessage): Promise<string>;
  /** Closes the SMTP connections (a pooled SMTP_URL keeps some open); at shutdown, after the jobs stopped, and in the app's onClose. */
  close(): void;
};

export const MAIL_JOB = 'mail.deliver';

/** Mail deliveries running at once on a node (its mail lane), and so the SMTP connections it keeps open. */
export const MAIL_WORKERS = 4;

/**
 * SMTP_URL with a pool of open connections (nodemailer's `pool`, at most MAIL_WORKERS) unless it says
 * otherwise (`?pool=false`): a connection per message cost a TCP and SMTP handshake (and a TLS one on
 * a real relay) per ticket mail.
 */
export function pooledSmtpUrl(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
    if (!url.searchParams.has('maxConnections')) url.searchParams.set('maxConnections', String(MAIL_WORKERS));
    return url.toString();
  } catch {
    return smtpUrl;
  }
}

export function createMailer(opts: {
  db: Db;
  jobs: Jobs;
  storage: Storage;
  log: FastifyBaseLogger;
  smtpUrl?: string;
  from: string;
}): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(pooledSmtpUrl(opts.smtpUrl)) : null;
  // Mails run in a lane of their own (MAIL_WORKERS at once), so that a sale's ticket mails wait neither
  // behind each other nor behind the PDFs and payments of the main loop (bench/README.md "From payment to ticket mail").
  opts.jobs.lane([MAIL_JOB], MAIL_WORKERS);

  const SENT_PLACEHOLDER = '(delivered through SMTP; the content is not kept)';
  opts.jobs.register(MAIL_JOB, async ({ id }: { id: string }) => {
    const [message] = await opts.db.select().from(outbox).where(eq(outbox.id, id));
    if (!message || message.status === 'sent' || message.status === 'kept') return;
    if (!transport) {
      const links = message.text.match(/https?:\/\/\S+/g) ?? [];
      opts.log.info({ to: message.to, subject: message.subject, links }, 'mail kept in outbox (no SMTP_URL)');
      await opts.db.update(outbox).set({ status: 'kept' }).where(eq(outbox.id, id));
      return;
    }
    const attachments = await Promise.all(
      message.attachments.map(async (a) => {
        const object = await opts.storage.get(a.key);
        if (!object) throw new Error(`attachment missing: ${a.key}`);
        return { filename: a.filename, contentType: a.contentType, content: object.bytes };
      }),
    );
    await transport.sendMail({
      from: opts.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? undefined,
      replyTo: message.replyTo ?? undefined,
      attachments,
      headers: message.headers ?? undefined,
      messageId: `<${id}@marquee>`,
    });
    // Once delivered, the body (codes, links) is not kept: only the recipient should hold it.
    await opts.db.update(outbox).set({ status: 'sent', sentAt: new Date(), text: SENT_PLACEHOLDER, html: null }).where(eq(outbox.id, id));
  });

  return {
    close() {
      transport?.close();
    },
    async send(tx, message) {
      const id = randomUUID();
      let replyTo = message.replyTo ?? null;
      if (replyTo === null && message.tenantId) {
        const [tenant] = await tx.select({ email: tenants.email }).from(tenants).where(eq(tenants.id, message.tenantId));
        replyTo = tenant?.email || null;
      }
      await tx.insert(outbox).values({
        id,
        tenantId: message.tenantId ?? null,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        replyTo,
        attachments: message.attachments ?? [],
        headers: message.headers ?? null,
      });
      await opts.jobs.enqueue(tx, MAIL_JOB, { id }, { dedupeKey: `mail:${id}` });
      return id;
    },
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
