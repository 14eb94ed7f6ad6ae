import { and, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { discountCodes } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

export type DiscountCodeRow = typeof discountCodes.$inferSelect;
export type DiscountCodeInsert = typeof discountCodes.$inferInsert;

export const DISCOUNT_CODE_LIST: ListSpec = {
  fields: {
    'details.code': { expr: discountCodes.code, type: 'text', match: 'contains' },
    'details.kind': { expr: discountCodes.kind, type: 'text' },
    'details.active': { expr: discountCodes.active, type: 'boolean' },
    'details.dateCreated': { expr: discountCodes.createdAt, type: 'timestamp' },
  },
  id: discountCodes.id,
  defaultSort: 'details.dateCreated',
};

const ofEvent = (tenantId: string, eventId: string) => and(eq(discountCodes.tenantId, tenantId), eq(discountCodes.eventId, eventId));

export async function listDiscountCodes(db: DbOrTx, tenantId: string, eventId: string, q: CompiledList) {
  const rows = await db
    .select({ row: discountCodes, _sort: q.sortKey, _id: q.idKey })
    .from(discountCodes)
    .where(and(ofEvent(tenantId, eventId), q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(discountCodes).where(and(ofEvent(tenantId, eventId), q.where));
  return { rows, total: total?.n ?? 0 };
}

export async function findDiscountCode(db: DbOrTx, tenantId: string, eventId: string, id: string): Promise<DiscountCodeRow | undefined> {
  const [row] = await db.select().from(discountCodes).where(and(ofEvent(tenantId, eventId), eq(discountCodes.id, id)));
  return row;
}

/** By the code as typed (codes are stored upper-case). */
export async function findByCode(db: DbOrTx, tenantId: string, eventId: string, code: string): Promise<DiscountCodeRow | undefined> {
  const [row] = await db.select().from(discountCodes).where(and(ofEvent(tenantId, eventId), eq(discountCodes.code, code.toUpperCase())));
  return row;
}

export async function insertDiscountCode(db: DbOrTx, values: DiscountCodeInsert): Promise<DiscountCodeRow> {
  const [row] = await db.insert(discountCodes).values(values).returning();
  return row!;
}

export async function updateDiscountCode(db: DbOrTx, tenantId: string, eventId: string, id: string, set: Partial<DiscountCodeInsert>) {
  const [row] = await db.update(discountCodes).set(set).where(and(ofEvent(tenantId, eventId), eq(discountCodes.id, id))).returning();
  return row;
}

export async function deleteDiscountCode(db: DbOrTx, tenantId: string, eventId: string, id: string): Promise<boolean> {
  const rows = await db.delete(discountCodes).where(and(ofEvent(tenantId, eventId), eq(discountCodes.id, id))).returning({ id: discountCodes.id });
  return rows.length > 0;
}

/** Counts a use for a payment already made at that price: it keeps its discount, the count stops at the limit. */
export async function forceUse(db: DbOrTx, tenantId: string, id: string) {
  await db
    .update(discountCodes)
    .set({ usedCount: sql`least(${discountCodes.usedCount} + 1, coalesce(${discountCodes.usageLimit}, ${discountCodes.usedCount} + 1))` })
    .where(and(eq(discountCodes.tenantId, tenantId), eq(discountCodes.id, id)));
}

export async function releaseUse(db: DbOrTx, tenantId: string, id: string) {
  await db
    .update(discountCodes)
    .set({ usedCount: sql`greatest(${discountCodes.usedCount} - 1, 0)` })
    .where(and(eq(discountCodes.tenantId, tenantId), eq(discountCodes.id, id)));
}
