import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Private order links (issue 15, buyers): every order mail carries /orders/{token}; only the
 * sha256 of the 256-bit token is kept, so a database leak does not open orders. One row per link
 * minted (each mail mints its own), all opening the same order.
 */
export const orderLinks = pgTable(
  'order_links',
  {
    tenantId: uuid('tenant_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    orderId: uuid('order_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.tokenHash] }), index('order_links_order_idx').on(t.tenantId, t.orderId)],
);
