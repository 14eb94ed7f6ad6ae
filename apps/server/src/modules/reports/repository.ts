import type { ListResponse } from '@marquee/core';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Database, DbOrTx } from '../../db/client.js';
import { events, reportExports, tenants } from '../../db/schema/index.js';
import { compileList, type CompiledList } from '../../platform/list-query.js';
import { COUNTED, ORDER_FIGURES, PAID, type ReportSource, type Scope } from './report-source.js';

type Row = Record<string, unknown>;

export async function rowsOf(db: DbOrTx, query: SQL): Promise<Row[]> {
  const res = (await db.execute(query)) as unknown as { rows: Row[] };
  return res.rows;
}

function scopeOf(scope: Scope, tenantCol: string, eventCol: string): SQL {
  if ('platform' in scope) return sql`true`;
  const tenant = sql`${sql.raw(tenantCol)} = ${scope.tenantId}::uuid`;
  return scope.eventId ? sql`${tenant} and ${sql.raw(eventCol)} = ${scope.eventId}::uuid` : tenant;
}

// ---- lists -------------------------------------------------------------------------------------

export async function listReport<Out>(db: DbOrTx, source: ReportSource<Out>, scope: Scope, rawQuery: unknown): Promise<ListResponse<Out>> {
  const q = compileList(source.spec, rawQuery);
  const { select, from, where } = source.base(scope);
  const filtered = (extra: SQL | undefined) => (extra ? sql`${where} and ${extra}` : where);
  const [rows, counted] = await Promise.all([
    rowsOf(
      db,
      sql`select ${select}, ${q.sortKey} as _sort, ${q.idKey} as _id from ${from} where ${filtered(q.pageWhere)}
        order by ${sql.join(q.orderBy, sql`, `)} limit ${q.limit + 1}`,
    ),
    rowsOf(db, sql`select count(*)::bigint as n from ${from} where ${filtered(q.where)}`),
  ]);
  return q.page(rows as Array<Row & { _sort: unknown; _id: unknown }>, Number(counted[0]?.n ?? 0), source.map);
}

