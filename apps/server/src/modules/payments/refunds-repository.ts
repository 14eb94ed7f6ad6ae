import { randomUUID } from 'node:crypto';
import { NOT_ORDER_MONEY } from '@marquee/core';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { orders, refunds } from '../../db/schema/index.js';

// The refunds table's reads and writes: every refund, whoever asks for it (the order page, an
// event's cancellation, a late or duplicate payment), goes through payments (refunds.ts). The
// order page (modules/order-admin) reads them here too.

export type RefundRow = typeof refunds.$inferSelect;
/** Refunds that count against what is left to refund: asked for, or given. */
export const LIVE_REFUND_STATUSES = ['pending', 'succeeded'] as const;

export async function liveRefundTotals(db: DbOrTx, tenantId: string, orderId: string): Promise<{ amount: number; platform: number }> {
  const [row] = await db
    .select({
      amount: sql<number>`coalesce(sum(${refunds.amount}), 0)::int`,
      platform: sql<number>`coalesce(sum(${refunds.platformAmount}), 0)::int`,
    })
    .from(refunds)
    .where(
      and(
        eq(refunds.tenantId, tenantId),
        eq(refunds.orderId, orderId),
        inArray(refunds.status, [...LIVE_REFUND_STATUSES]),
        ne(refunds.kind, NOT_ORDER_MONEY),
      ),
    );
  return { amount: Number(row?.amount ?? 0), platform: Number(row?.platform ?? 0) };
}

export async function insertRefund(tx: DbOrTx, row: Omit<typeof refunds.$inferInsert, 'id'> & { id?: string }): Promise<RefundRow> {
  const [inserted] = await tx
    .insert(refunds)
    .values({ ...row, id: row.id ?? randomUUID() })
    .returning();
  return inserted!;
}

/** The system's refund of one whole charge (late or duplicate payment), if it was already written. */
export async function findChargeRefund(db: DbOrTx, tenantId: string, orderId: string, chargeId: string, kind: string): Promise<RefundRow | null> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId), eq(refunds.chargeId, chargeId), eq(refunds.kind, kind)));
  return row ?? null;
}

export async function findRefund(db: DbOrTx, refundId: string): Promise<RefundRow | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, refundId));
  return row ?? null;
}

export async function findRefundByProviderId(db: DbOrTx, provider: string, providerRefundId: string): Promise<RefundRow | null> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.provider, provider), eq(refunds.providerRefundId, providerRefundId)));
  return row ?? null;
}

export async function lockRefund(tx: DbOrTx, tenantId: string, refundId: string): Promise<RefundRow | null> {
  const [row] = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.id, refundId)))
    .for('update');
  return row ?? null;
}

export async function updateRefund(
  tx: DbOrTx,
  tenantId: string,
  refundId: string,
  set: Partial<Pick<RefundRow, 'status' | 'providerRefundId' | 'failureReason'>>,
) {
  await tx
    .update(refunds)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.id, refundId)));
}

/**
 * orders.refunded_amount is the sum of the order's succeeded refunds (its own payment's), and
 * refunded says some money went back: both recomputed from the rows, never added to.
 */
export async function syncOrderRefunded(tx: DbOrTx, tenantId: string, orderId: string) {
  const given = sql`(select coalesce(sum(r.amount), 0)::int from refunds r
    where r.tenant_id = ${tenantId} and r.order_id = ${orderId} and r.status = 'succeeded' and r.kind <> ${NOT_ORDER_MONEY})`;
  await tx
    .update(orders)
    .set({ refundedAmount: given, refunded: sql`${given} > 0`, updatedAt: new Date() })
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
}
