import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { exportFailureMessage, M, type ExportKind, type TExportStatus } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { actorOf as auditActorOf, recordAudit, type AuditActor } from '../../platform/audit.js';
import type { AuthUser } from '../../platform/auth/context.js';
import { AppError, asError, DomainError, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import { csvHeader, csvRows, lfToCrlf } from './csv.js';
import * as repo from './repository.js';
import type { ReportSource, Scope } from './report-source.js';
import { SOURCES } from './sources.js';
import { withAnswerColumns } from './answer-columns.js';

// Report exports (spec reports-payouts-checkout §7 `…/download`, §8): the call writes a
// report_exports row and a job in one transaction and answers at once with a signed, short-lived
// URL; the job streams the rows from the database into storage as CSV (on PostgreSQL as COPY's
// output, on PGlite a batch of rows at a time), so its memory stays flat whatever the size. See
// docs/decisions.md "Report exports" and "Report exports on PostgreSQL use COPY".

export const REPORT_EXPORT_JOB = 'report-export';
/** Rows fetched and written at a time. */
export const EXPORT_BATCH_ROWS = 5_000;
/** How long a download URL works; the status route hands out a fresh one each time. */
export const EXPORT_URL_TTL_SECONDS = 15 * 60;
const EXPORT_ATTEMPTS = 3;
/**
 * The job of an older release that expired one export a day after it was written; the sweep below
 * replaced it (issue 21). Its handler stays for jobs still queued under that name.
 */
export const REPORT_EXPORT_EXPIRE_JOB = 'report-export.expire';
/** The periodic job that removes exports (file and row) older than EXPORT_RETENTION_HOURS. */
export const EXPORT_SWEEP_JOB = 'report-exports.sweep';
export const EXPORT_SWEEP_EVERY_MS = 15 * 60_000;
const SWEEP_BATCH = 200;

type ExportParams = { scope: Scope; query: { sort?: string; filters?: string | string[] } };

const sign = (secret: string, id: string, exp: number) => createHmac('sha256', secret).update(`report-export\n${id}\n${exp}`).digest('base64url');

/** The signed URL of an export's file, valid until `exp` (seconds since the epoch). */
export const exportFileUrl = (secret: string, id: string, exp: number) => `/api/report-exports/${id}/file?exp=${exp}&sig=${sign(secret, id, exp)}`;

const downloadUrl = (deps: Pick<Deps, 'config'>, id: string) => exportFileUrl(deps.config.secret, id, Math.floor(Date.now() / 1000) + EXPORT_URL_TTL_SECONDS);

function statusOf(deps: Pick<Deps, 'config'>, row: repo.ExportRow): TExportStatus {
  return {
    downloadUrl: downloadUrl(deps, row.id),
    exportId: row.id,
    status: row.status as TExportStatus['status'],
    rowCount: row.rowCount,
    totalRows: row.totalRows,
    fileName: row.fileName,
    error: row.status === 'failed' ? (row.error ?? exportFailureMessage(row.kind as ExportKind)) : null,
  };
}

const fileNameOf = (source: ReportSource<unknown>, label: string) =>
  `${source.fileName}${label ? `-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60)}` : ''}-${new Date().toISOString().slice(0, 10)}.csv`;

/**
 * Starts an export of one report with the filters and sort of its list (a bad filter is a 400 now,
 * not a failed job later). Refunds with nothing to export answer spec §8's message.
 */
