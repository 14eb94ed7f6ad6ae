import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy.js';

// Ticket transfers (issue 24, modules/transfers; docs/transfers.md).

/**
 * Each time a ticket was passed on: the Ticket ID it had (whose signed code no longer admits), the
 * one it got, who held it and who holds it now. The ticket row itself carries the new holder and
 * Ticket ID; this is the record the door and the order pages read.
 */
export const ticketTransfers = pgTable(
  'ticket_transfers',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: uuid('id').notNull(),
    ticketId: uuid('ticket_id').notNull(),
    orderId: uuid('order_id').notNull(),
    eventId: uuid('event_id').notNull(),
    /** The Ticket ID before the transfer: a code that names it answers "transferred" at the door. */
    fromUid: text('from_uid').notNull(),
    toUid: text('to_uid').notNull(),
    fromName: text('from_name').notNull(),
    fromEmail: text('from_email').notNull(),
    toName: text('to_name').notNull(),
    toEmail: text('to_email').notNull(),
    /** sha256 of the new holder's private link token (/tickets/{token}); the token itself is only mailed. */
    linkHash: text('link_hash').notNull(),
    /** Who asked: 'order link' (the buyer). */
    via: text('via').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('ticket_transfers_from_uid_key').on(t.fromUid),
    uniqueIndex('ticket_transfers_link_key').on(t.linkHash),
    index('ticket_transfers_ticket_idx').on(t.tenantId, t.ticketId),
    index('ticket_transfers_event_idx').on(t.tenantId, t.eventId),
  ],
);

/** An event's transfer setting; no row: transfers are allowed (the default). */
export const eventTransferSettings = pgTable(
  'event_transfer_settings',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    eventId: uuid('event_id').notNull(),
    allowed: boolean('allowed').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventId] })],
);
