import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, eventTransferSettings, orderActions, orderLines, orderLinks, orders, refunds, subscribers, tenants, tickets, ticketTransfers } from '../../db/schema/index.js';

export type OrderRow = typeof orders.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type LineRow = typeof orderLines.$inferSelect;

export async function findOrder(db: DbOrTx, tenantId: string, orderId: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
  return row ?? null;
}

export async function findOrderOfEvent(db: DbOrTx, tenantId: string, eventId: string, orderUid: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.eventId, eventId), eq(orders.orderUid, orderUid)));
  return row ?? null;
}

export async function findEvent(db: DbOrTx, tenantId: string, eventId: string) {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row ?? null;
}

export async function linesOf(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.tenantId, tenantId), eq(orderLines.orderId, orderId)))
    .orderBy(asc(orderLines.ticketName), asc(orderLines.ticketTypeId));
}

export async function ticketsOf(db: DbOrTx, tenantId: string, orderId: string): Promise<TicketRow[]> {
  return db
    .select()
    .from(tickets)
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId)))
    .orderBy(asc(tickets.createdAt), asc(tickets.ticketTypeName), asc(tickets.ticketUid));
}

export async function insertTickets(tx: DbOrTx, rows: Array<Omit<typeof tickets.$inferInsert, 'id'> & { id?: string }>) {
  if (rows.length === 0) return;
  await tx.insert(tickets).values(rows.map((r) => ({ ...r, id: r.id ?? randomUUID() })));
}

/** processing -> completed; false when another run already completed it. */
export async function completeOrder(tx: DbOrTx, tenantId: string, orderId: string): Promise<boolean> {
  const rows = await tx
    .update(orders)
    .set({ status: 'completed', updatedAt: new Date() })
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId), eq(orders.status, 'processing')))
    .returning({ id: orders.id });
  return rows.length === 1;
}

/**
 * The buyer's opt-ins of one order, per event and address (issue 21: e-mail news, text messages or
 * both). A later order adds to what an earlier one opted in to, never takes it away, and its mobile
 * number is the one texts go to.
 */
export async function addSubscriber(tx: DbOrTx, s: { tenantId: string; eventId: string; email: string; optInEmail: boolean; optInText: boolean; phone: string | null }) {
  const phone = s.optInText ? s.phone : null;
  await tx
    .insert(subscribers)
    .values({ tenantId: s.tenantId, id: randomUUID(), eventId: s.eventId, email: s.email.toLowerCase(), optInEmail: s.optInEmail, optInText: s.optInText, phone })
    .onConflictDoUpdate({
      target: [subscribers.tenantId, subscribers.eventId, subscribers.email],
      set: {
        optInEmail: sql`${subscribers.optInEmail} or excluded.opt_in_email`,
        optInText: sql`${subscribers.optInText} or excluded.opt_in_text`,
        phone: sql`coalesce(excluded.phone, ${subscribers.phone})`,
      },
    });
}

/** Paid orders still not completed since `before`: their fulfilment job died or gave up. */
export async function stuckProcessingOrders(db: DbOrTx, before: Date, limit: number) {
  return db
    .select({ tenantId: orders.tenantId, id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, 'processing'), lt(sql`coalesce(${orders.paidAt}, ${orders.updatedAt})`, before)))
    .orderBy(asc(orders.updatedAt))
    .limit(limit);
}

export async function findTenant(db: DbOrTx, tenantId: string) {
  const [row] = await db.select({ name: tenants.name, url: tenants.url, logoKey: tenants.logoKey, brandColor: tenants.brandColor }).from(tenants).where(eq(tenants.id, tenantId));
  return row ?? null;
}

export async function insertOrderLink(tx: DbOrTx, link: { tenantId: string; orderId: string; tokenHash: string }) {
  await tx.insert(orderLinks).values(link);
}