export async function startExport({
  deps,
  user,
  kind,
  scope,
  query,
  label = '',
  actor,
}: {
  deps: Pick<Deps, 'db' | 'jobs' | 'config'>;
  user: AuthUser;
  /** Who asked, for the audit log (issue 25: exports downloaded). */
  actor?: AuditActor;
  kind: ExportKind;
  scope: Scope;
  query: { sort?: string; filters?: string | string[] };
  label?: string;
}): Promise<TExportStatus> {
  const source = SOURCES[kind] as ReportSource<unknown>;
  const compiled = compileList(source.spec, { sort: query.sort, filters: query.filters, limit: 1 });
  if (kind === 'refunds' && !('platform' in scope) && !(await repo.hasRefunds(deps.db, scope))) {
    throw new DomainError('NOTHING_TO_EXPORT', M.refundsExportEmpty);
  }
  const totalRows = await repo.countReport(deps.db, source, scope, compiled);
  const id = randomUUID();
  const params: ExportParams = { scope, query: { sort: query.sort, filters: query.filters } };
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await repo.insertExport(tx, {
      id,
      tenantId: 'platform' in scope ? null : scope.tenantId,
      kind,
      params: JSON.stringify(params),
      totalRows,
      fileName: fileNameOf(source, label),
      requestedBy: user.id,
    });
    await deps.jobs.enqueue(tx, REPORT_EXPORT_JOB, { exportId: id }, { maxAttempts: EXPORT_ATTEMPTS, dedupeKey: `${REPORT_EXPORT_JOB}:${id}` });
    await recordAudit(tx, { actor: auditActorOf({ actor }), tenantId: inserted.tenantId, action: 'export.downloaded', target: { type: 'export', id }, after: { kind, scope, query: params.query, rows: totalRows } });
    return inserted;
  });
  return statusOf(deps, row);
}

/**
 * An export's progress, for the one who asked for it: another user's export, or one outside the
 * caller's tenant or event, is a 404.
 */
export async function getExportStatus({
  deps,
  user,
  exportId,
  tenantId,
  eventId,
}: {
  deps: Pick<Deps, 'db' | 'config'>;
  user: AuthUser;
  exportId: string;
  /** The tenant route's tenant; undefined on the platform route. */
  tenantId?: string;
  eventId?: string;
}): Promise<TExportStatus> {
  const row = await repo.findExport(deps.db, exportId);
  if (!row || row.requestedBy !== user.id) throw notFound(M.exportNotFound);
  if (tenantId !== undefined && row.tenantId !== tenantId) throw notFound(M.exportNotFound);
  if (eventId !== undefined) {
    const params = JSON.parse(row.params) as ExportParams;
    if (!('eventId' in params.scope) || params.scope.eventId !== eventId) throw notFound(M.exportNotFound);
  }
  if (row.status === 'expired') throw new AppError('GONE', M.exportLinkExpired);
  return statusOf(deps, row);
}

export type ExportFile =
  | { ready: true; stream: Readable; size: number; fileName: string }
  | { ready: false; status: TExportStatus };

/**
 * What the signed URL answers: the CSV once written, the status while it is being written. The
 * signature must hold and not have expired, and the caller must be who asked for the export.
 */
export async function openExportFile({
  deps,
  user,
  exportId,
  exp,
  sig,
}: {
  deps: Pick<Deps, 'db' | 'config' | 'storage'>;
  user: AuthUser;
  exportId: string;
  exp?: string;
  sig?: string;
}): Promise<ExportFile> {
  const expires = Number(exp);
  const expected = Number.isFinite(expires) ? sign(deps.config.secret, exportId, expires) : '';
  if (!sig || !expected || sig.length !== expected.length || !timingSafeEqual(Buffer.from(sig), Buffer.from(expected))) throw notFound(M.exportNotFound);
  if (expires < Date.now() / 1000) throw new AppError('GONE', M.exportLinkExpired);
  const row = await repo.findExport(deps.db, exportId);
  if (!row || row.requestedBy !== user.id) throw notFound(M.exportNotFound);
  if (row.status === 'failed') throw new AppError('CONFLICT', row.error ?? exportFailureMessage(row.kind as ExportKind));
  if (row.status === 'expired') throw new AppError('GONE', M.exportLinkExpired);
  if (row.status !== 'done' || !row.fileKey) return { ready: false, status: statusOf(deps, row) };
  const object = await deps.storage.getStream(row.fileKey);
  if (!object) throw new AppError('CONFLICT', exportFailureMessage(row.kind as ExportKind));
  return { ready: true, stream: object.stream, size: object.size, fileName: row.fileName };
}

