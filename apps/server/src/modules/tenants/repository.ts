import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { tenantFormerUrls, tenantSites, tenants } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

export type TenantRow = typeof tenants.$inferSelect;
export type SiteRow = typeof tenantSites.$inferSelect;

export const TENANT_LIST: ListSpec = {
  fields: {
    'details.name': { expr: tenants.name, type: 'text', match: 'contains' },
    'details.url': { expr: tenants.url, type: 'text' },
    'details.status': { expr: tenants.status, type: 'text' },
    'details.email': { expr: tenants.email, type: 'text' },
    'details.dateCreated': { expr: tenants.createdAt, type: 'timestamp' },
  },
  id: tenants.id,
  defaultSort: 'details.name',
};

const live = isNull(tenants.deletedAt);

/** A tenant that has not been deleted. */
export async function findTenant(db: DbOrTx, id: string, lock = false): Promise<TenantRow | undefined> {
  const query = db.select().from(tenants).where(and(eq(tenants.id, id), live));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Any tenant holding this URL, deleted ones included: a deleted tenant's host is never reused. */
export async function findTenantByUrl(db: DbOrTx, url: string): Promise<TenantRow | undefined> {
  const [row] = await db.select().from(tenants).where(eq(tenants.url, url));
  return row;
}

export async function findFormerUrl(db: DbOrTx, url: string) {
  const [row] = await db.select().from(tenantFormerUrls).where(eq(tenantFormerUrls.url, url));
  return row;
}

/** Keeps `oldUrl` reserved for the tenant; moving back to a former url takes it off the list. */
export async function retireUrl(db: DbOrTx, tenantId: string, oldUrl: string, newUrl: string) {
  await db.insert(tenantFormerUrls).values({ url: oldUrl, tenantId }).onConflictDoNothing();
  await db.delete(tenantFormerUrls).where(and(eq(tenantFormerUrls.url, newUrl), eq(tenantFormerUrls.tenantId, tenantId)));
}

export async function listTenants(db: DbOrTx, q: CompiledList) {
  const rows = await db
    .select({ row: tenants, _sort: q.sortKey, _id: q.idKey })
    .from(tenants)
    .where(and(live, q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(tenants).where(and(live, q.where));
  return { rows, total: total?.n ?? 0 };
}

export async function insertTenant(db: DbOrTx, values: typeof tenants.$inferInsert) {
  await db.insert(tenants).values(values);
}

export async function updateTenant(db: DbOrTx, id: string, values: Partial<typeof tenants.$inferInsert>) {
  await db
    .update(tenants)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(tenants.id, id), live));
}

export async function softDeleteTenant(db: DbOrTx, id: string) {
  await db.update(tenants).set({ deletedAt: new Date(), updatedAt: new Date() }).where(and(eq(tenants.id, id), live));
}

/** A pending tenant becomes active once its site is ready; other statuses are left alone. */
export async function activatePendingTenant(db: DbOrTx, id: string) {
  await db
    .update(tenants)
    .set({ status: 'active', updatedAt: new Date() })
    .where(and(eq(tenants.id, id), eq(tenants.status, 'pending'), live));
}

// ---- site provisioning -------------------------------------------------------------------------

export async function findSite(db: DbOrTx, tenantId: string): Promise<SiteRow | undefined> {
  const [row] = await db.select().from(tenantSites).where(eq(tenantSites.tenantId, tenantId));
  return row;
}

export async function insertSite(db: DbOrTx, tenantId: string, storagePrefix: string) {
  await db.insert(tenantSites).values({ tenantId, storagePrefix });
}

/** Starts a new provisioning round (creating the record if the tenant never had one); returns its generation. */
export async function restartSite(db: DbOrTx, tenantId: string, storagePrefix: string): Promise<number> {
  const [row] = await db
    .insert(tenantSites)
    .values({ tenantId, storagePrefix })
    .onConflictDoUpdate({
      target: tenantSites.tenantId,
      set: { status: 'pending', generation: sql`${tenantSites.generation} + 1`, lastError: null, completedAt: null, updatedAt: new Date() },
    })
    .returning({ generation: tenantSites.generation });
  return row?.generation ?? 1;
}

export async function markSiteComplete(db: DbOrTx, tenantId: string) {
  await db
    .update(tenantSites)
    .set({ status: 'create_complete', lastError: null, completedAt: new Date(), updatedAt: new Date() })
    .where(eq(tenantSites.tenantId, tenantId));
}

export async function markSiteError(db: DbOrTx, tenantId: string, message: string) {
  await db.update(tenantSites).set({ lastError: message.slice(0, 1000), updatedAt: new Date() }).where(eq(tenantSites.tenantId, tenantId));
}
