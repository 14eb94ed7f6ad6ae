import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, orders, tenants, tickets } from '../../db/schema/index.js';

/** Orders that were paid for (spec: reports §4 order status processing and completed). */
export const PAID_ORDER_STATUSES = ['processing', 'completed'];

const total = (expr: unknown) => sql<string>`coalesce(sum(${expr}), 0)::bigint`;

/**
 * Platform-wide sales. Orders of deleted tenants still count: deleting a tenant keeps its sales
 * history (spec: accounts §4).
 */
export async function salesTotals(db: DbOrTx) {
  const [row] = await db
    .select({
      gross: total(orders.totalAmount),
      serviceFees: total(orders.surcharge),
      processingFees: total(orders.processingFee),
      taxes: total(orders.vat),
      donations: total(orders.donation),
      discounts: total(orders.discount),
      refunds: total(orders.refundedAmount),
      tenantTotal: total(orders.tenantTotal),
      attendees: sql<string>`count(distinct lower(${orders.email})) filter (where ${orders.email} <> '')`,
    })
    .from(orders)
    .where(inArray(orders.status, PAID_ORDER_STATUSES));
  const [ticketRow] = await db
    .select({
      sold: sql<string>`count(*) filter (where ${tickets.price} > 0)`,
      complimentary: sql<string>`count(*) filter (where ${tickets.price} = 0)`,
    })
    .from(tickets)
    .innerJoin(orders, and(eq(orders.tenantId, tickets.tenantId), eq(orders.id, tickets.orderId)))
    .where(and(eq(tickets.voided, false), inArray(orders.status, PAID_ORDER_STATUSES)));
  return { ...row!, ...ticketRow! };
}

export async function liveTenantCount(db: DbOrTx) {
  const [row] = await db.select({ n: count() }).from(tenants).where(isNull(tenants.deletedAt));
  return row?.n ?? 0;
}

/** Published events of tenants that still exist. */
export async function publishedEventCount(db: DbOrTx) {
  const [row] = await db
    .select({ n: count() })
    .from(events)
    .innerJoin(tenants, eq(tenants.id, events.tenantId))
    .where(and(eq(events.status, 'published'), isNull(tenants.deletedAt)));
  return row?.n ?? 0;
}
