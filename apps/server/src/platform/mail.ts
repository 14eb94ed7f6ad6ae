import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db, DbOrTx } from '../db/client.js';
import { outbox, tenants } from '../db/schema/index.js';
import { createBatcher } from './batcher.js';
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

/**
 * What nodemailer is given for one message (its attachments' bytes read), and what builds its MIME
 * source off the main thread (issue 26 "mail2": the fulfilment's worker threads, composeMail in
 * modules/fulfilment/pdf-worker.ts); the mail job then hands the finished bytes to SMTP.
 */
export type ComposeInput = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  headers?: Record<string, string>;
  messageId: string;
  attachments: Array<{ filename: string; contentType: string; content: Uint8Array }>;
};
export type Composed = { envelope: { from: string; to: string[] }; raw: Uint8Array };
export type Composer = (mail: ComposeInput) => Promise<Composed>;

export type Mailer = {
  send(tx: DbOrTx, message: MailMessage): Promise<string>;
  /** Where messages are composed (null: by nodemailer on this thread, the default). */
  composeWith(compose: Composer | null): void;
  /** Closes the SMTP connections (a pooled SMTP_URL keeps some open); at shutdown, after the jobs stopped, and in the app's onClose. */
  close(): void;
  /**
   * What the mail job would compose for outbox row `id` holding `message`, given its attachments'
   * bytes (in the message's order), so that a caller that has them at hand composes it ahead (issue
   * 26 "mail3": the fulfilment builds the PDF and composes its mail in one worker call); null when
   * mail is not sent through SMTP (kept in the outbox), where nothing is composed.
   */
  composeInputOf(id: string, message: MailMessage, attachments: Uint8Array[]): ComposeInput | null;
  /**
   * A message composed ahead for outbox row `id` (from composeInputOf): this process's mail job sends
   * these bytes instead of reading the attachments back from storage and composing them again. Kept
   * until sent, or forgotten (forget, or after PREPARED_TTL_MS); the outbox row stays the message, so a
   * job run elsewhere (another node, after a restart) composes it from the row as before.
   */
  prepare(id: string, composed: Composed): void;
  forget(id: string): void;
};

export const MAIL_JOB = 'mail.deliver';

/** The SMTP connections a node keeps open (nodemailer's pool): mail deliveries sent at once. */
export const MAIL_WORKERS = 4;
/**
 * Mail jobs running at once on a node (its mail lane; their messages wait for a connection of the
 * pool). More than the connections so that the jobs' reads of their outbox rows and their marks as
 * sent go several in one statement (issue 26 "mail4").
 */
export const MAIL_LANE = 16;

