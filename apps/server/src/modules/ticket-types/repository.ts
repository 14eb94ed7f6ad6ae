import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { discountCodes, orderLines, orders, tickets, ticketTypes } from '../../db/schema/index.js';
import { PAID_ORDER_STATUSES } from '@marquee/core';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

export type TicketTypeRow = typeof ticketTypes.$inferSelect;
export type TicketTypeInsert = typeof ticketTypes.$inferInsert;

export const TICKET_TYPE_LIST: ListSpec = {
  fields: {
    'details.name': { expr: ticketTypes.name, type: 'text', match: 'contains' },
    'details.sortOrder': { expr: ticketTypes.sortOrder, type: 'number' },
    'details.price': { expr: ticketTypes.price, type: 'number' },
    'details.active': { expr: ticketTypes.active, type: 'boolean' },
    'details.dateCreated': { expr: ticketTypes.createdAt, type: 'timestamp' },
  },
  id: ticketTypes.id,
  defaultSort: 'details.sortOrder',
};

const ofEvent = (tenantId: string, eventId: string) => and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId));

export async function listTicketTypes(db: DbOrTx, tenantId: string, eventId: string, q: CompiledList) {
  const rows = await db
    .select({ row: ticketTypes, _sort: q.sortKey, _id: q.idKey })
    .from(ticketTypes)
    .where(and(ofEvent(tenantId, eventId), q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(ticketTypes).where(and(ofEvent(tenantId, eventId), q.where));
  return { rows, total: total?.n ?? 0 };
}

/** Every ticket type of an event, in menu order. */
export async function allOfEvent(db: DbOrTx, tenantId: string, eventId: string): Promise<TicketTypeRow[]> {
  return db
    .select()
    .from(ticketTypes)
    .where(ofEvent(tenantId, eventId))
    .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.createdAt), asc(ticketTypes.id));
}

/** With `lock`, the row stays locked (FOR UPDATE) to the end of the caller's transaction. */
export async function findTicketType(db: DbOrTx, tenantId: string, eventId: string, id: string, lock = false): Promise<TicketTypeRow | undefined> {
  const query = db.select().from(ticketTypes).where(and(ofEvent(tenantId, eventId), eq(ticketTypes.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/**
 * Which of these ids are ticket types of the event, each key-share locked (what a foreign key
 * takes) in id order to the end of the caller's transaction: none of them can be deleted until it
 * commits, while sales go on.
 */
export async function lockReferenced(db: DbOrTx, tenantId: string, eventId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .where(and(ofEvent(tenantId, eventId), inArray(ticketTypes.id, [...new Set(ids)])))
    .orderBy(asc(ticketTypes.id))
    .for('key share');
  return new Set(rows.map((r) => r.id));
}

export async function insertTicketType(db: DbOrTx, values: TicketTypeInsert): Promise<TicketTypeRow> {
  const [row] = await db.insert(ticketTypes).values(values).returning();
  return row!;
}

/**
 * Writes the changes; a new quantity moves remaining by the same delta and is refused (undefined)
 * when it would fall below what is already sold or held, checked in the same statement.
 */
export async function updateTicketType(
  db: DbOrTx,
  tenantId: string,
  eventId: string,
  id: string,
  set: Partial<TicketTypeInsert>,
): Promise<TicketTypeRow | undefined> {
  const { quantity, ...rest } = set;
  const changes: Record<string, unknown> = { ...rest, updatedAt: new Date() };
  let guard = sql`true`;
  if (quantity !== undefined) {
    changes.quantity = quantity;
    changes.remaining = sql`${ticketTypes.remaining} + (${quantity}::int - ${ticketTypes.quantity})`;
    guard = sql`${ticketTypes.quantity} - ${ticketTypes.remaining} <= ${quantity}::int`;
  }
  const [row] = await db
    .update(ticketTypes)
    .set(changes)
    .where(and(ofEvent(tenantId, eventId), eq(ticketTypes.id, id), guard))
    .returning();
  return row;
}

/** Deletes a ticket type that never sold or held a ticket; false otherwise. */
export async function deleteUnsoldTicketType(db: DbOrTx, tenantId: string, eventId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(ticketTypes)
    .where(
      and(
        ofEvent(tenantId, eventId),
        eq(ticketTypes.id, id),
        sql`${ticketTypes.quantity} = ${ticketTypes.remaining}`,
        sql`not exists (select 1 from ${orderLines} where ${orderLines.tenantId} = ${tenantId} and ${orderLines.ticketTypeId} = ${id})`,
      ),
    )
    .returning({ id: ticketTypes.id });
  return rows.length > 0;
}

/** Other ticket types of the event that link to this one (SALES_AVAILABILITY_OPT_3). */
export async function countLinksTo(db: DbOrTx, tenantId: string, eventId: string, id: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(ticketTypes)
    .where(and(ofEvent(tenantId, eventId), eq(ticketTypes.otherTicketTypeId, id)));
  return row?.n ?? 0;
}

/** Valid tickets of paid orders per ticket type of an event (core soldAndHeld's paidTickets). */
export async function paidTicketsByType(db: DbOrTx, tenantId: string, eventId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ ticketTypeId: tickets.ticketTypeId, n: count() })
    .from(tickets)
    .innerJoin(orders, and(eq(orders.tenantId, tickets.tenantId), eq(orders.id, tickets.orderId)))
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.eventId, eventId), eq(tickets.voided, false), inArray(orders.status, [...PAID_ORDER_STATUSES])))
    .groupBy(tickets.ticketTypeId);
  return new Map(rows.map((r) => [r.ticketTypeId, Number(r.n)]));
}

/**
 * The event's discount codes that apply to this ticket type by name (an empty list, "every ticket
 * type", names none), A to Z: a ticket type they name cannot be deleted. Read here, below the
 * discounts module, which imports ticket types and not the other way round.
 */
export async function discountCodesNaming(db: DbOrTx, tenantId: string, eventId: string, ticketTypeId: string): Promise<string[]> {
  const rows = await db
    .select({ code: discountCodes.code })
    .from(discountCodes)
    .where(and(eq(discountCodes.tenantId, tenantId), eq(discountCodes.eventId, eventId), sql`${ticketTypeId}::uuid = any(${discountCodes.ticketTypeIds})`))
    .orderBy(asc(discountCodes.code));
  return rows.map((r) => r.code);
}
