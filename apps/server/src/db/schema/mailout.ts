import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// Messages an organiser sends to the attendees of an event (issue 15), the addresses each went to,
// and the addresses that opted out of a tenant's messages. Tenant-owned: tenant_id leads each key.

export const attendeeMessages = pgTable(
  'attendee_messages',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    eventId: uuid('event_id').notNull(),
    subject: text('subject').notNull(),
    /** Sanitised HTML (the policies' allow-list). */
    body: text('body').notNull(),
    /** all | ticket_types */
    recipients: text('recipients').notNull(),
    ticketTypeIds: uuid('ticket_type_ids').array().notNull().default(sql`'{}'::uuid[]`),
    ticketTypeNames: text('ticket_type_names').array().notNull().default(sql`'{}'::text[]`),
    marketing: boolean('marketing').notNull().default(false),
    /** queued | sending | done | failed */
    status: text('status').notNull().default('queued'),
    /** Distinct addresses, fixed when the job first counts them; null before. */
    total: integer('total'),
    sent: integer('sent').notNull().default(0),
    optedOut: integer('opted_out').notNull().default(0),
    createdBy: uuid('created_by'),
    createdByEmail: text('created_by_email').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('attendee_messages_id_key').on(t.id), index('attendee_messages_event_idx').on(t.tenantId, t.eventId, t.createdAt)],
);

/**
 * One row per distinct address a message goes to, written when the job counts them. Sending an
 * address marks its row in the same transaction that writes the mail to the outbox, so a retried
 * job never mails an address twice.
 */
export const attendeeMessageRecipients = pgTable(
  'attendee_message_recipients',
  {
    tenantId: uuid('tenant_id').notNull(),
    messageId: uuid('message_id').notNull(),
    /** Lower-case. */
    email: text('email').notNull(),
    /** pending | sent | skipped (unsubscribed after it was counted) */
    status: text('status').notNull().default('pending'),
    outboxId: uuid('outbox_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.messageId, t.email] })],
);

/** Addresses that unsubscribed from a tenant's messages to attendees (the signed link in each mail). */
export const mailOptOuts = pgTable(
  'mail_opt_outs',
  {
    tenantId: uuid('tenant_id').notNull(),
    /** Lower-case. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.email] })],
);
