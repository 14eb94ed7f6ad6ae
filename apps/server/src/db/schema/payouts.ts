import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// What the platform owes each tenant (issue 9, docs/payouts.md). Amounts are integer cents.

/**
 * One payout line: a paid order's money (kind 'sale', one per order) or a refund of it (kind
 * 'refund', negative, one per refund). grossAmount = tenantTotal + platformTotal + gatewayFee.
 * A line goes into at most one payout: payout_id is set once, under a row lock, by the transfer
 * that claims it, and cleared only when that transfer failed.
 */
export const payoutLines = pgTable(
  'payout_lines',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    orderId: uuid('order_id').notNull(),
    eventId: uuid('event_id').notNull(),
    /**
     * sale | refund | netting. A netting line (issue 23) is an order paid in cash or on the venue's
     * own card terminal: the tenant already holds the money, so the line moves none (gross 0) and
     * takes what the platform is owed on it (its platform_total) from the tenant's next payout:
     * tenant_total = -platform_total. A box-office refund of such an order gives the platform's part
     * back the same way (a netting line with refund_id, tenant_total > 0). docs/payouts.md "Netting".
     */
    kind: text('kind').notNull(),
    /** The refund this line carries (kind 'refund', or a netting line of a refund), else null. */
    refundId: uuid('refund_id'),
    grossAmount: integer('gross_amount').notNull(),
    gatewayFee: integer('gateway_fee').notNull(),
    tenantTotal: integer('tenant_total').notNull(),
    platformTotal: integer('platform_total').notNull(),
    netAmount: integer('net_amount').notNull(),
    /** platform: the platform's account took the money; tenant: the tenant's own account did. */
    facilitator: text('facilitator').notNull(),
    chargeGatewayFeesToPlatform: boolean('charge_gateway_fees_to_platform').notNull(),
    balanceAvailableOn: timestamp('balance_available_on', { withTimezone: true }).notNull(),
    onHold: boolean('on_hold').notNull().default(false),
    payoutId: uuid('payout_id'),
    payoutCompletedAt: timestamp('payout_completed_at', { withTimezone: true }),
    /** Why the last transfer that tried this line failed (shown on the pending table). */
    lastFailure: text('last_failure'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('payout_lines_id_key').on(t.id),
    // One sale line per order and one line per refund: an order's money is owed once.
    uniqueIndex('payout_lines_sale_key').on(t.orderId).where(sql`kind = 'sale'`),
    uniqueIndex('payout_lines_refund_key').on(t.refundId),
    // One netting line per box-office order paid in cash or on the venue's terminal.
    uniqueIndex('payout_lines_netting_key').on(t.orderId).where(sql`kind = 'netting' and refund_id is null`),
    index('payout_lines_open_idx').on(t.tenantId, t.balanceAvailableOn).where(sql`payout_completed_at is null`),
    index('payout_lines_payout_idx').on(t.tenantId, t.payoutId),
    check(
      'payout_lines_kind',
      sql`${t.kind} in ('sale', 'refund', 'netting') and (${t.kind} <> 'sale' or ${t.refundId} is null) and (${t.kind} <> 'refund' or ${t.refundId} is not null)`,
    ),
    check('payout_lines_facilitator', sql`${t.facilitator} in ('platform', 'tenant')`),
    check('payout_lines_adds_up', sql`${t.grossAmount} = ${t.tenantTotal} + ${t.platformTotal} + ${t.gatewayFee} and ${t.netAmount} = ${t.grossAmount} - ${t.gatewayFee}`),
    check(
      'payout_lines_signs',
      sql`(${t.kind} = 'sale' and ${t.tenantTotal} >= 0 and ${t.platformTotal} >= 0 and ${t.gatewayFee} >= 0) or (${t.kind} = 'refund' and ${t.tenantTotal} <= 0 and ${t.platformTotal} <= 0 and ${t.gatewayFee} = 0) or (${t.kind} = 'netting' and ${t.grossAmount} = 0 and ${t.gatewayFee} = 0)`,
    ),
    check('payout_lines_completed_in_payout', sql`${t.payoutCompletedAt} is null or ${t.payoutId} is not null`),
  ],
);

/**
 * One transfer to one tenant. Its id is the gateway's idempotency key and transfer group, so a
 * retry (or the reconciliation job) can never make a second transfer. sending: claimed lines, the
 * gateway asked; completed: the gateway answered with a transfer; failed: it refused (lines freed).
 */
export const payouts = pgTable(
  'payouts',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    status: text('status').notNull(),
    /** What is transferred: the sum of the lines' tenant totals. */
    amount: integer('amount').notNull(),
    grossAmount: integer('gross_amount').notNull(),
    gatewayFee: integer('gateway_fee').notNull(),
    netAmount: integer('net_amount').notNull(),
    tenantTotal: integer('tenant_total').notNull(),
    platformTotal: integer('platform_total').notNull(),
    chargeGatewayFeesToPlatform: boolean('charge_gateway_fees_to_platform').notNull(),
    destination: text('destination'),
    transferId: text('transfer_id'),
    failure: text('failure'),
    /** true: made by the weekly automatic run; false: an operator's Transfer. */
    automatic: boolean('automatic').notNull().default(false),
    /** Who asked for it; null for the automatic run. */
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('payouts_id_key').on(t.id),
    uniqueIndex('payouts_transfer_key').on(t.transferId),
    index('payouts_tenant_idx').on(t.tenantId, t.createdAt),
    index('payouts_sending_idx').on(t.createdAt).where(sql`status = 'sending'`),
    check('payouts_status', sql`${t.status} in ('sending', 'completed', 'failed')`),
    check('payouts_amount_pos', sql`${t.amount} > 0`),
    check('payouts_completed_has_transfer', sql`${t.status} <> 'completed' or ${t.transferId} is not null`),
  ],
);

/** Every hold and release of an order's payout: who, when and the message they gave. */
export const payoutHolds = pgTable(
  'payout_holds',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    orderId: uuid('order_id').notNull(),
    hold: boolean('hold').notNull(),
    message: text('message').notNull().default(''),
    userId: uuid('user_id'),
    userEmail: text('user_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('payout_holds_order_idx').on(t.tenantId, t.orderId, t.createdAt)],
);

/** Platform settings for payouts: one row (id = 'payouts'). The weekly automatic run is off by default. */
export const payoutSettings = pgTable('payout_settings', {
  id: text('id').primaryKey(),
  weeklyAutomatic: boolean('weekly_automatic').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Transfers made through the built-in test gateway, one per idempotency key (like Stripe's). */
export const testTransfers = pgTable(
  'test_transfers',
  {
    id: text('id').primaryKey(),
    destination: text('destination').notNull(),
    amount: integer('amount').notNull(),
    transferGroup: text('transfer_group').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('test_transfers_idempotency_key').on(t.idempotencyKey), index('test_transfers_group_idx').on(t.transferGroup)],
);
