import { count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policies } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

export type PolicyRow = typeof policies.$inferSelect;

export const POLICY_LIST: ListSpec = {
  fields: {
    'details.id': { expr: policies.id, type: 'text', match: 'contains' },
    'details.name': { expr: policies.name, type: 'text', match: 'contains' },
    'details.group': { expr: policies.group, type: 'text' },
    'details.type': { expr: policies.type, type: 'text' },
    'details.dateModified': { expr: policies.updatedAt, type: 'timestamp' },
  },
  id: policies.id,
  defaultSort: 'details.id',
};

export async function findPolicy(db: DbOrTx, id: string): Promise<PolicyRow | undefined> {
  const [row] = await db.select().from(policies).where(eq(policies.id, id));
  return row;
}

export async function listPolicies(db: DbOrTx, q: CompiledList) {
  const rows = await db
    .select({ row: policies, _sort: q.sortKey, _id: q.idKey })
    .from(policies)
    .where(q.pageWhere)
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(policies).where(q.where);
  return { rows, total: total?.n ?? 0 };
}

export async function countPolicies(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(policies);
  return row?.n ?? 0;
}

/** Inserts unless the id exists; true when it was inserted. */
export async function insertPolicy(db: DbOrTx, values: typeof policies.$inferInsert): Promise<boolean> {
  const rows = await db.insert(policies).values(values).onConflictDoNothing().returning({ id: policies.id });
  return rows.length > 0;
}

export async function updatePolicy(db: DbOrTx, id: string, values: Partial<typeof policies.$inferInsert>) {
  await db.update(policies).set({ ...values, updatedAt: new Date() }).where(eq(policies.id, id));
}

export async function deletePolicy(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.delete(policies).where(eq(policies.id, id)).returning({ id: policies.id });
  return rows.length > 0;
}
