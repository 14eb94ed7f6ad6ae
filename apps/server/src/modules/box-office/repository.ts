import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { orderLines, orders } from '../../db/schema/index.js';
import type { OrderInsert } from '../orders/repository.js';

// The box office's SQL (issue 23, docs/box-office.md). Its inventory step is the website's:
// mq_take_holds (src/db/functions/mq-take-holds.sql), called inside the sale's transaction.

export type OrderRow = typeof orders.$inferSelect;

/** One order for mq_take_holds, as checkout/repository.ts holdItem builds it for the website. */
export type TakeItem = {
  order: { tenant_id: string; id: string; event_id: string; charity_id: null; waiting_room_visitor_id: null };
  lines: Array<{ id: string; qty: number; price: number; name: string }>;
  discountCodeId: string | null;
  admissionOrders: null;
};

/**
 * Takes the order's tickets, its discount code use and the event's capacity, under the one lock
 * order (ticket types, discount codes, the event: each FOR UPDATE until the transaction ends). The
 * verdict is mq_take_holds's ('ok', or why not).
 */
export async function takeTickets(tx: DbOrTx, item: TakeItem): Promise<string> {
  const res = (await tx.execute(sql`select mq_take_holds(${JSON.stringify([item])}::jsonb) as v`)) as unknown as { rows: Array<{ v: unknown }> };
  const v = res.rows[0]?.v;
  const verdicts = Array.isArray(v) ? (v as string[]) : parsePgArray(String(v));
  return verdicts[0] ?? 'changed';
}

/** A text[] as node-postgres may hand it over unparsed ('{ok}'); the verdicts' JSON is quoted. */
function parsePgArray(text: string): string[] {
  const inner = text.replace(/^\{|\}$/g, '');
  if (!inner) return [];
  if (!inner.startsWith('"')) return inner.split(',');
  return [JSON.parse(inner.replace(/\\\\/g, '\\')) as string];
}

/**
 * The sale's idempotency key, locked until the transaction ends (a transaction-level advisory lock
 * on the tenant and key): two sales with one key run one after the other. First in the lock order.
 */
export async function lockSaleKey(tx: DbOrTx, tenantId: string, key: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`box-office:${tenantId}:${key}`}, 0))`);
}

/** Complimentary tickets the event has given out: its comp orders that were not cancelled (read under the event's lock). */
export async function complimentaryTicketsOf(tx: DbOrTx, tenantId: string, eventId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${orders.ticketCount}), 0)::int` })
    .from(orders)
    .where(
      and(
        eq(orders.tenantId, tenantId),
        eq(orders.eventId, eventId),
        eq(orders.paymentMethod, 'complimentary'),
        inArray(orders.status, ['processing', 'completed']),
      ),
    );
  return Number(row?.n ?? 0);
}

export async function insertSaleOrder(tx: DbOrTx, order: OrderInsert, lines: Array<{ ticketTypeId: string; ticketName: string; unitPrice: number; quantity: number }>) {
  await tx.insert(orders).values(order);
  await tx.insert(orderLines).values(lines.map((l) => ({ tenantId: order.tenantId, orderId: order.id!, ...l })));
}

export async function findOrderByKey(db: DbOrTx, tenantId: string, key: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}

export async function findOrder(db: DbOrTx, tenantId: string, orderId: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId))).limit(1);
  return row ?? null;
}
