import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// Issue 23 part B: a cash drawer per staff member and shift (docs/box-office.md "Cash drawers").
// Amounts are integer cents.

/**
 * One staff member's drawer for one shift: opened with a float, closed by them with what they
 * counted. expected_cash is frozen at close (float + cash sales - cash refunds), difference =
 * counted - expected. At most one open drawer per person and tenant (a partial unique index).
 */
export const cashDrawers = pgTable(
  'cash_drawers',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    userId: uuid('user_id').notNull(),
    /** The staff member's name and e-mail when they opened it (the drawer outlives a rename). */
    staffName: text('staff_name').notNull().default(''),
    staffEmail: text('staff_email').notNull().default(''),
    openingFloat: integer('opening_float').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    expectedCash: integer('expected_cash'),
    countedAmount: integer('counted_amount'),
    difference: integer('difference'),
    note: text('note').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('cash_drawers_id_key').on(t.id),
    uniqueIndex('cash_drawers_one_open').on(t.tenantId, t.userId).where(sql`closed_at is null`),
    index('cash_drawers_tenant_idx').on(t.tenantId, t.openedAt),
    check('cash_drawers_float_nonneg', sql`${t.openingFloat} >= 0`),
    check(
      'cash_drawers_closed_complete',
      sql`(${t.closedAt} is null and ${t.countedAmount} is null and ${t.expectedCash} is null and ${t.difference} is null) or (${t.closedAt} is not null and ${t.countedAmount} >= 0 and ${t.expectedCash} is not null and ${t.difference} = ${t.countedAmount} - ${t.expectedCash})`,
    ),
  ],
);

/**
 * Cash into or out of a drawer: a cash sale (amount > 0, one per order) or cash handed back for a
 * refund (amount < 0, one per refund). Written in the sale's or the refund's own transaction, under
 * the drawer's row lock, so a closed drawer never changes.
 */
export const cashDrawerMovements = pgTable(
  'cash_drawer_movements',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    drawerId: uuid('drawer_id').notNull(),
    /** sale | refund */
    kind: text('kind').notNull(),
    orderId: uuid('order_id').notNull(),
    refundId: uuid('refund_id'),
    amount: integer('amount').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('cash_drawer_movements_drawer_idx').on(t.tenantId, t.drawerId, t.createdAt),
    uniqueIndex('cash_drawer_movements_sale_key').on(t.orderId).where(sql`kind = 'sale'`),
    uniqueIndex('cash_drawer_movements_refund_key').on(t.refundId),
    check(
      'cash_drawer_movements_kind',
      sql`(${t.kind} = 'sale' and ${t.amount} > 0 and ${t.refundId} is null) or (${t.kind} = 'refund' and ${t.amount} < 0 and ${t.refundId} is not null)`,
    ),
  ],
);
