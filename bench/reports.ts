// Reports at scale: dashboards, a searched order list and CSV export against a real PostgreSQL server.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npx tsx bench/reports.ts
//   BENCH_ORDERS=200000 DATABASE_URL=… npx tsx bench/reports.ts      # the full size: 1M tickets
//
// Creates a scratch database on that server (dropped afterwards unless BENCH_KEEP_DB=1), seeds one
// tenant with BENCH_ORDERS orders (default 20,000) of BENCH_TICKETS_PER_ORDER tickets (5) over
// BENCH_EVENTS events (20) with generate_series, plus refunds (succeeded, pending), voided, used
// and complimentary tickets and subscribers; then starts the server in this process and measures
// over HTTP on loopback, each next to a reference measured in the same run:
//   - the tenant and the event dashboard (budget 100 ms), reference: `select 1` through the pool
//     and GET /api/health over HTTP;
//   - an event's order list searched by e-mail, and the tenant-wide "find an order" box (50 ms);
//   - a CSV export of the tenant's orders and of an event's tickets (>= 100k rows/s), with the
//     process's resident memory before, at its peak during the export, and after.
// Prints median and p95 of BENCH_RUNS (15) runs after BENCH_WARMUP (3).

import { performance } from 'node:perf_hooks';
import { loadServer } from './server.js';
import { percentile, requirePostgres, startServer } from './support.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000);
const PER_ORDER = Number(process.env.BENCH_TICKETS_PER_ORDER ?? 5);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function measure(label: string, budget: number | null, fn: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const verdict = budget === null ? '' : p50 <= budget ? `  within ${budget} ms` : `  OVER ${budget} ms`;
  console.log(`${label.padEnd(48)} p50 ${p50.toFixed(2).padStart(8)} ms   p95 ${percentile(times, 95).toFixed(2).padStart(8)} ms${verdict}`);
  return p50;
}

