import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// Checkout sessions of the built-in test gateway (PAYMENT_DRIVER=test): what Stripe keeps on its
// side for a Checkout Session, kept here so the hosted pay page can show and complete it.
export const testCheckoutSessions = pgTable(
  'test_checkout_sessions',
  {
    tenantId: uuid('tenant_id').notNull(),
    /** The session id in the pay page URL: unguessable, so the URL is the capability. */
    id: text('id').notNull(),
    orderId: uuid('order_id').notNull(),
    orderUid: text('order_uid').notNull(),
    /** cents */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    email: text('email').notNull().default(''),
    description: text('description').notNull().default(''),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** open | complete | expired */
    status: text('status').notNull().default('open'),
    /** The test "payment intent" id a completed session captured (refunds name it). */
    chargeId: text('charge_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('test_checkout_sessions_id_key').on(t.id),
    uniqueIndex('test_checkout_sessions_idempotency_key').on(t.tenantId, t.idempotencyKey),
    index('test_checkout_sessions_order_idx').on(t.tenantId, t.orderId),
    index('test_checkout_sessions_charge_idx').on(t.chargeId),
  ],
);

/** Refunds issued through the test gateway, so a refund with the same idempotency key is one refund. */
export const testRefunds = pgTable(
  'test_refunds',
  {
    id: text('id').primaryKey(),
    chargeId: text('charge_id').notNull(),
    amount: integer('amount').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('test_refunds_idempotency_key').on(t.idempotencyKey)],
);
