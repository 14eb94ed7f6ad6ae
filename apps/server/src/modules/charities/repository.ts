import { and, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { charities, events, tenantCharities } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

export type CharityRow = typeof charities.$inferSelect;
export type CharityInsert = typeof charities.$inferInsert;

export const CHARITY_LIST: ListSpec = {
  fields: {
    'details.name': { expr: charities.name, type: 'text', match: 'contains' },
    'details.status': { expr: charities.status, type: 'text' },
    'details.city': { expr: charities.city, type: 'text', match: 'contains' },
    'details.state': { expr: charities.state, type: 'text' },
    'details.dateCreated': { expr: charities.createdAt, type: 'timestamp' },
    'details.dateModified': { expr: charities.updatedAt, type: 'timestamp' },
  },
  id: charities.id,
  defaultSort: 'details.name',
};

/** Whether the tenant enabled the charity: its row in the left-joined tenant_charities exists. */
const enabledExpr = sql<boolean>`(${tenantCharities.charityId} is not null)`;

export const TENANT_CHARITY_LIST: ListSpec = {
  fields: {
    'details.name': { expr: charities.name, type: 'text', match: 'contains' },
    'details.enabled': { expr: enabledExpr, type: 'boolean' },
    'details.city': { expr: charities.city, type: 'text', match: 'contains' },
    'details.state': { expr: charities.state, type: 'text' },
  },
  id: charities.id,
  defaultSort: 'details.name',
};

export async function findCharity(db: DbOrTx, id: string, lock?: 'update' | 'share'): Promise<CharityRow | undefined> {
  const query = db.select().from(charities).where(eq(charities.id, id));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function listCharities(db: DbOrTx, q: CompiledList) {
  const rows = await db
    .select({ row: charities, _sort: q.sortKey, _id: q.idKey })
    .from(charities)
    .where(q.pageWhere)
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(charities).where(q.where);
  return { rows, total: total?.n ?? 0 };
}

/** spec: accounts §4: only active charities appear in the tenant's list, each with its enabled flag. */
export async function listTenantCharities(db: DbOrTx, tenantId: string, q: CompiledList) {
  const join = and(eq(tenantCharities.charityId, charities.id), eq(tenantCharities.tenantId, tenantId));
  const active = eq(charities.status, 'active');
  const rows = await db
    .select({ row: charities, enabled: enabledExpr, _sort: q.sortKey, _id: q.idKey })
    .from(charities)
    .leftJoin(tenantCharities, join)
    .where(and(active, q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(charities).leftJoin(tenantCharities, join).where(and(active, q.where));
  return { rows, total: total?.n ?? 0 };
}

export async function insertCharity(db: DbOrTx, values: CharityInsert): Promise<void> {
  await db.insert(charities).values(values);
}

export async function updateCharity(db: DbOrTx, id: string, values: Partial<CharityInsert>): Promise<boolean> {
  const rows = await db
    .update(charities)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(charities.id, id))
    .returning({ id: charities.id });
  return rows.length > 0;
}

export async function deleteCharity(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.delete(charities).where(eq(charities.id, id)).returning({ id: charities.id });
  return rows.length > 0;
}

/** Enables the charity for the tenant; a no-op when it already is. */
export async function insertTenantCharity(db: DbOrTx, tenantId: string, charityId: string): Promise<void> {
  await db.insert(tenantCharities).values({ tenantId, charityId }).onConflictDoNothing();
}

/** Locks the tenant's enablement of the charity, so no event can take it while it is removed. */
export async function lockTenantCharity(db: DbOrTx, tenantId: string, charityId: string): Promise<boolean> {
  const rows = await db
    .select({ charityId: tenantCharities.charityId })
    .from(tenantCharities)
    .where(and(eq(tenantCharities.tenantId, tenantId), eq(tenantCharities.charityId, charityId)))
    .for('update');
  return rows.length > 0;
}

export async function deleteTenantCharity(db: DbOrTx, tenantId: string, charityId: string): Promise<void> {
  await db.delete(tenantCharities).where(and(eq(tenantCharities.tenantId, tenantId), eq(tenantCharities.charityId, charityId)));
}

/** Takes the charity off events: one tenant's, or every tenant's when tenantId is null. Returns how many. */
export async function clearEventsCharity(db: DbOrTx, charityId: string, tenantId: string | null): Promise<number> {
  const mine = eq(events.charityId, charityId);
  const rows = await db
    .update(events)
    .set({ charityId: null, updatedAt: new Date() })
    .where(tenantId ? and(eq(events.tenantId, tenantId), mine) : mine)
    .returning({ id: events.id });
  return rows.length;
}

/**
 * Whether the charity is active and enabled for the tenant. With `lock`, both rows are share-locked
 * to the end of the caller's transaction, so the charity cannot be made inactive, deleted or
 * disabled for the tenant before the caller's write commits.
 */
export async function isEnabledForTenant(db: DbOrTx, tenantId: string, charityId: string, lock = false): Promise<boolean> {
  const query = db
    .select({ id: charities.id })
    .from(charities)
    .innerJoin(tenantCharities, and(eq(tenantCharities.charityId, charities.id), eq(tenantCharities.tenantId, tenantId)))
    .where(and(eq(charities.id, charityId), eq(charities.status, 'active')));
  const rows = lock ? await query.for('share') : await query;
  return rows.length > 0;
}