/**
 * The export job: streams the report into storage. Safe to run twice: it writes the whole file
 * again under the same key and only then marks the export done.
 */
export async function runExport({ deps, exportId, attempt }: { deps: Pick<Deps, 'database' | 'db' | 'storage' | 'log' | 'jobs'>; exportId: string; attempt: number }) {
  const row = await repo.findExport(deps.db, exportId);
  if (!row || row.status === 'done') return;
  const params = JSON.parse(row.params) as ExportParams;
  const source = await exportSource(deps, row.kind as ExportKind, params.scope);
  const fileKey = `report-exports/${row.tenantId ?? 'platform'}/${row.id}.csv`;
  await repo.updateExport(deps.db, row.id, { status: 'running', rowCount: 0, error: null });
  try {
    const out = new PassThrough();
    // A failure can come before storage has piped the stream; it travels through `streamed` instead.
    out.on('error', () => {});
    const written = deps.storage.putStream(fileKey, out, 'text/csv; charset=utf-8');
    let rowCount = 0;
    const write = async (chunk: string | Buffer) => {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
    };
    const streamed = (async () => {
      await write(csvHeader(source.csv));
      if (deps.database.kind === 'postgres') {
        rowCount = await copyRows({ deps, exportId: row.id, source, params, write });
        out.end();
        return;
      }
      await repo.streamReport({
        database: deps.database,
        source,
        scope: params.scope,
        rawQuery: params.query,
        batch: EXPORT_BATCH_ROWS,
        onRows: async (rows) => {
          await write(csvRows(source.csv, rows));
          rowCount += rows.length;
          await repo.updateExport(deps.db, row.id, { rowCount });
        },
      });
      out.end();
    })();
    streamed.catch((err: unknown) => out.destroy(asError(err)));
    await Promise.all([streamed, written]);
    await repo.updateExport(deps.db, row.id, { status: 'done', rowCount, totalRows: rowCount, fileKey, finishedAt: new Date() });
  } catch (err) {
    deps.log.warn({ err, exportId, attempt }, 'report export failed');
    const final = attempt >= EXPORT_ATTEMPTS;
    await repo.updateExport(deps.db, row.id, {
      status: final ? 'failed' : 'pending',
      error: final ? exportFailureMessage(row.kind as ExportKind) : null,
      finishedAt: final ? new Date() : null,
    });
    if (!final) throw err;
  }
}

/** The report's source; an event's tickets and orders get a column per question (issue 24, answer-columns.ts). */
async function exportSource(deps: Pick<Deps, 'db'>, kind: ExportKind, scope: Scope): Promise<ReportSource<unknown>> {
  const source = SOURCES[kind] as ReportSource<unknown>;
  if ((kind !== 'tickets' && kind !== 'orders') || 'platform' in scope || !scope.eventId) return source;
  return withAnswerColumns(source, kind, await repo.exportQuestions(deps.db, scope.tenantId, scope.eventId)) as ReportSource<unknown>;
}

/**
 * PostgreSQL: the rows as CSV from COPY (repo.copyReportCsv), LF turned into CRLF, with the progress
 * written every EXPORT_BATCH_ROWS rows without waiting for it. The PGlite path writes the same bytes
 * from the cursor's rows (csv.ts); csv-sql.test.ts compares the two.
 */
