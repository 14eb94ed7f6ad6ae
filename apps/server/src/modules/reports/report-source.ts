import { COUNTED_REFUND_STATUS, PAID_ORDER_STATUSES } from '@marquee/core';
import { type SQL, sql } from 'drizzle-orm';
import type { ListField, ListSpec } from '../../platform/list-query.js';
import { badRequest } from '../../platform/errors.js';

// What every report source (sources.ts and its *-source.ts files) is made of: its type, where it
// reads (the scope), the list fields' kinds, the row readers and the order figures in SQL.

/** Where a report reads: one tenant, optionally one event or every date of one series (issue 28); platform reports read every tenant. */
export type Scope = { tenantId: string; eventId?: string; seriesId?: string } | { platform: true };

/**
 * One CSV column: `value` reads the wire shape (csv.ts writes it); `sql` is the same cell computed by
 * PostgreSQL over the report's tables (csv-sql.ts, for the COPY export), equal byte for byte.
 */
export type CsvColumn<Out> = { header: string; value: (row: Out) => string | number; money?: boolean; sql: SQL };

export type ReportSource<Out> = {
  kind: string;
  spec: ListSpec;
  /** `select … from … where <scope>`, without filters, order or limit; exposes the columns `map` reads. */
  base: (scope: Scope) => { select: SQL; from: SQL; where: SQL };
  map: (row: Record<string, unknown>) => Out;
  csv: Array<CsvColumn<Out>>;
  fileName: string;
};

export const PAID = sql.raw(`(${PAID_ORDER_STATUSES.map((s) => `'${s}'`).join(', ')})`);
export const COUNTED = sql.raw(`'${COUNTED_REFUND_STATUS}'`);

export const col = (text: string) => sql.raw(text);
export const text = (expr: string, extra: Partial<ListField> = {}): ListField => ({ expr: col(expr), type: 'text', match: 'contains', ...extra });
export const exact = (expr: string): ListField => ({ expr: col(expr), type: 'text', match: 'exact' });
export const number = (expr: string): ListField => ({ expr: col(expr), type: 'number' });
export const stamp = (expr: string): ListField => ({ expr: col(expr), type: 'timestamp' });

export const like = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
export const onlyEquals = (field: string, op: string) => {
  if (op !== '=') throw badRequest(`Filtering on ${field} takes '=' only.`);
};

export function scopeWhere(scope: Scope, tenantCol: string, eventCol: string): SQL {
  if ('platform' in scope) return sql`true`;
  const tenant = sql`${col(tenantCol)} = ${scope.tenantId}::uuid`;
  if (scope.seriesId) {
    // Issue 28: every date of one series (its events), for the whole series' export.
    return sql`${tenant} and ${col(eventCol)} in (select se.id from events se where se.tenant_id = ${scope.tenantId}::uuid and se.series_id = ${scope.seriesId}::uuid)`;
  }
  return scope.eventId ? sql`${tenant} and ${col(eventCol)} = ${scope.eventId}::uuid` : tenant;
}

export const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
export const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const int = (v: unknown): number => Number(v ?? 0);
export const bool = (v: unknown): boolean => v === true || v === 't' || v === 'true';
export const fullName = (first: unknown, last: unknown) => [str(first), str(last)].filter(Boolean).join(' ');

// ---- order sums, the one place each figure is written in SQL -----------------------------------

/**
 * Per paid order, the order's figures (docs/reports.md); `o` is orders. The ticket counts and the
 * succeeded refunds are the order's own columns, kept by database triggers (migration 0006), and
 * event_sales_totals is the sum of these per event, kept by the same triggers.
 */
export const ORDER_FIGURES = {
  gross: 'o.total_amount',
  net: '(o.tenant_total - o.refunds_succeeded_tenant)',
  serviceFees: 'o.surcharge',
  processingFees: 'o.processing_fee',
  tax: 'o.vat',
  donations: 'o.donation',
  donationFees: 'o.donation_fee',
  discounts: 'o.discount',
  refunds: 'o.refunds_succeeded',
  ticketsSold: 'o.tickets_sold',
  complimentary: 'o.tickets_complimentary',
  used: 'o.tickets_used',
} as const;
