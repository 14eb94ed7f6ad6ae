import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy.js';

// The waiting list for sold-out tickets (issue 24, modules/waitlist, docs/waiting-list.md). Not the
// waiting room (waiting-room.ts), which is a line before an on-sale.

/**
 * One per event whose list was ever set or joined. `enabled` turns the list off and on; the row is
 * also the event's lock for the list: every change of its entries (offer rounds, manual offers,
 * removals) locks it first (docs/architecture.md "Lock order").
 */
export const waitlistSettings = pgTable(
  'waitlist_settings',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    eventId: uuid('event_id').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** How long an offer's claim link holds the tickets. */
    offerMinutes: integer('offer_minutes').notNull().default(60),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventId] }), check('waitlist_settings_offer_minutes', sql`${t.offerMinutes} between 5 and 10080`)],
);

/**
 * A person on an event's list for one ticket type. state: waiting | offered | claimed | expired |
 * removed. An offer is a draft order (orders.waitlist_entry_id) holding the tickets for this person
 * only; the order that buys them carries the same entry id.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: uuid('id').notNull(),
    eventId: uuid('event_id').notNull(),
    ticketTypeId: uuid('ticket_type_id').notNull(),
    /** Join order, across nodes. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    email: text('email').notNull(),
    quantity: integer('quantity').notNull(),
    state: text('state').notNull().default('waiting'),
    offeredQuantity: integer('offered_quantity'),
    offerOrderId: uuid('offer_order_id'),
    /** sha256 of the claim link's token (the offer order's view token). */
    claimTokenHash: text('claim_token_hash'),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
    claimedOrderId: uuid('claimed_order_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('waitlist_entries_queue').on(t.tenantId, t.eventId, t.state, t.seq),
    // Joining the same list twice: one live entry per person and ticket type.
    uniqueIndex('waitlist_entries_one_live')
      .on(t.tenantId, t.ticketTypeId, sql`lower(${t.email})`)
      .where(sql`${t.state} in ('waiting', 'offered')`),
    check('waitlist_entries_quantity', sql`${t.quantity} >= 1`),
    check('waitlist_entries_state', sql`${t.state} in ('waiting', 'offered', 'claimed', 'expired', 'removed')`),
  ],
);
