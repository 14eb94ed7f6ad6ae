// Box office (issue 23): POST …/box-office/sales over HTTP on loopback against a real PostgreSQL server.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npx tsx bench/box-office.ts
//
// Creates a scratch database on that server (dropped afterwards unless BENCH_KEEP_DB=1), starts the
// server in this process, seeds an event with one ticket type, and signs in 20 box office sellers
// (event_box_office on the event), one per device. Then, open loop, every device sells a cash sale of
// one ticket at the same instant, BENCH_RATE times a second (each with its own idempotency key: the mq_take_holds take of
// the website, the paid order, its ticket issued, all in one transaction; every sale contends for
// the same ticket type and event rows). A reference, GET /api/health (one query), is sent on its own
// connection at the same rate through the same run. Prints p50/p99 of the sales and of the reference,
// and checks the counts: every sale answered 200, as many orders and tickets as sales, the ticket
// type's remaining down by exactly that. Exit code 1 when a count is off or the sales' p99 is over
// the budget (100 ms). Knobs: BENCH_DEVICES (20), BENCH_RATE (sales per second per device, 0.5),
// BENCH_SECONDS (15), BENCH_POOL (10), BENCH_BUDGET_MS (100).
//
// What a sale costs the server's one thread (the burst of 20 queues behind it): after the warm-up,
// BENCH_CPU_CONNECTIONS (4) connections sell BENCH_CPU_SALES (1000; 0 skips it) cash sales as fast as
// they are answered, and the server thread's CPU over them (Linux /proc/self/task/<pid>/stat) is
// divided by their number; the reference, GET /api/health, is sent the same way as many times, and
// the open loop's seconds print the same figure. BENCH_PROFILE=file.cpuprofile writes the server
// thread's CPU profile over the open loop's seconds; BENCH_PROFILE_CLOSED=prefix the closed loop's
// (prefix-health.cpuprofile, prefix-sale.cpuprofile). The open loop's PostgreSQL CPU (this database's
// backends, from /proc) is printed per sale beside the server thread's.

import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { call, cpuMsOf, runLoad, serverThreadCpuMs, startProfile, type Request } from './load-generator.js';
import { loadServer } from './server.js';
import { percentile, requirePostgres, seedTenant, startServer, watchStatements, type LoggedStatement } from './support.js';

/**
 * BENCH_TRACE=1: a few sales one after the other on the idle server, then one more with every
 * statement it sends to PostgreSQL listed (text and time), counted by the pg client.
 */
async function traceOneSale(p: { port: number; host: string; path: string; ticketTypeId: string; device: { cookie: string; csrf: string } }) {
  const sale = () =>
    call(p.port, p.host, 'POST', p.path, { idempotencyKey: randomUUID(), lines: [{ ticketTypeId: p.ticketTypeId, quantity: 1 }], paymentMethod: 'cash', cashTendered: 5000 }, { cookie: p.device.cookie, 'x-csrf-token': p.device.csrf });
  for (let i = 0; i < 20; i++) await sale();
  const statements = await watchStatements(110);
  const log: LoggedStatement[] = [];
  statements.state.log = log;
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    log.length = 0;
    const t0 = performance.now();
    const res = await sale();
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`trace sale: ${res.status} ${JSON.stringify(res.body)}`);
  }
  statements.stop();
  console.log(`\nOne sale alone (last of 10; median of the 10: ${times.sort((a, b) => a - b)[5]!.toFixed(1)} ms): ${log.length} statements, ${log.reduce((n, l) => n + l.ms, 0).toFixed(1)} ms in them`);
  for (const l of log) console.log(`  ${l.ms.toFixed(2).padStart(7)} ms  ${l.text}`);
}

