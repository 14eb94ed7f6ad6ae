import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** Durable jobs: enqueued in the caller's transaction, claimed with SKIP LOCKED, retried with backoff. */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    dedupeKey: text('dedupe_key'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** The worker holding the lease: a restarted node takes back what its previous run held. */
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due_idx').on(t.runAt).where(sql`done_at is null and failed_at is null`),
    uniqueIndex('jobs_dedupe_key').on(t.dedupeKey),
  ],
);

/** Every message the product sends. Without SMTP_URL it stays here, readable in the platform console. */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** The tenant's contact e-mail on every mail sent on its behalf (issue 15). */
    replyTo: text('reply_to'),
    /** [{ filename, contentType, key }] in file storage */
    attachments: jsonb('attachments').$type<Array<{ filename: string; contentType: string; key: string }>>().notNull().default([]),
    /** Extra headers, e.g. List-Unsubscribe on messages to attendees (issue 15). */
    headers: jsonb('headers').$type<Record<string, string>>(),
    /** queued | sent | kept | failed */
    status: text('status').notNull().default('queued'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('outbox_created_idx').on(t.createdAt, t.id),
    index('outbox_to_idx').on(t.to),
    // Issue 26: the metrics' mail outbox depth reads the queued messages only.
    index('outbox_queued_idx').on(t.createdAt).where(sql`status = 'queued'`),
  ],
);