async function copyRows({
  deps,
  exportId,
  source,
  params,
  write,
}: {
  deps: Pick<Deps, 'database' | 'db'>;
  exportId: string;
  source: ReportSource<unknown>;
  params: ExportParams;
  write: (chunk: Buffer) => Promise<void>;
}): Promise<number> {
  const crlf = lfToCrlf();
  let rowCount = 0;
  let reported = 0;
  let progress: Promise<void> | null = null;
  let progressError: unknown = null;
  await repo.copyReportCsv({
    database: deps.database,
    source,
    scope: params.scope,
    rawQuery: params.query,
    onChunk: async (chunk) => {
      const { bytes, rows } = crlf(chunk);
      await write(bytes);
      rowCount += rows;
      if (!progress && rowCount - reported >= EXPORT_BATCH_ROWS) {
        reported = rowCount;
        progress = repo
          .updateExport(deps.db, exportId, { rowCount })
          .catch((err: unknown) => void (progressError = err))
          .finally(() => (progress = null));
      }
    },
  });
  await progress;
  if (progressError) throw progressError;
  return rowCount;
}

/** An older release's per-export expiry (see REPORT_EXPORT_EXPIRE_JOB): deletes the file; its link then answers 410. */
export async function expireExport({ deps, exportId }: { deps: Pick<Deps, 'db' | 'storage'>; exportId: string }) {
  const row = await repo.findExport(deps.db, exportId);
  if (!row || row.status !== 'done') return;
  // The row first: a crash between the two leaves an orphan file, never a link to a missing one.
  await repo.updateExport(deps.db, row.id, { status: 'expired', fileKey: null });
  if (row.fileKey) await deps.storage.delete(row.fileKey);
}

/**
 * Removes every export (report and payout CSVs alike) older than EXPORT_RETENTION_HOURS: its file,
 * then its row. An export is a download, not an archive (docs/decisions.md, issue 21). The file goes
 * first: a crash in between leaves a row whose file is gone, which the next sweep removes, never a
 * file no row knows of. Returns how many were removed.
 */
export async function sweepExports({ deps, now = new Date() }: { deps: Pick<Deps, 'db' | 'storage' | 'config'>; now?: Date }): Promise<number> {
  const cutoff = new Date(now.getTime() - deps.config.exportRetentionHours * 3_600_000);
  let removed = 0;
  for (;;) {
    const stale = await repo.staleExports(deps.db, cutoff, SWEEP_BATCH);
    for (const row of stale) {
      if (row.fileKey) await deps.storage.delete(row.fileKey);
      await repo.deleteExport(deps.db, row.id);
    }
    removed += stale.length;
    if (stale.length < SWEEP_BATCH) return removed;
  }
}

/** The 15-minute slot after the one `at` is in. */
export const nextSweepSlot = (at: number) => Math.floor(at / EXPORT_SWEEP_EVERY_MS) + 1;

/** Queues the sweep at the start of `slot`: one job per slot, however many nodes ask. */
export async function scheduleExportSweep(deps: Pick<Deps, 'db' | 'jobs'>, slot: number) {
  await deps.jobs.enqueue(deps.db, EXPORT_SWEEP_JOB, { slot }, { runAt: new Date(slot * EXPORT_SWEEP_EVERY_MS), dedupeKey: `${EXPORT_SWEEP_JOB}:${slot}` });
}

export function registerReportJobs(deps: Deps) {
  deps.jobs.register(REPORT_EXPORT_JOB, async (payload: { exportId: string }, info) => runExport({ deps, exportId: payload.exportId, attempt: info.attempt }));
  deps.jobs.register(REPORT_EXPORT_EXPIRE_JOB, async (payload: { exportId: string }) => expireExport({ deps, exportId: payload.exportId }));
  // Every 15 minutes; each run queues the next, and every start makes sure one is queued.
  deps.jobs.register(EXPORT_SWEEP_JOB, async (payload: { slot?: number }) => {
    try {
      const removed = await sweepExports({ deps });
      if (removed > 0) deps.log.info({ removed }, 'removed old exports');
    } finally {
      // The slot after this one's, or after now's if this one ran late: the chain never queues a slot twice.
      await scheduleExportSweep(deps, Math.max((payload.slot ?? 0) + 1, nextSweepSlot(Date.now())));
    }
  });
}
