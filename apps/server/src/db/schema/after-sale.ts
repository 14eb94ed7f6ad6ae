import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// What happens to an order after the sale (issue 8): refunds, the audit of every action taken on
// an order or ticket, and report exports. Tenant-owned tables lead their key with tenant_id.

/**
 * One refund of (part of) an order's payment. Every refund is a row, whoever started it: an
 * organiser from the order page, the event's cancellation, or the system (a payment that arrived
 * after its hold expired, a duplicate payment). Amounts are cents and split between the tenant's
 * and the platform's share of the order (docs/reports.md), so that reports and payouts read one
 * figure: tenantAmount + platformAmount = amount.
 */
export const refunds = pgTable(
  'refunds',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    orderId: uuid('order_id').notNull(),
    eventId: uuid('event_id').notNull(),
    amount: integer('amount').notNull(),
    tenantAmount: integer('tenant_amount').notNull().default(0),
    platformAmount: integer('platform_amount').notNull().default(0),
    /** organiser | event_cancelled | hold_expired | duplicate_payment */
    kind: text('kind').notNull(),
    /** The reason a person gave (or the system's). */
    reason: text('reason').notNull().default(''),
    /** pending (asked of the gateway) | succeeded | failed */
    status: text('status').notNull().default('pending'),
    provider: text('provider'),
    chargeId: text('charge_id'),
    /** The gateway's refund id once it answered. */
    providerRefundId: text('provider_refund_id'),
    failureReason: text('failure_reason'),
    /**
     * Issue 23: how the money of a box-office order went back: 'cash' (from the refunder's drawer) or
     * 'card_terminal' (on the venue's own terminal, its reference beside). Null: through the gateway.
     */
    refundMethod: text('refund_method'),
    terminalReference: text('terminal_reference'),
    /** The tickets this refund voided (and returned to sale). */
    ticketIds: uuid('ticket_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Who asked for it; null for the system. */
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('refunds_id_key').on(t.id),
    index('refunds_order_idx').on(t.tenantId, t.orderId),
    index('refunds_event_idx').on(t.tenantId, t.eventId, t.createdAt),
    index('refunds_tenant_idx').on(t.tenantId, t.createdAt),
    uniqueIndex('refunds_provider_refund_key').on(t.provider, t.providerRefundId),
    check('refunds_amount_pos', sql`${t.amount} > 0`),
    check('refunds_split', sql`${t.tenantAmount} + ${t.platformAmount} = ${t.amount}`),
    check(
      'refunds_method',
      sql`${t.refundMethod} is null or (${t.refundMethod} = 'cash' and ${t.terminalReference} is null) or (${t.refundMethod} = 'card_terminal' and ${t.terminalReference} is not null)`,
    ),
  ],
);

/** Who did what to an order or one of its tickets, when and why (void, unvoid, refund, resend, download, cancel). */
export const orderActions = pgTable(
  'order_actions',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    orderId: uuid('order_id').notNull(),
    ticketId: uuid('ticket_id'),
    /** void | unvoid | refund | resend | download | event_cancelled */
    action: text('action').notNull(),
    reason: text('reason').notNull().default(''),
    /** null: the system */
    userId: uuid('user_id'),
    /** The actor's e-mail as it was then (users can be deleted; the record stays readable). */
    userEmail: text('user_email'),
    /** JSON with what the action needs to be understood later (amount, refund id). */
    details: text('details'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('order_actions_order_idx').on(t.tenantId, t.orderId, t.createdAt),
    // A member's resends of the last hour (issue 21 §3: the resend limits).
    index('order_actions_resends_by_user_idx').on(t.tenantId, t.userId, t.createdAt).where(sql`action = 'resend'`),
  ],
);

/**
 * A report export: the `…/download` call writes the row and a job, the job streams the CSV into
 * storage, and the signed download URL serves it once it is ready. tenant_id is null for the
 * platform's own exports (tenant list, taxes, donations).
 */
export const reportExports = pgTable(
  'report_exports',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    /** orders | tickets | refunds | subscribers | tenant-list | event-list | taxes | donations | … */
    kind: text('kind').notNull(),
    /** JSON of what the export was asked for (event id, filters). */
    params: text('params').notNull().default('{}'),
    /** pending | running | done | failed (| expired: an older release's; the sweep now removes the row and file after EXPORT_RETENTION_HOURS) */
    status: text('status').notNull().default('pending'),
    rowCount: integer('row_count').notNull().default(0),
    /** Rows expected, when known up front: the UI shows progress against it. */
    totalRows: integer('total_rows'),
    fileKey: text('file_key'),
    fileName: text('file_name').notNull(),
    error: text('error'),
    requestedBy: uuid('requested_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('report_exports_requested_idx').on(t.requestedBy, t.createdAt)],
);
