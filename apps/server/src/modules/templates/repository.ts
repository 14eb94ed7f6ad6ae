import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { siteTemplates, siteTemplateUploads, siteTemplateVersions } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

export type TemplateRow = typeof siteTemplates.$inferSelect;
export type VersionRow = typeof siteTemplateVersions.$inferSelect;

export const TEMPLATE_LIST: ListSpec = {
  fields: {
    'details.name': { expr: siteTemplates.name, type: 'text', match: 'contains' },
    'details.description': { expr: siteTemplates.description, type: 'text', match: 'contains' },
    'details.dateCreated': { expr: siteTemplates.createdAt, type: 'timestamp' },
    'details.dateModified': { expr: siteTemplates.updatedAt, type: 'timestamp' },
  },
  id: siteTemplates.id,
  defaultSort: 'details.name',
};

export async function listTemplates(db: DbOrTx, q: CompiledList, opts: { withZipOnly: boolean }) {
  const only = opts.withZipOnly ? gt(siteTemplates.currentVersion, 0) : undefined;
  const rows = await db
    .select({ row: siteTemplates, _sort: q.sortKey, _id: q.idKey })
    .from(siteTemplates)
    .where(and(only, q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(siteTemplates).where(and(only, q.where));
  return { rows, total: total?.n ?? 0 };
}

export async function findTemplate(db: DbOrTx, id: string, lock?: 'update'): Promise<TemplateRow | undefined> {
  const query = db.select().from(siteTemplates).where(eq(siteTemplates.id, id));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function insertTemplate(db: DbOrTx, values: typeof siteTemplates.$inferInsert): Promise<void> {
  await db.insert(siteTemplates).values(values);
}

export async function updateTemplate(db: DbOrTx, id: string, values: Partial<typeof siteTemplates.$inferInsert>): Promise<boolean> {
  const rows = await db
    .update(siteTemplates)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(siteTemplates.id, id))
    .returning({ id: siteTemplates.id });
  return rows.length > 0;
}

export async function deleteTemplate(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.delete(siteTemplates).where(eq(siteTemplates.id, id)).returning({ id: siteTemplates.id });
  return rows.length > 0;
}

export async function listVersions(db: DbOrTx, templateId: string) {
  return db
    .select({ version: siteTemplateVersions.version, zipKey: siteTemplateVersions.zipKey, zipBytes: siteTemplateVersions.zipBytes, createdAt: siteTemplateVersions.createdAt })
    .from(siteTemplateVersions)
    .where(eq(siteTemplateVersions.templateId, templateId))
    .orderBy(desc(siteTemplateVersions.version));
}

export async function findVersion(db: DbOrTx, templateId: string, version: number): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(siteTemplateVersions)
    .where(and(eq(siteTemplateVersions.templateId, templateId), eq(siteTemplateVersions.version, version)));
  return row;
}

export async function insertVersion(db: DbOrTx, values: typeof siteTemplateVersions.$inferInsert): Promise<void> {
  await db.insert(siteTemplateVersions).values(values);
}

export async function insertUpload(db: DbOrTx, values: typeof siteTemplateUploads.$inferInsert): Promise<void> {
  await db.insert(siteTemplateUploads).values(values);
}

/** Takes the upload link for this request: it works once, and only before it expires. */
export async function claimUpload(db: DbOrTx, id: string) {
  const [row] = await db
    .update(siteTemplateUploads)
    .set({ usedAt: new Date() })
    .where(and(eq(siteTemplateUploads.id, id), isNull(siteTemplateUploads.usedAt), gt(siteTemplateUploads.expiresAt, sql`now()`)))
    .returning({ templateId: siteTemplateUploads.templateId, kind: siteTemplateUploads.kind });
  return row;
}
