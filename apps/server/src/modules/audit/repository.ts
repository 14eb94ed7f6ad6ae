import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { auditLog, tenants } from '../../db/schema/index.js';
import { compileList, type ListSpec } from '../../platform/list-query.js';

export type AuditRow = typeof auditLog.$inferSelect;

// Filters: the action, who acted (e-mail or key name, contains; or the actor's type), the target,
// the tenant (platform view), and the date range as a pair of details.dateCreated>= and <= filters.
const LIST: ListSpec = {
  fields: {
    'details.dateCreated': { expr: auditLog.createdAt, type: 'timestamp' },
    'details.action': { expr: auditLog.action, type: 'text' },
    'details.actor': { expr: auditLog.actor, type: 'text', match: 'contains', sortable: false },
    'details.actorType': { expr: auditLog.actorType, type: 'text', sortable: false },
    'details.targetType': { expr: auditLog.targetType, type: 'text', sortable: false },
    'details.targetId': { expr: sql`coalesce(${auditLog.targetId}, '')`, type: 'text', sortable: false },
    'details.tenantId': { expr: sql`coalesce(${auditLog.tenantId}::text, '')`, type: 'text', sortable: false },
  },
  id: auditLog.id,
  defaultSort: '-details.dateCreated',
};

/** A tenant's entries, or (tenantId undefined) every entry: the platform's view. */
const scopeOf = (tenantId: string | undefined): SQL | undefined => (tenantId ? eq(auditLog.tenantId, tenantId) : undefined);

export async function listEntries(db: DbOrTx, tenantId: string | undefined, query: unknown, maxLimit?: number) {
  const q = compileList(LIST, query);
  const limit = maxLimit ?? q.limit;
  const rows = await db
    .select({ entry: auditLog, tenantName: tenants.name, _sort: q.sortKey, _id: q.idKey })
    .from(auditLog)
    .leftJoin(tenants, eq(tenants.id, auditLog.tenantId))
    .where(and(scopeOf(tenantId), q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(limit + 1);
  const [total] = await db.select({ n: count() }).from(auditLog).where(and(scopeOf(tenantId), q.where));
  return { q, rows, total: total?.n ?? 0 };
}
