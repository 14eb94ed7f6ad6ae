import { and, count, eq, isNull, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { apiKeys, users } from '../../db/schema/index.js';
import { compileList, type ListSpec } from '../../platform/list-query.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
/** A tenant's keys, or (null) the platform's. */
export type KeyOwner = string | null;

const ownerIs = (tenantId: KeyOwner): SQL => (tenantId ? eq(apiKeys.tenantId, tenantId) : isNull(apiKeys.tenantId));

const LIST: ListSpec = {
  fields: {
    'details.name': { expr: apiKeys.name, type: 'text', match: 'contains' },
    'details.dateCreated': { expr: apiKeys.createdAt, type: 'timestamp' },
  },
  id: apiKeys.id,
  defaultSort: '-details.dateCreated',
};

export async function listKeys(db: DbOrTx, tenantId: KeyOwner, query: unknown) {
  const q = compileList(LIST, query);
  const where = and(ownerIs(tenantId), q.where);
  const rows = await db
    .select({ key: apiKeys, createdBy: users.email, _sort: q.sortKey, _id: q.idKey })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(and(ownerIs(tenantId), q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(apiKeys).where(where);
  return { q, rows, total: total?.n ?? 0 };
}

export async function insertKey(tx: DbOrTx, row: typeof apiKeys.$inferInsert) {
  const [created] = await tx.insert(apiKeys).values(row).returning();
  return created!;
}

/** The key, locked, if it is this owner's. */
export async function lockKey(tx: DbOrTx, tenantId: KeyOwner, keyId: string): Promise<ApiKeyRow | null> {
  const [row] = await tx.select().from(apiKeys).where(and(ownerIs(tenantId), eq(apiKeys.id, keyId))).for('update');
  return row ?? null;
}

export async function revokeKey(tx: DbOrTx, keyId: string): Promise<ApiKeyRow> {
  const [row] = await tx.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId)).returning();
  return row!;
}

export async function creatorEmail(db: DbOrTx, userId: string): Promise<string | null> {
  const [u] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return u?.email ?? null;
}