/** Messages composed ahead and waiting for their job, at most (beyond it a job composes its own), and for how long. */
export const PREPARED_MAX = 2_000;
export const PREPARED_TTL_MS = 10 * 60_000;

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
  opts.jobs.lane([MAIL_JOB], MAIL_LANE);

  let compose: Composer | null = null;
  /** Messages composed ahead (prepare), by outbox id, with when they expire. */
  const prepared = new Map<string, { composed: Composed; until: number }>();
  const toBuffer = (b: Uint8Array) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  const SENT_PLACEHOLDER = '(delivered through SMTP; the content is not kept)';
  // Issue 26 "mail4": the mail jobs running at once read their outbox rows, and mark them sent (or
  // kept), several in one statement: a statement's requests wait while the one before it runs, then
  // go together (platform/batcher.ts; a batch that fails runs each request alone).
  const rows = createBatcher<string, typeof outbox.$inferSelect | undefined>(async (_key, ids) => {
    const found = await opts.db.select().from(outbox).where(inArray(outbox.id, ids));
    return ids.map((id) => found.find((m) => m.id === id));
  }, 64);
  const marks = createBatcher<string, true>(async (status, ids) => {
    const set = status === 'sent' ? { status: 'sent' as const, sentAt: new Date(), text: SENT_PLACEHOLDER, html: null } : { status: 'kept' as const };
    await opts.db.update(outbox).set(set).where(inArray(outbox.id, ids));
    return ids.map(() => true as const);
  }, 64);
  opts.jobs.register(MAIL_JOB, async ({ id }: { id: string }) => {
    const message = await rows.submit('', id);
    const kept = prepared.get(id);
    prepared.delete(id);
    const ahead = kept && kept.until >= Date.now() ? kept : undefined;
    if (!message || message.status === 'sent' || message.status === 'kept') return;
    if (transport && ahead) {
      // Composed ahead by the run that wrote the row (from the same fields and attachments): sent as is.
      await transport.sendMail({ envelope: ahead.composed.envelope, raw: toBuffer(ahead.composed.raw) });
      await marks.submit('sent', id);
      return;
    }
    if (!transport) {
      const links = message.text.match(/https?:\/\/\S+/g) ?? [];
      opts.log.info({ to: message.to, subject: message.subject, links }, 'mail kept in outbox (no SMTP_URL)');
      await marks.submit('kept', id);
      return;
    }
    const attachments = await Promise.all(
      message.attachments.map(async (a) => {
        const object = await opts.storage.get(a.key);
        if (!object) throw new Error(`attachment missing: ${a.key}`);
        return { filename: a.filename, contentType: a.contentType, content: object.bytes };
      }),
    );
    const mail = composeInputOf(
      id,
      { to: message.to, subject: message.subject, text: message.text, html: message.html ?? undefined, replyTo: message.replyTo, headers: message.headers ?? undefined, attachments: message.attachments },
      attachments.map((a) => a.content),
    );
    if (compose) {
      // Built on a worker thread: this thread only hands the bytes to the SMTP connection.
      const composed = await compose(mail);
      await transport.sendMail({ envelope: composed.envelope, raw: toBuffer(composed.raw) });
    } else {
      await transport.sendMail({ ...mail, attachments: attachments.map((a) => ({ ...a, content: Buffer.isBuffer(a.content) ? a.content : Buffer.from(a.content) })) });
    }
    // Once delivered, the body (codes, links) is not kept: only the recipient should hold it.
    await marks.submit('sent', id);
  });

  const composeInputOf = (id: string, message: MailMessage, attachments: Uint8Array[]): ComposeInput => ({
    from: opts.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html ?? undefined,
    replyTo: message.replyTo ?? undefined,
    attachments: (message.attachments ?? []).map((a, i) => ({ filename: a.filename, contentType: a.contentType, content: attachments[i]! })),
    headers: message.headers ?? undefined,
    messageId: `<${id}@marquee>`,
  });

  return {
    close() {
      transport?.close();
      prepared.clear();
    },
    composeInputOf(id, message, attachments) {
      return transport ? composeInputOf(id, message, attachments) : null;
    },
    prepare(id, composed) {
      const now = Date.now();
      if (prepared.size >= PREPARED_MAX) for (const [k, v] of prepared) if (v.until < now) prepared.delete(k);
      if (prepared.size < PREPARED_MAX) prepared.set(id, { composed, until: now + PREPARED_TTL_MS });
    },
    forget(id) {
      prepared.delete(id);
    },
    composeWith(c) {
      compose = c;
    },
    async send(tx, message) {
      const id = randomUUID();
      let replyTo = message.replyTo ?? null;
      if (replyTo === null && message.tenantId) {
        const [tenant] = await tx.select({ email: tenants.email }).from(tenants).where(eq(tenants.id, message.tenantId));
        replyTo = tenant?.email || null;
      }
      await tx.insert(outbox).values({ id, ...outboxFieldsOf(message), replyTo });
      await opts.jobs.enqueue(tx, MAIL_JOB, { id }, { dedupeKey: `mail:${id}` });
      return id;
    },
  };
}

/** A message's outbox row, but its id (the reply-to as given: send and outboxCtes default it to the tenant's contact e-mail). */
function outboxFieldsOf(message: MailMessage) {
  return {
    tenantId: message.tenantId ?? null,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
    replyTo: message.replyTo ?? null,
    attachments: message.attachments ?? [],
    headers: message.headers ?? null,
  };
}

/**
 * Mailer.send as data-modifying CTEs of one statement (issue 26 "mail2": the fulfilment writes its
 * completion and its mail in one statement; "mail4": a batch's mails in one): each item's outbox row
 * and its delivery job (MAIL_JOB, the same dedupe key), written when its `when` is among the values of
 * column `column` of the CTE `after` (an item whose `when` is not there writes nothing). The reply-to
 * defaults, as in send, to the tenant's contact e-mail, read in the statement. Put it in a WITH list
 * after `after`.
 */
export function outboxCtes(items: ReadonlyArray<{ id: string; message: MailMessage; when: string }>, after: string, column: string): SQL {
  const rows = JSON.stringify(
    items.map(({ id, message, when }) => ({ id, when, ...outboxFieldsOf(message) })),
  );
  const x = sql`jsonb_to_recordset(${rows}::jsonb) as x(id uuid, "when" text, "tenantId" uuid, "to" text, subject text, text text, html text, "replyTo" text, attachments jsonb, headers jsonb)`;
  const written = sql`x."when" in (select ${sql.identifier(column)}::text from ${sql.identifier(after)})`;
  return sql`mail_outbox as (
      insert into outbox (id, tenant_id, "to", subject, text, html, reply_to, attachments, headers)
      select x.id, x."tenantId", x."to", x.subject, x.text, x.html,
        coalesce(x."replyTo", (select nullif(t.email, '') from tenants t where t.id = x."tenantId")), x.attachments, x.headers
      from ${x} where ${written}),
    mail_job as (
      insert into jobs (name, payload, run_at, dedupe_key, max_attempts)
      select ${MAIL_JOB}, jsonb_build_object('id', x.id), now(), 'mail:' || x.id, 8 from ${x} where ${written}
      on conflict (dedupe_key) do nothing)`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
