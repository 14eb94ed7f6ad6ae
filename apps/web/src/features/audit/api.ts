import { encodeFilters, type Filter, type ListResponse, type TAuditEntry } from '@marquee/core';
import { api, withQuery } from '../../ui/api-client';

/** Whose log: a tenant's, or (null) the whole platform's. */
export type AuditOwner = string | null;

export type AuditFilters = { action?: string; actor?: string; from?: string; to?: string };

const base = (owner: AuditOwner) => (owner ? `/api/tenants/${owner}/audit-log` : '/api/platform/audit-log');

/** The list's filters on the wire: action, actor (contains), and the date range as a >= and <= pair. */
export function auditFilters(f: AuditFilters): string[] {
  const out: Filter[] = [];
  if (f.action) out.push({ field: 'details.action', op: '=', value: f.action });
  if (f.actor) out.push({ field: 'details.actor', op: '=', value: f.actor });
  if (f.from) out.push({ field: 'details.dateCreated', op: '>=', value: f.from });
  if (f.to) out.push({ field: 'details.dateCreated', op: '<=', value: f.to });
  return encodeFilters(out);
}

export const auditApi = {
  list: (owner: AuditOwner, q: { cursor?: string; limit: number; filters: AuditFilters }, signal?: AbortSignal) =>
    api.get<ListResponse<TAuditEntry>>(base(owner), { cursor: q.cursor, limit: q.limit, filters: auditFilters(q.filters) }, signal),
  /** The CSV of the entries the filters select (a plain link: the browser downloads it with the session cookie). */
  downloadUrl: (owner: AuditOwner, filters: AuditFilters) => withQuery(`${base(owner)}/download`, { filters: auditFilters(filters) }),
};
