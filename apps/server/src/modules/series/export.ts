import { M } from '@marquee/core';
import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../../platform/audit.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { AppError, notFound } from '../../platform/errors.js';
import { csvHeader, csvRows } from '../reports/csv.js';
import { rowsOf } from '../reports/repository.js';
import type { CsvColumn, ReportSource } from '../reports/report-source.js';
import { SOURCES } from '../reports/sources.js';
import * as repo from './repository.js';

// Issue 28: the whole series' orders or tickets as one CSV: the event export's columns (the report
// sources' own, so the cells are escaped against formula injection by the same csv.ts) with the
// date first. Written at once, not through the export job: a series' orders are its dates' orders,
// bounded below (docs/decisions.md "Issue 28: the whole series' report and export").

export const SERIES_EXPORT_KINDS = ['orders', 'tickets'] as const;
export type SeriesExportKind = (typeof SERIES_EXPORT_KINDS)[number];
/** More rows than this: the per-date exports (the report job) are the way. */
export const SERIES_EXPORT_MAX_ROWS = 100_000;

type WithDate = { row: unknown; date: string };

/** The date's local start in the series' time zone, as a spreadsheet sorts it: 2031-06-03 19:00. */
function localStart(start: unknown, timeZone: string): string {
  if (start === null || start === undefined) return '';
  const d = start instanceof Date ? start : new Date(String(start));
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(d).map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

export async function exportSeries({ deps, ctx, seriesId, kind }: { deps: Deps; ctx: TenantCtx; seriesId: string; kind: SeriesExportKind }) {
  const series = await repo.findSeries(deps.db, ctx.tenantId, seriesId);
  if (!series) throw notFound();
  const source = SOURCES[kind] as ReportSource<unknown>;
  const scope = { tenantId: ctx.tenantId, seriesId };
  const { select, from, where } = source.base(scope);
  const rows = await rowsOf(
    deps.db,
    sql`select ${select}, e.start_date_time as series_date_start from ${from} where ${where}
      order by e.start_date_time nulls last, e.id, ${source.spec.id} limit ${SERIES_EXPORT_MAX_ROWS + 1}`,
  );
  if (rows.length > SERIES_EXPORT_MAX_ROWS) throw new AppError('CONFLICT', M.seriesExportTooLarge);
  const columns: Array<Omit<CsvColumn<WithDate>, 'sql'>> = [
    { header: 'Event Date', value: (r) => r.date },
    ...source.csv.map((c) => ({ header: c.header, money: c.money, value: (r: WithDate) => c.value(r.row) })),
  ];
  const body = csvHeader(columns) + csvRows(columns, rows.map((r) => ({ row: source.map(r), date: localStart(r.series_date_start, series.timeZone) })));
  await recordAudit(deps.db, { actor: ctx.actor, tenantId: ctx.tenantId, action: 'export.downloaded', target: { type: 'series', id: seriesId }, after: { kind, scope, rows: rows.length } });
  const fileName = `${series.urlName}-${kind}-${new Date().toISOString().slice(0, 10)}.csv`;
  return { body, fileName };
}
