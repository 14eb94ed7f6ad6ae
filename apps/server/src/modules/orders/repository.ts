import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, orderLines, orders, ticketTypes } from '../../db/schema/index.js';
import * as discounts from '../discounts/repository.js';

export type OrderRow = typeof orders.$inferSelect;
export type OrderInsert = typeof orders.$inferInsert;
export type OrderLineRow = typeof orderLines.$inferSelect;

// ---- inventory ---------------------------------------------------------------------------------

export type InventoryChange = {
  tenantId: string;
  eventId: string;
  /** Tickets per ticket type: positive takes them from the pool, negative gives them back. */
  deltas: ReadonlyMap<string, number>;
  /** Discount code uses to count whatever the limit ('force': the payment already arrived) or give back. */
  discountUses?: ReadonlyArray<{ id: string; op: 'force' | 'release' }>;
  /** Taking tickets also requires the event to be on sale. */
  requirePublished?: boolean;
};

export type InventoryResult =
  | { ok: true; taken: Map<string, { name: string; price: number; remaining: number }> }
  | { ok: false; reason: 'ticketType'; ticketTypeId: string }
  | { ok: false; reason: 'capacity' };

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Gives held tickets back and takes them again inside a transaction (expiry, a late payment):
 * architecture rule 7. Rows are locked in one fixed order everywhere, ticket types by id, then
 * discount codes by id, then the event (holdOrder below keeps the same order), so concurrent
 * checkouts, expiries and payments queue behind each other instead of deadlocking. Each take is a
 * conditional UPDATE ... WHERE remaining >= n: nothing is read first, so nothing can oversell.
 * A failed take leaves earlier changes in the transaction: the caller must roll it back.
 */
export async function applyInventory(tx: DbOrTx, change: InventoryChange): Promise<InventoryResult> {
  const { tenantId, eventId } = change;
  const taken = new Map<string, { name: string; price: number; remaining: number }>();
  let total = 0;
  for (const id of [...change.deltas.keys()].sort(byId)) {
    const delta = change.deltas.get(id) ?? 0;
    if (delta === 0) continue;
    total += delta;
    const own = and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId), eq(ticketTypes.id, id));
    if (delta > 0) {
      const [row] = await tx
        .update(ticketTypes)
        .set({ remaining: sql`${ticketTypes.remaining} - ${delta}::int` })
        .where(and(own, sql`${ticketTypes.remaining} >= ${delta}::int`))
        .returning({ name: ticketTypes.name, price: ticketTypes.price, remaining: ticketTypes.remaining });
      if (!row) return { ok: false, reason: 'ticketType', ticketTypeId: id };
      taken.set(id, row);
    } else {
      await tx
        .update(ticketTypes)
        .set({ remaining: sql`${ticketTypes.remaining} + ${-delta}::int` })
        .where(own);
    }
  }

  for (const use of [...(change.discountUses ?? [])].sort((a, b) => byId(a.id, b.id))) {
    if (use.op === 'release') await discounts.releaseUse(tx, tenantId, use.id);
    else await discounts.forceUse(tx, tenantId, use.id);
  }

  const ownEvent = and(eq(events.tenantId, tenantId), eq(events.id, eventId));
  if (total > 0) {
    const [row] = await tx
      .update(events)
      .set({ remainingCapacity: sql`${events.remainingCapacity} - ${total}::int` })
      .where(
        and(
          ownEvent,
          sql`(${events.remainingCapacity} is null or ${events.remainingCapacity} >= ${total}::int)`,
          change.requirePublished ? eq(events.status, 'published') : undefined,
        ),
      )
      .returning({ id: events.id });
    if (!row) return { ok: false, reason: 'capacity' };
  } else if (total < 0) {
    await tx
      .update(events)
      .set({ remainingCapacity: sql`${events.remainingCapacity} + ${-total}::int` })
      .where(and(ownEvent, sql`${events.remainingCapacity} is not null`));
  }
  return { ok: true, taken };
}

// ---- orders ------------------------------------------------------------------------------------

export async function findLines(db: DbOrTx, tenantId: string, orderId: string): Promise<OrderLineRow[]> {
  return db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.tenantId, tenantId), eq(orderLines.orderId, orderId)))
    .orderBy(asc(orderLines.ticketTypeId));
}

/** The order row, locked for the rest of the transaction (payments and expiry queue on it). */
/**
 * A tenant's order locked with its event's status, in one statement (a payment's confirmation, issue
 * 26 "mail2"): the order row as locked; eventStatus null when the event is gone.
 */
export async function lockOrderWithEventStatus(tx: DbOrTx, tenantId: string, orderId: string): Promise<{ order: OrderRow; eventStatus: string | null } | null> {
  const [row] = await tx
    .select({ order: orders, eventStatus: events.status })
    .from(orders)
    .leftJoin(events, and(eq(events.tenantId, orders.tenantId), eq(events.id, orders.eventId)))
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)))
    .for('update', { of: orders });
  return row ?? null;
}

export async function lockOrder(tx: DbOrTx, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

/**
 * A tenant's order, locked for the rest of the transaction: refunds, voids and fulfilments of one
 * order queue behind each other (and behind its payment).
 */
export async function lockTenantOrder(tx: DbOrTx, tenantId: string, orderId: string): Promise<OrderRow | null> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)))
    .for('update');
  return row ?? null;
}

export async function findOrderByUid(db: DbOrTx, tenantId: string, orderUid: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.orderUid, orderUid)));
  return row;
}

/**
 * draft -> expired, once: only the caller whose conditional update matched releases the hold.
 * `dueOnly` leaves drafts whose hold has not run out yet.
 */
export async function expireDraft(
  tx: DbOrTx,
  where: { orderId: string } | { tenantId: string; eventId: string; orderUid: string; email: string },
  dueOnly: boolean,
  status: 'expired' | 'replaced' = 'expired',
): Promise<Pick<OrderRow, 'id' | 'tenantId' | 'eventId' | 'discountCodeId' | 'paymentSessionId'> | undefined> {
  const match =
    'orderId' in where
      ? eq(orders.id, where.orderId)
      : and(eq(orders.tenantId, where.tenantId), eq(orders.eventId, where.eventId), eq(orders.orderUid, where.orderUid), eq(orders.email, where.email));
  const [row] = await tx
    .update(orders)
    .set({ status, updatedAt: new Date() })
    .where(and(match, eq(orders.status, 'draft'), dueOnly ? sql`${orders.holdExpiresAt} <= now()` : undefined))
    .returning({ id: orders.id, tenantId: orders.tenantId, eventId: orders.eventId, discountCodeId: orders.discountCodeId, paymentSessionId: orders.paymentSessionId });
  return row;
}

export async function updateOrder(tx: DbOrTx, tenantId: string, orderId: string, set: Partial<OrderInsert>) {
  await tx
    .update(orders)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
}

/** updateOrder, answering the row as it is now (null: no such order). */
export async function updateOrderReturning(tx: DbOrTx, tenantId: string, orderId: string, set: Partial<OrderInsert>): Promise<OrderRow | null> {
  const [row] = await tx
    .update(orders)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)))
    .returning();
  return row ?? null;
}

/** Drafts whose hold ran out more than a minute ago: their expiry job was lost or is failing. */
export async function overdueDrafts(db: DbOrTx, limit: number) {
  return db
    .select({ tenantId: orders.tenantId, id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, 'draft'), sql`${orders.holdExpiresAt} < now() - interval '1 minute'`))
    .orderBy(asc(orders.holdExpiresAt))
    .limit(limit);
}
