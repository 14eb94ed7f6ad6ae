import type { AuditActorType, ListResponse, TAuditEntry } from '@marquee/core';
import { stringify } from 'csv-stringify/sync';
import type { Deps } from '../../deps.js';
import { recordAudit, type AuditActor } from '../../platform/audit.js';
import * as repo from './repository.js';

function toWire(e: repo.AuditRow): TAuditEntry {
  return {
    id: e.id,
    details: {
      action: e.action,
      actorType: e.actorType as AuditActorType,
      actorId: e.actorId,
      actor: e.actor,
      tenantId: e.tenantId,
      targetType: e.targetType,
      targetId: e.targetId,
      before: e.before ?? null,
      after: e.after ?? null,
      address: e.address,
      dateCreated: e.createdAt.toISOString(),
    },
  };
}

/** A tenant's audit log (tenantId), or the whole platform's (undefined), newest first. */
export async function listAuditLog(opts: { deps: Deps; tenantId: string | undefined; query: unknown }): Promise<ListResponse<TAuditEntry>> {
  const { q, rows, total } = await repo.listEntries(opts.deps.db, opts.tenantId, opts.query);
  return q.page(rows, total, (r) => toWire(r.entry));
}

/** At most this many rows in one CSV; narrow the dates for more. */
export const AUDIT_CSV_MAX_ROWS = 50_000;

/** A text cell a spreadsheet would run as a formula is made inert (OWASP "CSV injection"). */
const inert = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/**
 * The entries the filters select, as CSV (UTF-8 with a byte order mark, CRLF). The download is itself
 * an export, so it is recorded too, in the same transaction as the read.
 */
export async function exportAuditLog(opts: { deps: Deps; actor: AuditActor; tenantId: string | undefined; query: Record<string, unknown> }): Promise<string> {
  const { deps, tenantId } = opts;
  return deps.db.transaction(async (tx) => {
    const { rows } = await repo.listEntries(tx, tenantId, { ...opts.query, cursor: undefined, limit: undefined }, AUDIT_CSV_MAX_ROWS - 1);
    await recordAudit(tx, {
      actor: opts.actor,
      tenantId: tenantId ?? null,
      action: 'export.downloaded',
      target: { type: 'audit_log', id: null },
      after: { filters: opts.query.filters ?? null, rows: rows.length },
    });
    const header = ['Date', 'Action', 'Actor type', 'Actor', 'Actor id', 'Tenant', 'Target type', 'Target id', 'Before', 'After', 'Address'];
    const body = rows.map(({ entry: e, tenantName }) =>
      [
        e.createdAt.toISOString(),
        e.action,
        e.actorType,
        e.actor,
        e.actorId ?? '',
        tenantName ?? e.tenantId ?? '',
        e.targetType,
        e.targetId ?? '',
        e.before === null ? '' : JSON.stringify(e.before),
        e.after === null ? '' : JSON.stringify(e.after),
        e.address ?? '',
      ].map((v) => inert(String(v))),
    );
    return `\uFEFF${stringify([header, ...body], { record_delimiter: '\r\n' })}`;
  });
}
