import { randomUUID } from 'node:crypto';
import { formatMoney, M, type TExportStatus } from '@marquee/core';
import { stringify } from 'csv-stringify/sync';
import { and, eq } from 'drizzle-orm';
import { reportExports } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../../platform/audit.js';
import { notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import { escapeCell } from '../reports/csv.js';
import { EXPORT_URL_TTL_SECONDS, exportFileUrl } from '../reports/exports.js';
import * as repo from './repository.js';
import * as service from './read-payouts.js';

// The four payout downloads of spec §7. Like every report export, the `…/download` call writes a
// report_exports row and a job; the job writes the CSV into storage and the status answers a
// signed download URL once it is there.

export const PAYOUT_EXPORT_JOB = 'payouts.export';
export const PAYOUT_EXPORT_KINDS = ['payout-transactions', 'payouts-collection', 'payout-orders', 'tenant-payout-transactions'] as const;
export type PayoutExportKind = (typeof PAYOUT_EXPORT_KINDS)[number];
type Params = { filters?: string | string[]; sort?: string; payoutId?: string };

const money = (cents: number) => formatMoney(cents);
const MONEY_CELL = /^-?\$[\d,]+\.\d\d$/;

export async function startPayoutExport({
  deps,
  kind,
  tenantId,
  params,
  userId,
  actor,
  statusPath,
}: {
  deps: Deps;
  kind: PayoutExportKind;
  tenantId: string | null;
  params: Params;
  userId: string;
  /** Who asked (issue 25: every export downloaded is in the audit log, as the report exports are). */
  actor: AuditActor | undefined;
  statusPath: (exportId: string) => string;
}): Promise<TExportStatus> {
  // Bad filters are a 400 now, not a failed job later.
  compileList(kind === 'payouts-collection' ? repo.COMPLETED_PAYOUT_LIST : repo.PAYOUT_LINE_LIST, { filters: params.filters, sort: params.sort });
  if (kind === 'payout-orders') await service.getPayout({ deps, payoutId: params.payoutId ?? '', tenantId: tenantId ?? undefined });
  const id = randomUUID();
  const fileName = `${kind}-${new Date().toISOString().slice(0, 10)}.csv`;
  await deps.db.transaction(async (tx) => {
    await tx.insert(reportExports).values({ id, tenantId, kind, params: JSON.stringify(params), fileName, requestedBy: userId });
    await deps.jobs.enqueue(tx, PAYOUT_EXPORT_JOB, { exportId: id }, { dedupeKey: `${PAYOUT_EXPORT_JOB}:${id}` });
    await recordAudit(tx, { actor: actor ?? SYSTEM_ACTOR, tenantId, action: 'export.downloaded', target: { type: 'export', id }, after: { kind, scope: tenantId ? { tenantId } : { platform: true }, query: params } });
  });
  return exportStatus({ deps, exportId: id, tenantId, userId, statusPath });
}

export async function exportStatus({
  deps,
  exportId,
  tenantId,
  userId,
  statusPath,
}: {
  deps: Deps;
  exportId: string;
  tenantId: string | null;
  userId: string;
  statusPath: (exportId: string) => string;
}): Promise<TExportStatus> {
  const [row] = await deps.db.select().from(reportExports).where(eq(reportExports.id, exportId));
  // Another tenant's export, or someone else's: not found.
  if (!row || row.requestedBy !== userId || (tenantId !== null && row.tenantId !== tenantId) || !(PAYOUT_EXPORT_KINDS as readonly string[]).includes(row.kind)) throw notFound(M.exportNotFound);
  return {
    // Served by the report exports' signed file route, like every report CSV.
    downloadUrl: row.status === 'done' && row.fileKey ? exportFileUrl(deps.config.secret, row.id, Math.floor(Date.now() / 1000) + EXPORT_URL_TTL_SECONDS) : statusPath(row.id),
    exportId: row.id,
    status: row.status as TExportStatus['status'],
    rowCount: row.rowCount,
    totalRows: row.totalRows,
    fileName: row.fileName,
    error: row.error,
  };
}

/** Pages through the same list the screen shows, so the CSV adds up to the screen. */
async function allRows<T>(page: (cursor: string | undefined) => Promise<{ result: T[]; cursor: string | null }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(cursor);
    out.push(...p.result);
    cursor = p.cursor ?? undefined;
  } while (cursor);
  return out;
}

