import { bigint, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';

const total = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/**
 * Every report figure (docs/reports.md) per event, summed over the event's paid orders: an exact
 * rollup kept by database triggers on orders, tickets and refunds (migration 0006_reports), so
 * that dashboards and sales rows read a row per event instead of a million tickets. Never written
 * by the application; `select mq_rebuild_report_totals()` recomputes it from the orders.
 */
export const eventSalesTotals = pgTable(
  'event_sales_totals',
  {
    tenantId: uuid('tenant_id').notNull(),
    eventId: uuid('event_id').notNull(),
    orders: total('orders'),
    gross: total('gross'),
    net: total('net'),
    serviceFees: total('service_fees'),
    processingFees: total('processing_fees'),
    tax: total('tax'),
    donations: total('donations'),
    donationFees: total('donation_fees'),
    discounts: total('discounts'),
    refunds: total('refunds'),
    ticketsSold: total('tickets_sold'),
    complimentary: total('complimentary'),
    used: total('used'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventId] })],
);

/**
 * The same rollup split by where each order was sold (issue 23 "everywhere money is shown", issue 25's
 * APP channel): per event, channel (ONLINE, BACKEND, APP) and payment method ('' when the order has
 * none), the paid orders' counts and money. Kept by the same trigger function as event_sales_totals
 * (mq_report_apply, migration `channel_totals`), so per event the channels sum to its row there.
 */
export const eventChannelTotals = pgTable(
  'event_channel_totals',
  {
    tenantId: uuid('tenant_id').notNull(),
    eventId: uuid('event_id').notNull(),
    channel: text('channel').notNull(),
    paymentMethod: text('payment_method').notNull(),
    orders: total('orders'),
    gross: total('gross'),
    net: total('net'),
    refunds: total('refunds'),
    ticketsSold: total('tickets_sold'),
    complimentary: total('complimentary'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventId, t.channel, t.paymentMethod] })],
);
