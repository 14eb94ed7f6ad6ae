import { integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy.js';

// Issue 28: an event series (docs/decisions.md "Issue 28: event series"). The series is the
// parent; each date and each timed-entry slot is an ordinary `events` row with `series_id`, so
// inventory, holds, check-in, reports and cancellation stay per date. The series keeps what its
// dates are made from: the name, the URL name of its public page, the time zone, the capacity per
// date and the ticket types copied to each new date.

export const eventSeries = pgTable(
  'event_series',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    /** The public page's /series/{urlName}; each date has its own event URL name too. */
    urlName: text('url_name').notNull(),
    description: text('description').notNull().default(''),
    timeZone: text('time_zone').notNull(),
    venueName: text('venue_name').notNull().default(''),
    /** Each date's (slot's) capacity; null: only the ticket types' quantities. */
    capacity: integer('capacity'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('event_series_url_name_key').on(t.tenantId, t.urlName)],
);

/** The ticket types set once on the series; each date gets a copy linked by series_ticket_type_id. */
export const seriesTicketTypes = pgTable(
  'series_ticket_types',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    seriesId: uuid('series_id').notNull(),
    name: text('name').notNull(),
    price: integer('price').notNull(),
    quantity: integer('quantity').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);