/** The rows an export will write, counted up front for its progress. */
export async function countReport(db: DbOrTx, source: ReportSource<unknown>, scope: Scope, q: CompiledList): Promise<number> {
  const { from, where } = source.base(scope);
  const rows = await rowsOf(db, sql`select count(*)::bigint as n from ${from} where ${q.where ? sql`${where} and ${q.where}` : where}`);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Streams every row of a report in its list order, `batch` rows at a time, never holding more.
 * On PostgreSQL: a cursor in one read-only REPEATABLE READ transaction (one consistent snapshot).
 * PGlite has a single connection that a transaction would hold for the whole export, stopping
 * every other request; there the rows come in keyset pages instead (same order, same filters).
 */
export async function streamReport<Out>(opts: {
  database: Database;
  source: ReportSource<Out>;
  scope: Scope;
  rawQuery: unknown;
  batch: number;
  onRows: (rows: Out[]) => Promise<void>;
}): Promise<void> {
  const { database, source, scope, batch, onRows } = opts;
  const { select, from, where } = source.base(scope);
  if (database.kind === 'postgres') {
    const q = compileList(source.spec, { ...(opts.rawQuery as object), cursor: undefined, limit: 1 });
    const full = q.where ? sql`${where} and ${q.where}` : where;
    await database.db.transaction(
      async (tx) => {
        // The whole result is wanted, not its first rows: plan for total time (a scan and a sort
        // rather than an index walk with a heap visit per row).
        await tx.execute(sql`set local cursor_tuple_fraction = 1.0`);
        await tx.execute(sql`declare report_rows no scroll cursor for select ${select} from ${from} where ${full} order by ${sql.join(q.orderBy, sql`, `)}`);
        for (;;) {
          const rows = await rowsOf(tx, sql`fetch forward ${sql.raw(String(Math.trunc(batch)))} from report_rows`);
          if (rows.length) await onRows(rows.map(source.map));
          if (rows.length < batch) break;
        }
        await tx.execute(sql`close report_rows`);
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    return;
  }
  let cursor: string | undefined;
  for (;;) {
    // The compiler gives the filters, order and keyset position; the batch size is ours (a list page stops at 100).
    const q = compileList(source.spec, { ...(opts.rawQuery as object), cursor, limit: 1 });
    const rows = (await rowsOf(
      database.db,
      sql`select ${select}, ${q.sortKey} as _sort, ${q.idKey} as _id from ${from} where ${q.pageWhere ? sql`${where} and ${q.pageWhere}` : where}
        order by ${sql.join(q.orderBy, sql`, `)} limit ${batch}`,
    )) as Array<Row & { _sort: unknown; _id: unknown }>;
    if (rows.length) await onRows(rows.map(source.map));
    if (rows.length < batch) break;
    const last = rows[rows.length - 1]!;
    cursor = encodeKeyset(last._sort, last._id);
  }
}

/**
 * PostgreSQL only: every row of a report in its list order as CSV cells computed by the database
 * (csv-sql.ts), streamed with `COPY (…) TO STDOUT WITH (FORMAT csv)`, LF-ended, without the header.
 * One statement, so one snapshot; chunks are pulled as `onChunk` takes them (backpressure), so
 * memory stays flat. Three to five times the rows per second of the cursor (bench/README.md).
 */
export async function copyReportCsv(opts: {
  database: Database;
  source: ReportSource<unknown>;
  scope: Scope;
  rawQuery: unknown;
  onChunk: (chunk: Buffer) => Promise<void>;
}): Promise<void> {
  const text = inlineParams(sql`copy (${reportCsvQuery(opts.source, opts.scope, opts.rawQuery)}) to stdout with (format csv)`);
  const { database } = opts;
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  let failed: unknown;
  try {
    // For this statement only: no JIT (compiling the cell expressions cost 0.2 s of a 1.2 s export
    // of 196,000 orders) and room to sort the rows in memory rather than on disk.
    await client.query(`begin read only; set local jit = off; set local work_mem = '${EXPORT_WORK_MEM}'`);
    const stream = client.query(copyTo(text));
    for await (const chunk of stream) await opts.onChunk(chunk as Buffer);
    await client.query('commit');
  } catch (err) {
    failed = err;
    throw err;
  } finally {
    // A connection left in the middle of a COPY is not reused.
    client.release(failed instanceof Error ? failed : failed === undefined ? undefined : true);
  }
}

/** The CSV cells of every row of a report, in its list order, as columns c0, c1, … */
export function reportCsvQuery(source: ReportSource<unknown>, scope: Scope, rawQuery: unknown): SQL {
  const { from, where } = source.base(scope);
  const q = compileList(source.spec, { ...(rawQuery as object), cursor: undefined, limit: 1 });
  const full = q.where ? sql`${where} and ${q.where}` : where;
  // An empty cell is NULL, which COPY writes as nothing (an empty string it would write as "").
  const cells = sql.join(
    source.csv.map((c, i) => sql`nullif(${c.sql}, '') as ${sql.raw(`c${i}`)}`),
    sql`, `,
  );
  return sql`select ${cells} from ${from} where ${full} order by ${sql.join(q.orderBy, sql`, `)}`;
}

const dialect = new PgDialect();
/** work_mem of an export's sort (per sorting process; the server default is 4 MB). */
const EXPORT_WORK_MEM = '64MB';

/**
 * The statement's text with its parameters written in as literals, because COPY takes none. Each is
 * quoted by the driver's own escapeLiteral and, like a parameter, typed by its context.
 */
export function inlineParams(query: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return text.replace(/\$(\d+)/g, (_, n: string) => literalOf(params[Number(n) - 1]));
}

function literalOf(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return pg.escapeLiteral(String(value));
  throw new Error(`A report filter value of type ${typeof value} cannot be written into a COPY statement.`);
}

/** The list compiler's cursor format ([sort value, id] as base64url JSON). */
function encodeKeyset(sortValue: unknown, id: unknown): string {
  const v = sortValue instanceof Date ? sortValue.toISOString() : sortValue;
  return Buffer.from(JSON.stringify([v, String(id)])).toString('base64url');
}

// ---- dashboards --------------------------------------------------------------------------------

const sum = (expr: string) => sql`coalesce(sum(${sql.raw(expr)}), 0)::bigint`;

export type DashboardFigures = {
  orders: number;
  gross: number;
  net: number;
  serviceFees: number;
  processingFees: number;
  tax: number;
  donations: number;
  donationFees: number;
  discounts: number;
  refunds: number;
  sold: number;
  complimentary: number;
  used: number;
  events: number;
  subscriptions: number;
};

const num = (row: Row | undefined, key: string) => Number(row?.[key] ?? 0);

/**
 * Every figure of docs/reports.md over the scope, from the per-event rollup (event_sales_totals).
 * The platform scope reads every tenant, deleted ones included (their sales stay in its history).
 */
export async function dashboardFigures(db: DbOrTx, scope: Scope): Promise<DashboardFigures> {
  const [totals, counts] = await Promise.all([
    rowsOf(
      db,
      sql`select ${sum('orders')} as orders, ${sum('gross')} as gross, ${sum('net')} as net, ${sum('service_fees')} as service_fees,
          ${sum('processing_fees')} as processing_fees, ${sum('tax')} as tax, ${sum('donations')} as donations,
          ${sum('donation_fees')} as donation_fees, ${sum('discounts')} as discounts, ${sum('refunds')} as refunds,
          ${sum('tickets_sold')} as sold, ${sum('complimentary')} as complimentary, ${sum('used')} as used
        from event_sales_totals st where ${scopeOf(scope, 'st.tenant_id', 'st.event_id')}`,
    ),
    rowsOf(
      db,
      sql`select
          (select count(*) from events e where ${scopeOf(scope, 'e.tenant_id', 'e.id')} and e.status = 'published')::bigint as events,
          (select count(*) from subscribers s where ${scopeOf(scope, 's.tenant_id', 's.event_id')})::bigint as subscriptions`,
    ),
  ]);
  return figuresOf(totals[0], counts[0]);
}

function figuresOf(t: Row | undefined, c: Row | undefined): DashboardFigures {
  return {
    orders: num(t, 'orders'),
    gross: num(t, 'gross'),
    net: num(t, 'net'),
    serviceFees: num(t, 'service_fees'),
    processingFees: num(t, 'processing_fees'),
    tax: num(t, 'tax'),
    donations: num(t, 'donations'),
    donationFees: num(t, 'donation_fees'),
    discounts: num(t, 'discounts'),
    refunds: num(t, 'refunds'),
    sold: num(t, 'sold'),
    complimentary: num(t, 'complimentary'),
    used: num(t, 'used'),
    events: num(c, 'events'),
    subscriptions: num(c, 'subscriptions'),
  };
}

export type ChannelFigureRow = {
  channel: string;
  paymentMethod: string;
  orders: number;
  gross: number;
  net: number;
  refunds: number;
  sold: number;
  complimentary: number;
};

/**
 * Sales by channel and payment method over the scope, from the per-channel rollup
 * (event_channel_totals, kept by the same trigger as event_sales_totals: docs/reports.md "Sales by
 * channel"). Rows that net to nothing (an order paid and then moved) are left out.
 */
export async function channelFigures(db: DbOrTx, scope: Scope): Promise<ChannelFigureRow[]> {
  const rows = await rowsOf(
    db,
    sql`select ct.channel, ct.payment_method, ${sum('orders')} as orders, ${sum('gross')} as gross, ${sum('net')} as net,
        ${sum('refunds')} as refunds, ${sum('tickets_sold')} as sold, ${sum('complimentary')} as complimentary
      from event_channel_totals ct where ${scopeOf(scope, 'ct.tenant_id', 'ct.event_id')}
      group by ct.channel, ct.payment_method
      having sum(orders) <> 0 or sum(gross) <> 0 or sum(tickets_sold) <> 0 or sum(complimentary) <> 0`,
  );
  return rows.map((r) => ({
    channel: String(r.channel),
    paymentMethod: String(r.payment_method),
    orders: num(r, 'orders'),
    gross: num(r, 'gross'),
    net: num(r, 'net'),
    refunds: num(r, 'refunds'),
    sold: num(r, 'sold'),
    complimentary: num(r, 'complimentary'),
  }));
}

/**
 * Issue 24: the waiting list over the scope's events, read here from the waiting list's tables
 * (modules/waitlist writes them; reports imports no module). joined: every entry; bought: entries
 * in the list's "claimed" state, as the Waiting list tab shows it (an offer whose order was placed
 * counts before the list writes it down).
 */
export async function waitlistFigures(db: DbOrTx, scope: Scope): Promise<{ joined: number; bought: number }> {
  const rows = await rowsOf(
    db,
    sql`select count(*)::bigint as joined,
        count(*) filter (where w.state = 'claimed' or (w.state = 'offered' and exists (select 1 from orders o
          where o.tenant_id = w.tenant_id and o.waitlist_entry_id = w.id and o.status not in ('draft', 'expired', 'replaced'))))::bigint as bought
      from waitlist_entries w where ${scopeOf(scope, 'w.tenant_id', 'w.event_id')}`,
  );
  return { joined: num(rows[0], 'joined'), bought: num(rows[0], 'bought') };
}

/**
 * The refunds' part of the figures after refunds (issue 21.11, docs/reports.md "After refunds"):
 * the organiser's share of the succeeded refunds and the tax they gave back, core refundedTax per
 * order (vat x refunded / total, half up: PostgreSQL's round() of a positive numeric). Only orders
 * with a succeeded refund are read, found through the refunds' own indexes, and each order's
 * counters (the REFUNDS card's) say how much of it went back.
 */
export async function refundFigures(db: DbOrTx, scope: Scope): Promise<{ tenantRefunds: number; taxesRefunded: number }> {
  const rows = await rowsOf(
    db,
    sql`select ${sum('o.refunds_succeeded_tenant')} as tenant_refunds,
        ${sum('round(o.vat::numeric * least(o.refunds_succeeded, o.total_amount) / o.total_amount)')} as taxes_refunded
      from orders o
      where o.status in ${PAID} and o.refunds_succeeded > 0 and o.total_amount > 0
        and (o.tenant_id, o.id) in (select r.tenant_id, r.order_id from refunds r where ${scopeOf(scope, 'r.tenant_id', 'r.event_id')} and r.status = ${COUNTED})`,
  );
  return { tenantRefunds: num(rows[0], 'tenant_refunds'), taxesRefunded: num(rows[0], 'taxes_refunded') };
}

/**
 * The same figures summed straight from the orders, tickets and refunds rows, never from the
 * counters or the rollup: what tests compare the triggers' work against.
 */
export async function directFigures(db: DbOrTx, scope: Scope): Promise<DashboardFigures> {
  const [orderRows, ticketRows, refundRows] = await Promise.all([
    rowsOf(
      db,
      sql`select count(*)::bigint as orders, ${sum('o.total_amount')} as gross, ${sum('o.tenant_total')} as tenant_total,
          ${sum('o.surcharge')} as service_fees, ${sum('o.processing_fee')} as processing_fees, ${sum('o.vat')} as tax,
          ${sum('o.donation')} as donations, ${sum('o.donation_fee')} as donation_fees, ${sum('o.discount')} as discounts
        from orders o where ${scopeOf(scope, 'o.tenant_id', 'o.event_id')} and o.status in ${PAID}`,
    ),
    rowsOf(
      db,
      sql`select count(*) filter (where t.price > 0)::bigint as sold, count(*) filter (where t.price = 0)::bigint as complimentary,
          count(*) filter (where t.used)::bigint as used
        from tickets t join orders o on o.tenant_id = t.tenant_id and o.id = t.order_id
        where ${scopeOf(scope, 't.tenant_id', 't.event_id')} and not t.voided and o.status in ${PAID}`,
    ),
    rowsOf(
      db,
      sql`select ${sum('r.amount')} as refunds, ${sum('r.tenant_amount')} as tenant_refunds
        from refunds r join orders o on o.tenant_id = r.tenant_id and o.id = r.order_id
        where ${scopeOf(scope, 'r.tenant_id', 'r.event_id')} and r.status = ${COUNTED} and o.status in ${PAID}`,
    ),
  ]);
  const o = orderRows[0];
  const r = refundRows[0];
  const f = figuresOf({ ...o, ...ticketRows[0], refunds: r?.refunds, net: num(o, 'tenant_total') - num(r, 'tenant_refunds') }, undefined);
  return { ...f, events: 0, subscriptions: 0 };
}

// ---- charts ------------------------------------------------------------------------------------

export async function salesByDay(db: DbOrTx, scope: { tenantId: string; eventId?: string }, from: string, to: string) {
  return rowsOf(
    db,
    sql`with days as (select generate_series(${from}::date, ${to}::date, interval '1 day')::date as day),
      o as (select (o.created_at at time zone 'UTC')::date as day, count(*)::bigint as orders,
          ${sum(ORDER_FIGURES.gross)} as gross, ${sum(ORDER_FIGURES.net)} as net, ${sum(ORDER_FIGURES.ticketsSold)} as sold
        from orders o
        where ${scopeOf(scope, 'o.tenant_id', 'o.event_id')} and o.status in ${PAID}
          and o.created_at >= ${from}::date and o.created_at < ${to}::date + 1
        group by 1)
      select to_char(days.day, 'YYYY-MM-DD') as day, coalesce(o.orders, 0) as orders, coalesce(o.gross, 0) as gross,
        coalesce(o.net, 0) as net, coalesce(o.sold, 0) as sold
      from days left join o on o.day = days.day order by days.day`,
  );
}

export async function firstSaleDay(db: DbOrTx, scope: { tenantId: string; eventId?: string }): Promise<string | null> {
  const rows = await rowsOf(
    db,
    sql`select to_char(min(o.created_at at time zone 'UTC'), 'YYYY-MM-DD') as day from orders o
      where ${scopeOf(scope, 'o.tenant_id', 'o.event_id')} and o.status in ${PAID}`,
  );
  return (rows[0]?.day as string | null) ?? null;
}

export async function salesByTicketType(db: DbOrTx, scope: { tenantId: string; eventId?: string }) {
  return rowsOf(
    db,
    sql`select t.ticket_type_id, max(t.ticket_type_name) as ticket_type_name, t.event_id, max(e.name) as event_name,
        count(*) filter (where t.price > 0)::bigint as sold, count(*) filter (where t.price = 0)::bigint as complimentary,
        coalesce(sum(t.price), 0)::bigint as revenue
      from tickets t join orders o on o.tenant_id = t.tenant_id and o.id = t.order_id
        join events e on e.tenant_id = t.tenant_id and e.id = t.event_id
      where ${scopeOf(scope, 't.tenant_id', 't.event_id')} and not t.voided and o.status in ${PAID}
      group by t.event_id, t.ticket_type_id order by max(e.name), max(t.ticket_type_name)`,
  );
}

// ---- lookups -----------------------------------------------------------------------------------

export async function eventExists(db: DbOrTx, tenantId: string, eventId: string): Promise<boolean> {
  const [row] = await db.select({ id: events.id }).from(events).where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return !!row;
}

export async function liveTenantExists(db: DbOrTx, tenantId: string): Promise<boolean> {
  const [row] = await db.select({ id: tenants.id }).from(tenants).where(and(eq(tenants.id, tenantId), isNull(tenants.deletedAt)));
  return !!row;
}

/** Refunds of the scope that a refunds export would write (spec §8: none is its own message). */
export async function hasRefunds(db: DbOrTx, scope: { tenantId: string; eventId?: string }): Promise<boolean> {
  const rows = await rowsOf(
    db,
    sql`select exists (select 1 from refunds r join orders o on o.tenant_id = r.tenant_id and o.id = r.order_id
      where ${scopeOf(scope, 'r.tenant_id', 'r.event_id')} and o.status in ${PAID}) as found`,
  );
  const v = rows[0]?.found;
  return v === true || v === 't';
}

// ---- exports -----------------------------------------------------------------------------------

export type ExportRow = typeof reportExports.$inferSelect;

export async function insertExport(db: DbOrTx, values: typeof reportExports.$inferInsert): Promise<ExportRow> {
  const [row] = await db.insert(reportExports).values(values).returning();
  return row!;
}

export async function findExport(db: DbOrTx, id: string): Promise<ExportRow | undefined> {
  const [row] = await db.select().from(reportExports).where(eq(reportExports.id, id));
  return row;
}

export async function updateExport(db: DbOrTx, id: string, values: Partial<typeof reportExports.$inferInsert>): Promise<void> {
  await db.update(reportExports).set(values).where(eq(reportExports.id, id));
}

/**
 * Exports past their keeping time, oldest first: finished (written, failed or expired) before
 * `cutoff`, or never finished and asked for a day before it (a job that died with it).
 */
export async function staleExports(db: DbOrTx, cutoff: Date, limit: number): Promise<Array<{ id: string; fileKey: string | null }>> {
  const at = cutoff.toISOString();
  return db
    .select({ id: reportExports.id, fileKey: reportExports.fileKey })
    .from(reportExports)
    .where(
      sql`(${reportExports.status} in ('done', 'failed', 'expired') and coalesce(${reportExports.finishedAt}, ${reportExports.createdAt}) < ${at}::timestamptz)
        or (${reportExports.status} in ('pending', 'running') and ${reportExports.createdAt} < ${at}::timestamptz - interval '1 day')`,
    )
    .orderBy(reportExports.createdAt)
    .limit(limit);
}

export async function deleteExport(db: DbOrTx, id: string): Promise<void> {
  await db.delete(reportExports).where(eq(reportExports.id, id));
}

export { COUNTED };

/**
 * Issue 24: the questions an event's exports get a column for: those asked, in their order, then
 * removed ones that have answers (modules/questions writes them; read here, reports imports no module).
 */
export async function exportQuestions(db: DbOrTx, tenantId: string, eventId: string): Promise<Array<{ id: string; label: string; scope: string }>> {
  return rowsOf(
    db,
    sql`select q.id, q.label, q.scope from event_questions q
      where q.tenant_id = ${tenantId} and q.event_id = ${eventId}
        and (q.removed_at is null or exists (select 1 from order_answers a where a.tenant_id = q.tenant_id and a.event_id = q.event_id and a.question_id = q.id))
      order by q.removed_at is not null, q.sort_order, q.created_at`,
  ) as Promise<Array<{ id: string; label: string; scope: string }>>;
}