/** The order a link opens, on this tenant's host only. */
export async function findOrderByLink(db: DbOrTx, tenantId: string, tokenHash: string): Promise<OrderRow | null> {
  const [row] = await db
    .select({ order: orders })
    .from(orderLinks)
    .innerJoin(orders, and(eq(orders.tenantId, orderLinks.tenantId), eq(orders.id, orderLinks.orderId)))
    .where(and(eq(orderLinks.tenantId, tenantId), eq(orderLinks.tokenHash, tokenHash)));
  return row?.order ?? null;
}

/** The paid orders bought with this address from this tenant, newest first. */
export async function paidOrdersOf(db: DbOrTx, tenantId: string, email: string, limit: number) {
  return db
    .select({ order: orders, eventName: events.name, startDateTime: events.startDateTime, timeZone: events.timeZone })
    .from(orders)
    .innerJoin(events, and(eq(events.tenantId, orders.tenantId), eq(events.id, orders.eventId)))
    .where(and(eq(orders.tenantId, tenantId), sql`lower(${orders.email}) = ${email.toLowerCase()}`, inArray(orders.status, ['processing', 'completed'])))
    .orderBy(desc(orders.createdAt))
    .limit(limit);
}

/**
 * When members of the tenant resent tickets since `since` (order_actions 'resend' rows with a user;
 * the buyer's own resends from the order link have their own limits), oldest first: of one order,
 * or by one member.
 */
export async function staffResendsSince(db: DbOrTx, tenantId: string, by: { orderId: string } | { userId: string }, since: Date): Promise<Date[]> {
  const rows = await db
    .select({ at: orderActions.createdAt })
    .from(orderActions)
    .where(
      and(
        eq(orderActions.tenantId, tenantId),
        'orderId' in by ? eq(orderActions.orderId, by.orderId) : eq(orderActions.userId, by.userId),
        eq(orderActions.action, 'resend'),
        sql`${orderActions.userId} is not null`,
        sql`${orderActions.createdAt} > ${since.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(orderActions.createdAt));
  return rows.map((r) => r.at);
}

/**
 * The money an order gave back or is giving back, newest first (issue 21.6, the buyer's order page):
 * failed refunds gave nothing back, and a duplicate payment's refund is of a second charge, not of
 * the order (docs/decisions.md "Refunds: who gives the money back").
 */
export async function buyerRefundsOf(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select({ id: refunds.id, amount: refunds.amount, status: refunds.status, ticketIds: refunds.ticketIds, createdAt: refunds.createdAt })
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId), inArray(refunds.status, ['pending', 'succeeded']), ne(refunds.kind, 'duplicate_payment')))
    .orderBy(desc(refunds.createdAt), desc(refunds.id));
}

export async function findRefundOf(db: DbOrTx, tenantId: string, orderId: string, refundId: string) {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId), eq(refunds.id, refundId)));
  return row ?? null;
}

/**
 * Where the order's tickets went (issue 24): each transferred ticket's first transfer, the one out of
 * the buyer's hands. The transfers module writes the table; the order's pages read it here.
 */
export async function transfersOfOrder(db: DbOrTx, tenantId: string, orderId: string): Promise<Map<string, { toName: string; toEmail: string; at: Date }>> {
  const rows = await db
    .select({ ticketId: ticketTransfers.ticketId, toName: ticketTransfers.toName, toEmail: ticketTransfers.toEmail, at: ticketTransfers.createdAt })
    .from(ticketTransfers)
    .where(and(eq(ticketTransfers.tenantId, tenantId), eq(ticketTransfers.orderId, orderId)))
    .orderBy(desc(ticketTransfers.createdAt));
  // Oldest last, so the first transfer of each ticket wins.
  return new Map(rows.map((r) => [r.ticketId, { toName: r.toName, toEmail: r.toEmail, at: r.at }]));
}

/** The event's transfer setting (issue 24): allowed unless the organiser switched it off. */
export async function transfersAllowed(db: DbOrTx, tenantId: string, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ allowed: eventTransferSettings.allowed })
    .from(eventTransferSettings)
    .where(and(eq(eventTransferSettings.tenantId, tenantId), eq(eventTransferSettings.eventId, eventId)));
  return row?.allowed ?? true;
}
