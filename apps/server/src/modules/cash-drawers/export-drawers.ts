import { compileList } from '../../platform/list-query.js';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { escapeCell, moneyCell, UTF8_BOM } from '../reports/csv.js';
import { drawerDetails } from './read-drawers.js';
import * as repo from './repository.js';

type Row = ReturnType<typeof drawerDetails> & { id: string };

// The drawers as CSV for the tenant's admins (issue 23 part B): written as the report exports are
// (reports/csv.ts: a byte order mark, CRLF, text typed by people made inert against formulas, money
// as plain dollars). A tenant has a few drawers a day, so the file is built at once, not by a job.
const COLUMNS: Array<{ header: string; value: (r: Row) => string | number | null; money?: boolean }> = [
  { header: 'Drawer ID', value: (r) => r.id },
  { header: 'Staff', value: (r) => r.staffName },
  { header: 'Staff Email', value: (r) => r.staffEmail },
  { header: 'Status', value: (r) => (r.status === 'open' ? 'Open' : 'Closed') },
  { header: 'Opened At', value: (r) => r.openedAt },
  { header: 'Closed At', value: (r) => r.closedAt ?? '' },
  { header: 'Opening Float', value: (r) => r.openingFloat, money: true },
  { header: 'Cash Sales', value: (r) => r.cashSales, money: true },
  { header: '# Cash Sales', value: (r) => r.salesCount },
  { header: 'Cash Refunds', value: (r) => r.cashRefunds, money: true },
  { header: '# Cash Refunds', value: (r) => r.refundsCount },
  { header: 'Expected Cash', value: (r) => r.expectedCash, money: true },
  { header: 'Counted', value: (r) => r.countedAmount, money: true },
  { header: 'Difference', value: (r) => r.difference, money: true },
  { header: 'Note', value: (r) => r.note },
];

/** RFC 4180 quoting, as reports/csv.ts. Our own numbers are written as they are; text typed by people goes through escapeCell. */
const quote = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
function cell(c: (typeof COLUMNS)[number], r: Row): string {
  const v = c.value(r);
  if (v === null) return '';
  if (c.money) return moneyCell(Number(v));
  return typeof v === 'number' ? String(v) : escapeCell(v);
}

/** The tenant's drawers (with the list's filters) as a CSV file. */
export async function exportDrawers({ deps, ctx, query }: { deps: Deps; ctx: TenantCtx; query: unknown }): Promise<{ filename: string; body: string }> {
  const q = compileList(repo.DRAWER_LIST, { ...(query as object), limit: 1 });
  const rows = (await repo.allDrawers(deps.db, ctx.tenantId, q.where)).map((r) => ({ id: r.drawer.id, ...drawerDetails(r) }));
  return { filename: `cash-drawers-${new Date().toISOString().slice(0, 10)}.csv`, body: `${UTF8_BOM}${COLUMNS.map((c) => c.header).join(',')}\r\n${rows.map((r) => `${COLUMNS.map((c) => quote(cell(c, r))).join(',')}\r\n`).join('')}` };
}