async function main() {
  const { eq, sql } = await import('drizzle-orm');
  const api = await loadServer({ source: true });
  const { events, memberships, tickets, ticketTypes, users, hashPassword } = api;

  const adminUrl = requirePostgres('box-office.ts');
  const DEVICES = Number(process.env.BENCH_DEVICES ?? 20);
  // A real box office sale takes seconds (choose, pay, hand over): one sale per device every 2 s, all 20 at the same instant.
  const RATE = Number(process.env.BENCH_RATE ?? 0.5);
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
  const POOL = Number(process.env.BENCH_POOL ?? 10);
  const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 100);
  const WARM_SECONDS = 3;
  const CPU_SALES = Number(process.env.BENCH_CPU_SALES ?? 1000);
  const CPU_CONNECTIONS = Number(process.env.BENCH_CPU_CONNECTIONS ?? 4);

  const server = await startServer({ api, adminUrl, poolSize: POOL, env: { LOG_LEVEL: 'silent', JOBS_POLL_MS: '0', RATE_LIMIT_AUTH_PER_MINUTE: '100000' } });
  let ok = false;
  try {
    const { deps, port } = server;
    const { tenant, host } = await seedTenant(api, server, { name: 'Bench Box Office', url: 'boxoffice' });
    const seedEvent = async (label: string) => {
      const eventId = randomUUID();
      const ticketTypeId = randomUUID();
      await deps.db.insert(events).values({ tenantId: tenant.id, id: eventId, name: `Door ${label}`, urlName: label, status: 'published', publishedAt: new Date() });
      await deps.db.insert(ticketTypes).values({ tenantId: tenant.id, id: ticketTypeId, eventId, name: 'General Admission', price: 2500, quantity: 100_000, remaining: 100_000 });
      return { eventId, ticketTypeId };
    };
    const warm = await seedEvent('warmup');
    const show = await seedEvent('show');
    const cpuEvent = await seedEvent('cpu');

    const passwordHash = await hashPassword('Bench-box-1!');
    const devices: Array<{ cookie: string; csrf: string }> = [];
    for (let d = 0; d < DEVICES; d++) {
      const userId = randomUUID();
      const email = `box${d}@example.test`;
      await deps.db.insert(users).values({ id: userId, email, passwordHash, firstName: 'Box', lastName: `Office ${d + 1}`, status: 'ACTIVE' });
      for (const eventId of [warm.eventId, show.eventId, cpuEvent.eventId])
        await deps.db.insert(memberships).values({ id: randomUUID(), userId, groupId: tenant.id, tenantId: tenant.id, eventId, roles: ['event_box_office'] });
      const login = await call(port, host, 'POST', '/api/auth/login', { username: email, password: 'Bench-box-1!' });
      if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${JSON.stringify(login.body)}`);
      const device = { cookie: login.cookies.map((c) => c.split(';')[0]).join('; '), csrf: login.body.csrfToken };
      // A cash sale goes into the seller's open drawer (DRAWER_NOT_OPEN otherwise): each device opens its shift's drawer.
      const drawer = await call(port, host, 'POST', `/api/tenants/${tenant.id}/cash-drawers`, { details: { openingFloat: 10_000 } }, { cookie: device.cookie, 'x-csrf-token': device.csrf });
      if (drawer.status !== 200 && drawer.status !== 201) throw new Error(`open drawer ${email}: ${drawer.status} ${JSON.stringify(drawer.body)}`);
      devices.push(device);
    }

    const schedule = (event: { eventId: string; ticketTypeId: string }, seconds: number) => {
      const requests: Request[] = [];
      const path = `/api/tenants/${tenant.id}/events/${event.eventId}/box-office/sales`;
      // Every device sells at the same instant: 20 sales arrive together each period.
      const spread = 0;
      for (let d = 0; d < DEVICES; d++) {
        for (let k = 0; k < Math.round(RATE * seconds); k++) {
          const body = JSON.stringify({ idempotencyKey: randomUUID(), lines: [{ ticketTypeId: event.ticketTypeId, quantity: 1 }], paymentMethod: 'cash', cashTendered: 5000 });
          const raw =
            `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `Cookie: ${devices[d]!.cookie}\r\nX-CSRF-Token: ${devices[d]!.csrf}\r\n\r\n${body}`;
          requests.push({ i: requests.length, due: (k * 1000) / RATE + d * spread, key: `device-${d}`, raw });
        }
      }
      const health = `GET /api/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
      for (let k = 0; k < Math.round(RATE * seconds * 10); k++) requests.push({ i: requests.length, due: (k * 1000) / (RATE * 10) + 50, key: 'health', raw: health });
      return requests;
    };
    if (process.env.BENCH_TRACE === '1') {
      await traceOneSale({ port, host, path: `/api/tenants/${tenant.id}/events/${warm.eventId}/box-office/sales`, ticketTypeId: warm.ticketTypeId, device: devices[0]! });
      ok = true;
      return;
    }
    const warmRequests = schedule(warm, WARM_SECONDS);
    const requests = schedule(show, SECONDS);
    const isSale = (r: Request) => r.key !== 'health';

    await runLoad(port, [warmRequests]);

    // The CPU of a sale, closed loop: CPU_CONNECTIONS connections sell as fast as they are answered
    // (each sale from the next device, so from its own drawer), so that the server's thread is busy
    // with sales alone; its CPU over them, divided by their number, is what one sale costs it.
    let closedLine = '';
    let cpuPerSale = Number.NaN;
    let cpuPerHealth = Number.NaN;
    if (CPU_SALES > 0) {
      const path = `/api/tenants/${tenant.id}/events/${cpuEvent.eventId}/box-office/sales`;
      const closedRequests: Request[] = Array.from({ length: CPU_SALES }, (_, i) => {
        const d = i % DEVICES;
        const body = JSON.stringify({ idempotencyKey: randomUUID(), lines: [{ ticketTypeId: cpuEvent.ticketTypeId, quantity: 1 }], paymentMethod: 'cash', cashTendered: 5000 });
        const raw =
          `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Cookie: ${devices[d]!.cookie}\r\nX-CSRF-Token: ${devices[d]!.csrf}\r\n\r\n${body}`;
        return { i, due: 0, key: 'cpu', raw };
      });
      const healthRaw = `GET /api/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
      const closedProfile = process.env.BENCH_PROFILE_CLOSED;
      const healthProfiler = closedProfile ? await startProfile() : null;
      const healthBefore = serverThreadCpuMs();
      await runLoad(port, [closedRequests.map((r) => ({ ...r, raw: healthRaw }))], CPU_CONNECTIONS);
      cpuPerHealth = (serverThreadCpuMs() - healthBefore) / closedRequests.length;
      await healthProfiler?.stop(`${closedProfile}-health.cpuprofile`);
      const saleProfiler = closedProfile ? await startProfile() : null;
      const before = serverThreadCpuMs();
      const startedAt = performance.now();
      const [closedSamples] = await runLoad(port, [closedRequests], CPU_CONNECTIONS);
      const seconds = (performance.now() - startedAt) / 1000;
      const spent = serverThreadCpuMs() - before;
      await saleProfiler?.stop(`${closedProfile}-sale.cpuprofile`);
      const good = closedSamples!.filter((x) => x.status === 200).length;
      if (good !== closedSamples!.length) throw new Error(`closed loop: ${closedSamples!.length - good} sales refused: ${closedSamples!.find((x) => x.status !== 200)!.body.slice(0, 200)}`);
      const ms = closedSamples!.map((x) => x.ms).sort((a, b) => a - b);
      cpuPerSale = spent / closedSamples!.length;
      closedLine =
        `${cpuPerSale.toFixed(2)} ms over ${closedSamples!.length} sales (${good} x 200), ${CPU_CONNECTIONS} connections: ${(closedSamples!.length / seconds).toFixed(0)} sales/s,` +
        ` p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms; reference GET /api/health the same way ${cpuPerHealth.toFixed(3)} ms` +
        ` (a sale = ${(cpuPerSale / cpuPerHealth).toFixed(1)} health checks)`;
    }

    // PostgreSQL's CPU over the open loop: this database's backends (the server's pool), read from /proc
    // (PostgreSQL on this machine; a backend that ended during the run is not counted).
    const backendCpu = async () => {
      const scratch = server.scratch;
      if (!scratch) return new Map<number, number>();
      const { rows } = await scratch.admin.query('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [scratch.name]);
      return new Map(rows.map((r: { pid: number }) => [r.pid, cpuMsOf(`/proc/${r.pid}/stat`) || 0] as const));
    };
    const profiler = process.env.BENCH_PROFILE ? await startProfile() : null;
    const pg0 = await backendCpu();
    const serverBefore = serverThreadCpuMs();
    const [samples] = await runLoad(port, [requests]);
    const serverMs = serverThreadCpuMs() - serverBefore;
    const pg1 = await backendCpu();
    const pgMs = [...pg1].reduce((sum, [pid, ms]) => sum + ms - (pg0.get(pid) ?? 0), 0);
    await profiler?.stop(process.env.BENCH_PROFILE!);
    const byIndex = new Map(samples!.map((s) => [s.i, s]));
    const sales = requests.filter(isSale).map((r) => byIndex.get(r.i)!);
    const reference = requests.filter((r) => !isSale(r)).map((r) => byIndex.get(r.i)!);
    const saleMs = sales.map((s) => s.ms).sort((a, b) => a - b);
    const refMs = reference.map((s) => s.ms).sort((a, b) => a - b);
    const statuses = new Map<number, number>();
    for (const s of sales) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
    const [orderCount] = await deps.db.execute(sql`select count(*)::int as n from orders where event_id = ${show.eventId}::uuid and status = 'processing'`).then((r: any) => r.rows);
    const [issued] = await deps.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(tickets).where(eq(tickets.eventId, show.eventId));
    const [type] = await deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, show.ticketTypeId));

    const line = (label: string, value: string) => console.log(`  ${label.padEnd(34)} ${value}`);
    console.log(
      `\nBox office: ${DEVICES} devices x ${RATE} cash sales/s for ${SECONDS} s (open loop, ${sales.length} sales of one ticket type)` +
        ` (PostgreSQL, pool ${POOL}, Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)})`,
    );
    line('sale p50 / p99', `${percentile(saleMs, 50).toFixed(1)} ms / ${percentile(saleMs, 99).toFixed(1)} ms (max ${saleMs.at(-1)!.toFixed(1)} ms)`);
    line('reference GET /api/health p50 / p99', `${percentile(refMs, 50).toFixed(1)} ms / ${percentile(refMs, 99).toFixed(1)} ms (sale p99 = ${(percentile(saleMs, 99) / percentile(refMs, 99)).toFixed(1)}x reference p99)`);
    if (closedLine) line('CPU per sale: server thread, closed', closedLine);
    // The open loop's seconds, the health checks (one in three requests at the defaults) counted in: an upper bound.
    line('CPU per sale: server thread, open', `${(serverMs / sales.length).toFixed(2)} ms (health checks included)`);
    line('PostgreSQL CPU per sale, open', `${(pgMs / sales.length).toFixed(2)} ms (this database's backends, health checks included)`);
    line('sale answers by status', [...statuses].map(([s, n]) => `${n} x ${s}`).join(', '));
    const failed = sales.find((s) => s.status !== 200);
    if (failed) line('first refusal', failed.body.slice(0, 200));
    line('orders / tickets / remaining', `${orderCount?.n} / ${issued?.n} / ${type?.remaining}`);
    const countsOk = statuses.get(200) === sales.length && orderCount?.n === sales.length && issued?.n === sales.length && type?.remaining === 100_000 - sales.length;
    const budgetOk = percentile(saleMs, 99) <= BUDGET_MS;
    console.log(countsOk ? '  OK: every sale sold once, as many tickets taken as sold.' : '  FAILED: the sales do not add up.');
    console.log(budgetOk ? `  OK: sale p99 within the ${BUDGET_MS} ms budget.\n` : `  OVER BUDGET: sale p99 above ${BUDGET_MS} ms.\n`);
    ok = countsOk && budgetOk;
  } finally {
    await server.close();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