export async function runPayoutExport({ deps, exportId }: { deps: Deps; exportId: string }) {
  const [row] = await deps.db.select().from(reportExports).where(eq(reportExports.id, exportId));
  if (!row || row.status === 'done') return;
  await deps.db.update(reportExports).set({ status: 'running' }).where(eq(reportExports.id, exportId));
  const params = JSON.parse(row.params) as Params;
  const base = { filters: params.filters, sort: params.sort, limit: 100 };
  let records: string[][];
  try {
    if (row.kind === 'payouts-collection') {
      const rows = await allRows((cursor) => service.listCompletedPayouts({ deps, query: { ...base, cursor } }));
      records = [
        ['Payout ID', 'Date', 'Tenant URL', 'Event Name', 'Order Count', 'Ticket Count', 'Facilitator', 'Gross Amount', 'Credit Card Fees', 'Net Amount', 'Tenant Total', 'Platform Total'],
        ...rows.map((r) => {
          const d = r.details;
          return [d.payoutId, d.dateCreated, d.tenantURL, d.eventName, String(d.orderUIDs.length), String(d.ticketCount), d.facilitator, money(d.grossAmount), money(d.creditCardProcessingFee), money(d.netAmount), money(d.tenantTotal), money(d.platformTotal)];
        }),
      ];
    } else if (row.kind === 'payout-orders') {
      const rows = await allRows((cursor) =>
        service.listPayoutOrders({ deps, payoutId: params.payoutId ?? '', tenantId: row.tenantId ?? undefined, query: { ...base, cursor } }),
      );
      records = [
        ['Order ID', 'Event Name', 'Line', 'Gross Amount', 'Card Fees', 'Net Amount', 'Tenant Total', 'Platform Total'],
        ...rows.map(({ details: d }) => [d.orderUID, d.eventName, d.kind, money(d.grossAmount), money(d.gatewayFee), money(d.netAmount), money(d.tenantTotal), money(d.platformTotal)]),
      ];
    } else {
      const tenantId = row.kind === 'tenant-payout-transactions' ? (row.tenantId ?? undefined) : undefined;
      const rows = await allRows((cursor) => service.listPayoutTransactions({ deps, tenantId, query: { ...base, cursor } }));
      records = [
        ['Date', 'Order ID', 'Tenant URL', 'Event Name', 'Charge ID', 'Status', 'Payout Type', 'Available On', 'Gross Amount', 'Card Fees', 'Net Amount', 'Tenant Total', 'Platform Total', 'On Hold', 'Payout Completed', 'Payout ID'],
        ...rows.map(({ details: d }) => [
          d.dateCreated,
          d.orderUID,
          d.tenantURL,
          d.eventName,
          d.chargeId ?? 'N/A',
          d.status,
          d.facilitator === 'platform' ? 'Manual' : 'Automatic',
          d.balanceAvailableOn,
          money(d.grossAmount),
          money(d.gatewayFee),
          money(d.netAmount),
          money(d.tenantTotal),
          money(d.platformTotal),
          d.onHold ? 'Yes' : 'No',
          d.payoutCompleted ? 'Yes' : 'No',
          d.payoutId ?? '',
        ]),
      ];
    }
  } catch (err) {
    await deps.db
      .update(reportExports)
      .set({ status: 'failed', error: err instanceof Error ? err.message : M.unknownError, finishedAt: new Date() })
      .where(eq(reportExports.id, exportId));
    return;
  }
  const key = `exports/${exportId}.csv`;
  // Cells from people (event names above all) are escaped against formula injection as the report
  // exports' are; amounts are our own formatting, where a leading minus is a sign, not a formula.
  const safe = records.map((r) => r.map((c) => (MONEY_CELL.test(c) ? c : escapeCell(c))));
  await deps.storage.put(key, Buffer.from(`\ufeff${stringify(safe)}`), 'text/csv; charset=utf-8');
  await deps.db
    .update(reportExports)
    .set({ status: 'done', fileKey: key, rowCount: records.length - 1, totalRows: records.length - 1, finishedAt: new Date() })
    .where(and(eq(reportExports.id, exportId)));
}
