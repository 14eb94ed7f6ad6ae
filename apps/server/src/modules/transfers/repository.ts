import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { checkinScans, eventTransferSettings, orderActions, orders, refunds, tickets, ticketTransfers, users } from '../../db/schema/index.js';

// Ticket transfers' SQL (issue 24). Every query filters on the tenant (architecture rule 1).

export type TicketRow = typeof tickets.$inferSelect;
export type TransferRow = typeof ticketTransfers.$inferSelect;

/**
 * The order's ticket, locked: only a holder of the order's lock calls this (the one lock order:
 * the order, then its tickets; docs/architecture.md "Lock order").
 */
export async function lockTicketOfOrder(tx: DbOrTx, tenantId: string, orderId: string, ticketId: string): Promise<TicketRow | null> {
  const [row] = await tx
    .select()
    .from(tickets)
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId), eq(tickets.id, ticketId)))
    .for('update');
  return row ?? null;
}

/** Whether a live refund (asked for or given) voided the ticket: a refunded ticket, not merely a voided one. */
export async function isRefunded(db: DbOrTx, tenantId: string, orderId: string, ticketId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId), inArray(refunds.status, ['pending', 'succeeded']), sql`${ticketId}::uuid = any(${refunds.ticketIds})`))
    .limit(1);
  return !!row;
}

export async function transfersOfTicket(db: DbOrTx, tenantId: string, ticketId: string): Promise<TransferRow[]> {
  return db
    .select()
    .from(ticketTransfers)
    .where(and(eq(ticketTransfers.tenantId, tenantId), eq(ticketTransfers.ticketId, ticketId)))
    .orderBy(asc(ticketTransfers.createdAt));
}

/** Gives the ticket its new holder and Ticket ID (so its old signed code names no ticket any more). */
export async function moveTicket(tx: DbOrTx, t: { tenantId: string; ticketId: string; ticketUid: string; fullName: string; email: string }) {
  await tx
    .update(tickets)
    .set({ ticketUid: t.ticketUid, fullName: t.fullName, email: t.email })
    .where(and(eq(tickets.tenantId, t.tenantId), eq(tickets.id, t.ticketId)));
}

export async function insertTransfer(tx: DbOrTx, row: Omit<typeof ticketTransfers.$inferInsert, 'id'>): Promise<TransferRow> {
  const [inserted] = await tx
    .insert(ticketTransfers)
    .values({ ...row, id: randomUUID() })
    .returning();
  return inserted!;
}

/** The transfer a holder's link opens, with its ticket as it is now. */
export async function findByLink(db: DbOrTx, tenantId: string, linkHash: string) {
  const [row] = await db
    .select({ transfer: ticketTransfers, ticket: tickets })
    .from(ticketTransfers)
    .innerJoin(tickets, and(eq(tickets.tenantId, ticketTransfers.tenantId), eq(tickets.id, ticketTransfers.ticketId)))
    .where(and(eq(ticketTransfers.tenantId, tenantId), eq(ticketTransfers.linkHash, linkHash)));
  return row ?? null;
}

export async function findOrderOfEvent(db: DbOrTx, tenantId: string, eventId: string, orderUid: string) {
  const [row] = await db
    .select({ id: orders.id, orderUid: orders.orderUid, firstName: orders.firstName, lastName: orders.lastName, email: orders.email })
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.eventId, eventId), eq(orders.orderUid, orderUid)));
  return row ?? null;
}

export async function ticketsOfOrder(db: DbOrTx, tenantId: string, orderId: string): Promise<TicketRow[]> {
  return db
    .select()
    .from(tickets)
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId)))
    .orderBy(asc(tickets.createdAt), asc(tickets.ticketTypeName), asc(tickets.id));
}

export async function transfersOfOrder(db: DbOrTx, tenantId: string, orderId: string): Promise<TransferRow[]> {
  return db
    .select()
    .from(ticketTransfers)
    .where(and(eq(ticketTransfers.tenantId, tenantId), eq(ticketTransfers.orderId, orderId)))
    .orderBy(asc(ticketTransfers.createdAt));
}

/** The order's per-ticket actions (void, unvoid) with who took them. */
export async function ticketActionsOfOrder(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select({
      ticketId: orderActions.ticketId,
      action: orderActions.action,
      reason: orderActions.reason,
      details: orderActions.details,
      at: orderActions.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
      email: orderActions.userEmail,
    })
    .from(orderActions)
    .leftJoin(users, eq(users.id, orderActions.userId))
    .where(and(eq(orderActions.tenantId, tenantId), eq(orderActions.orderId, orderId), inArray(orderActions.action, ['void', 'unvoid'])))
    .orderBy(asc(orderActions.createdAt));
}

/** Admissions and undos of the order's tickets at the door. */
export async function doorScansOfTickets(db: DbOrTx, tenantId: string, ticketIds: string[]) {
  if (ticketIds.length === 0) return [];
  return db
    .select({
      ticketId: checkinScans.ticketId,
      kind: checkinScans.kind,
      result: checkinScans.result,
      deviceId: checkinScans.deviceId,
      at: checkinScans.scannedAt,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(checkinScans)
    .leftJoin(users, eq(users.id, checkinScans.userId))
    .where(
      and(
        eq(checkinScans.tenantId, tenantId),
        inArray(checkinScans.ticketId, ticketIds),
        sql`((${checkinScans.kind} = 'admit' and ${checkinScans.result} = 'admitted') or ${checkinScans.kind} = 'undo')`,
      ),
    )
    .orderBy(asc(checkinScans.scannedAt));
}

export async function findSettings(db: DbOrTx, tenantId: string, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ allowed: eventTransferSettings.allowed })
    .from(eventTransferSettings)
    .where(and(eq(eventTransferSettings.tenantId, tenantId), eq(eventTransferSettings.eventId, eventId)));
  return row?.allowed ?? true;
}

export async function saveSettings(db: DbOrTx, s: { tenantId: string; eventId: string; allowed: boolean; userId: string }) {
  await db
    .insert(eventTransferSettings)
    .values({ tenantId: s.tenantId, eventId: s.eventId, allowed: s.allowed, updatedBy: s.userId, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: [eventTransferSettings.tenantId, eventTransferSettings.eventId],
      set: { allowed: s.allowed, updatedBy: s.userId, updatedAt: new Date() },
    });
}
