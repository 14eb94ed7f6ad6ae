import { bigint, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';

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