async function main() {
  const { sql } = await import('drizzle-orm');
  const api = await loadServer({ source: true });
  const { Client, givenTenant, givenUser } = await import('../apps/server/test/harness.js');
  const { REPORT_PATHS } = await import('@marquee/core');
  const { startExport, runExport } = await import('../apps/server/src/modules/reports/exports.js');
  const { findExport } = await import('../apps/server/src/modules/reports/repository.js');

  const adminUrl = requirePostgres('reports.ts');
  const bench = await startServer({ api, adminUrl, env: { LOG_LEVEL: 'silent', JOBS_POLL_MS: '0' } });
  try {
    const { app, port, config } = bench;
    const server = { app, port, config, close: async () => {}, client: () => new Client(port, `${config.baseDomain}:${port}`) };
    const db = app.deps.db;

    // ---- seed ------------------------------------------------------------------------------------
    const tenant = await givenTenant(server, { name: 'Bench Events', url: 'bench' });
    const tickets = ORDERS * PER_ORDER;
    console.log(`Seeding ${ORDERS.toLocaleString('en-US')} orders, ${tickets.toLocaleString('en-US')} tickets over ${EVENTS} events…`);
    const t0 = performance.now();
    const T = tenant.id;
    // A bulk load: the rollup triggers are off for it (replica mode) and the rollup is rebuilt at the end.
    await db.transaction(async (tx) => {
    const db = tx;
    await db.execute(sql`set local session_replication_role = replica`);
    // A uuid from a text, deterministic, with the version and variant bits zod's z.uuid() checks.
    await db.execute(sql.raw(`create function bench_uuid(t text) returns uuid language sql immutable as
      $$ select (substr(h, 1, 12) || '4' || substr(h, 14, 3) || '8' || substr(h, 18, 15))::uuid from md5(t) h $$`));
    await db.execute(sql`insert into events (tenant_id, id, name, url_name, status, published_at)
      select ${T}::uuid, bench_uuid('e' || g)::uuid, 'Bench Event ' || g, 'bench-' || g, 'published', now() from generate_series(1, ${EVENTS}) g`);
    // Orders: 97% completed, 2% processing, 1% holds or cancelled (never counted); spread over 180 days.
    await db.execute(sql`insert into orders (tenant_id, id, order_uid, event_id, status, email, first_name, last_name, phone, payment_method,
        charge_id, ticket_count, subtotal, surcharge, processing_fee, vat, donation, donation_fee, discount, total_amount, tenant_total, platform_total, created_at, paid_at)
      select ${T}::uuid, bench_uuid('o' || g)::uuid, 'B' || lpad(g::text, 11, '0'), bench_uuid('e' || (1 + g % ${EVENTS}))::uuid,
        case when g % 100 = 0 then 'draft' when g % 100 = 1 then 'cancelled' when g % 50 = 2 then 'processing' else 'completed' end,
        'buyer' || g || '@example.test', (array['Ann','Bob','Cara','Dev','Eli','Fay'])[1 + g % 6], 'Buyer' || g, '+1617555' || lpad((g % 10000)::text, 4, '0'), 'card',
        'ch_' || g, ${PER_ORDER}, ${PER_ORDER} * 2500, ${PER_ORDER} * 150, 300, ${PER_ORDER} * 200, case when g % 10 = 0 then 500 else 0 end,
        case when g % 10 = 0 then 100 else 0 end, case when g % 20 = 0 then 1000 else 0 end,
        ${PER_ORDER} * 2500 + ${PER_ORDER} * 150 + 300 + ${PER_ORDER} * 200 + (case when g % 10 = 0 then 600 else 0 end) - (case when g % 20 = 0 then 1000 else 0 end),
        ${PER_ORDER} * 2500 + ${PER_ORDER} * 200 - (case when g % 20 = 0 then 1000 else 0 end), ${PER_ORDER} * 150 + (case when g % 10 = 0 then 100 else 0 end),
        now() - ((g % 180) || ' days')::interval - ((g % 86400) || ' seconds')::interval, now()
      from generate_series(1, ${ORDERS}) g`);
    await db.execute(sql`insert into tickets (tenant_id, id, ticket_uid, order_id, event_id, ticket_type_id, ticket_type_name, price, full_name, email, used, voided, created_at)
      select ${T}::uuid, bench_uuid('t' || g)::uuid, 'K' || lpad(g::text, 11, '0'), bench_uuid('o' || o)::uuid, bench_uuid('e' || (1 + o % ${EVENTS}))::uuid,
        bench_uuid('tt' || (1 + o % ${EVENTS}) || '-' || (g % 2))::uuid, case when g % 50 = 0 then 'Comp' else 'General' end,
        case when g % 50 = 0 then 0 else 2500 end, 'Guest ' || g, 'guest' || g || '@example.test', g % 3 = 0, g % 97 = 0,
        now() - ((o % 180) || ' days')::interval - ((o % 86400) || ' seconds')::interval
      from (select g, 1 + (g - 1) / ${PER_ORDER} as o from generate_series(1, ${tickets}) g) s`);
    await db.execute(sql`insert into refunds (tenant_id, id, order_id, event_id, amount, tenant_amount, platform_amount, kind, reason, status, created_at)
      select ${T}::uuid, bench_uuid('r' || g)::uuid, bench_uuid('o' || g)::uuid, bench_uuid('e' || (1 + g % ${EVENTS}))::uuid, 2500, 2300, 200, 'organiser', 'Asked',
        case when g % 3 = 0 then 'pending' else 'succeeded' end, now()
      from generate_series(1, ${ORDERS}) g where g % 50 = 7`);
    await db.execute(sql`insert into subscribers (tenant_id, id, event_id, email, created_at)
      select ${T}::uuid, bench_uuid('s' || g)::uuid, bench_uuid('e' || (1 + g % ${EVENTS}))::uuid, 'buyer' || g || '@example.test', now()
      from generate_series(1, ${ORDERS}) g where g % 10 = 3`);
    await db.execute(sql`select mq_rebuild_report_totals()`);
    });
    await db.execute(sql`vacuum analyze`);
    console.log(`Seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

    const user = await givenUser(server, { tenant: { id: T, roles: ['tenant_admin'] } });
    const client = server.client();
    await client.login(user.email);
    const get = async (url: string) => {
      const res = await client.get(url);
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const operator = server.client();
    await operator.login((await givenUser(server, { platformRoles: ['platform_report'] })).email);
    const eventId = ((await db.execute(sql`select bench_uuid('e1') as id`)) as unknown as { rows: Array<{ id: string }> }).rows[0]!.id;

    // ---- reads -----------------------------------------------------------------------------------
    await measure('reference: select 1 (pool round trip)', null, () => db.execute(sql`select 1`));
    await measure('reference: GET /api/health (HTTP)', null, () => client.get('/api/health'));
    await measure('tenant dashboard', 100, () => get(REPORT_PATHS.tenantDashboard(T)));
    await measure('event dashboard', 100, () => get(REPORT_PATHS.eventDashboard(T, eventId)));
    const emailSearch = `?filters=${encodeURIComponent('details.email=buyer1234')}`;
    await measure('event order list, searched by e-mail', 50, () => get(`${REPORT_PATHS.eventOrders(T, eventId)}${emailSearch}`));
    await measure('event order list, first page', 50, () => get(REPORT_PATHS.eventOrders(T, eventId)));
    const find = (text: string) => `?filters=${encodeURIComponent(`details.search=${text}`)}`;
    await measure('tenant "find an order", by order id', 50, () => get(`${REPORT_PATHS.tenantOrders(T)}${find('B00000012345')}`));
    await measure('tenant "find an order", by e-mail', 50, () => get(`${REPORT_PATHS.tenantOrders(T)}${find('buyer12345@')}`));
    await measure('event ticket list, first page', 50, () => get(REPORT_PATHS.eventTickets(T, eventId)));
    await measure('platform tenant list (Sales, Taxes, Donations)', null, () => operator.get(REPORT_PATHS.tenantList()));
    await measure('tenant "find an order", by name', 50, () => get(`${REPORT_PATHS.tenantOrders(T)}${find('ann buyer12')}`));
    await measure('tenant "find an order", by ticket id', 50, () => get(`${REPORT_PATHS.tenantOrders(T)}${find('K00000061234')}`));

    // ---- exports ---------------------------------------------------------------------------------
    const deps = app.deps;
    const exportOnce = async (label: string, scope: { tenantId: string; eventId?: string }, kind: 'orders' | 'tickets') => {
      const authUser = { id: user.id, email: user.email, status: 'ACTIVE', firstName: '', lastName: '' };
      const started = await startExport({ deps, user: authUser, kind, scope, query: {} });
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const t = performance.now();
      await runExport({ deps, exportId: started.exportId, attempt: 1 });
      const seconds = (performance.now() - t) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      const row = await findExport(db, started.exportId);
      const rows = row!.rowCount;
      const rate = rows / seconds;
      console.log(
        `${label.padEnd(48)} ${rows.toLocaleString('en-US').padStart(9)} rows in ${seconds.toFixed(2)} s = ${Math.round(rate).toLocaleString('en-US')} rows/s` +
          `${rate >= 100_000 ? '  within' : '  UNDER'} 100k rows/s; RSS before ${mb(before)}, peak ${mb(peak)}, after ${mb(process.memoryUsage().rss)}`,
      );
    };
    console.log('');
    await exportOnce('CSV export: one event’s tickets', { tenantId: T, eventId }, 'tickets');
    await exportOnce('CSV export: every order of the tenant', { tenantId: T }, 'orders');
    await exportOnce('CSV export: every order of the tenant (again)', { tenantId: T }, 'orders');
    console.log(`\nPeak RSS of the process: ${mb(process.resourceUsage().maxRSS * 1024)}`);
  } catch (err) {
    console.error(err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  } finally {
    await bench.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
