import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, orderActions, orders, refunds, tenants, tickets, users } from '../../db/schema/index.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { LIVE_REFUND_STATUSES } from '../payments/refunds-repository.js';

export type OrderRow = typeof orders.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
export type OrderActionRow = typeof orderActions.$inferSelect;
export { NOT_ORDER_MONEY } from '@marquee/core';
export {
  LIVE_REFUND_STATUSES,
  findChargeRefund,
  findRefund,
  findRefundByProviderId,
  insertRefund,
  liveRefundTotals,
  lockRefund,
  syncOrderRefunded,
  updateRefund,
  type RefundRow,
} from '../payments/refunds-repository.js';
export { cancelRefundJobKey, cancellationStateOf, type CancellationStateRow } from '../events/cancellation-repository.js';

/** Statuses of an order that was paid for (spec §4 Order status: processing and completed). */
export const PAID_STATUSES = ['processing', 'completed'] as const;
export async function findOrderOfEvent(db: DbOrTx, tenantId: string, eventId: string, orderUid: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.eventId, eventId), eq(orders.orderUid, orderUid)));
  return row ?? null;
}

export async function findEventName(db: DbOrTx, tenantId: string, eventId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: events.name })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row?.name ?? null;
}

export async function findEventStatus(db: DbOrTx, tenantId: string, eventId: string): Promise<string | null> {
  const [row] = await db
    .select({ status: events.status })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row?.status ?? null;
}

export async function ticketsOf(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select({ ticket: tickets, voidedByEmail: users.email })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.voidedBy))
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId)))
    .orderBy(asc(tickets.createdAt), asc(tickets.ticketTypeName), asc(tickets.ticketUid));
}

/**
 * The ticket by its uuid (the order page) or by the Ticket ID printed on it (the Ticket List's
 * details.ticketId): spec §7 void names only "ticketId", and both screens send theirs.
 */
export async function lockTicket(tx: DbOrTx, tenantId: string, orderId: string, ticketId: string): Promise<TicketRow | null> {
  const byId = UUID_RE.test(ticketId) ? eq(tickets.id, ticketId) : eq(tickets.ticketUid, ticketId);
  const [row] = await tx
    .select()
    .from(tickets)
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId), byId))
    .for('update');
  return row ?? null;
}

export async function setTicketVoid(
  tx: DbOrTx,
  t: { tenantId: string; ticketIds: string[]; voided: boolean; reason: string; userId: string | null },
) {
  if (t.ticketIds.length === 0) return;
  await tx
    .update(tickets)
    .set({ voided: t.voided, voidReason: t.reason, voidedAt: new Date(), voidedBy: t.userId })
    .where(and(eq(tickets.tenantId, t.tenantId), inArray(tickets.id, t.ticketIds)));
}

export async function refundsOf(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select({ refund: refunds, createdByEmail: users.email })
    .from(refunds)
    .leftJoin(users, eq(users.id, refunds.createdBy))
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId)))
    .orderBy(desc(refunds.createdAt), desc(refunds.id));
}

/** What the order's own payment has given back or is giving back: the sum and the platform's part. */
/** Tickets a live refund voided: they stay voided (the money for them went back). */
export async function refundedTicketIds(db: DbOrTx, tenantId: string, orderId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: refunds.id, ticketIds: refunds.ticketIds })
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId), inArray(refunds.status, [...LIVE_REFUND_STATUSES])));
  const out = new Map<string, string>();
  for (const r of rows) for (const t of r.ticketIds) out.set(t, r.id);
  return out;
}

export async function insertAction(
  tx: DbOrTx,
  a: { tenantId: string; orderId: string; ticketId?: string | null; action: string; reason?: string; userId: string | null; userEmail: string | null; details?: unknown },
) {
  await tx.insert(orderActions).values({
    tenantId: a.tenantId,
    id: randomUUID(),
    orderId: a.orderId,
    ticketId: a.ticketId ?? null,
    action: a.action,
    reason: a.reason ?? '',
    userId: a.userId,
    userEmail: a.userEmail,
    details: a.details === undefined ? null : JSON.stringify(a.details),
  });
}

export async function actionsOf(db: DbOrTx, tenantId: string, orderId: string): Promise<OrderActionRow[]> {
  return db
    .select()
    .from(orderActions)
    .where(and(eq(orderActions.tenantId, tenantId), eq(orderActions.orderId, orderId)))
    .orderBy(desc(orderActions.createdAt), desc(orderActions.id));
}

// ---- event cancellation ----------------------------------------------------------------------

/** Paid orders of an event that took money (free orders have nothing to give back), by id after `afterId`. */
export async function paidOrderIds(db: DbOrTx, tenantId: string, eventId: string, afterId: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.tenantId, tenantId),
        eq(orders.eventId, eventId),
        inArray(orders.status, [...PAID_STATUSES]),
        sql`${orders.totalAmount} > 0`,
        // Through the gateway (a charge), or at the box office in cash or on its terminal (issue 23: owed there).
        or(isNotNull(orders.chargeId), inArray(orders.paymentMethod, ['cash', 'card_terminal'])),
        afterId ? sql`${orders.id} > ${afterId}` : undefined,
      ),
    )
    .orderBy(asc(orders.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Orders of an event that someone paid for or was issued (free ones too) with an address to tell, by id after `afterId`. */
export async function buyerOrderIds(db: DbOrTx, tenantId: string, eventId: string, afterId: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.tenantId, tenantId),
        eq(orders.eventId, eventId),
        inArray(orders.status, [...PAID_STATUSES]),
        sql`${orders.email} <> ''`,
        afterId ? sql`${orders.id} > ${afterId}` : undefined,
      ),
    )
    .orderBy(asc(orders.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** What the cancellation notice needs: the order, its event and the organiser's name and contact. */
export async function cancellationNoticeOf(db: DbOrTx, tenantId: string, orderId: string) {
  const [row] = await db
    .select({ order: orders, eventName: events.name, eventStatus: events.status, startDateTime: events.startDateTime, timeZone: events.timeZone, organiser: tenants.name, contactEmail: tenants.email })
    .from(orders)
    .innerJoin(events, and(eq(events.tenantId, orders.tenantId), eq(events.id, orders.eventId)))
    .innerJoin(tenants, eq(tenants.id, orders.tenantId))
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
  return row ?? null;
}
