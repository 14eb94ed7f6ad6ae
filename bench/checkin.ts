// Door check-in (issue 11): POST …/checkin/scans over HTTP on loopback against a real PostgreSQL server.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:55401/postgres npx tsx bench/checkin.ts
//
// Creates a scratch database on that server (dropped afterwards unless BENCH_KEEP_DB=1), starts the
// server in this process, seeds an event with paid orders of two tickets each, signs each ticket's
// code as the PDF prints it, and signs in 20 door volunteers (event_checkin on the event), one per
// device. Then, open loop, each device scans 10 tickets a second: every ticket is scanned by two
// devices at the same instant (devices pair up: 0 and 1, 2 and 3, …), so every admission races
// another door. A reference, GET /api/health (one query), is sent on its own connection at 10 a
// second through the same run. Prints p50/p99 of the scans and of the reference, and checks that
// every ticket was admitted exactly once (one 'admitted' and one 'already_used' answer per ticket,
// tickets.used and the recorded scans agree). Exit code 1 when a count is off or the scans' p99 is
// over a budget: issue 11's 100 ms, and issue 26's 50 ms at 20 devices x 10 scans a second.
//
// What a scan costs (issue 26), closed loops in the same run: the server thread's CPU per scan, beside
// two references measured the same way in the same process: GET /api/health, and a whole order as the
// issue's own figure was measured ("0.25 ms for a whole order": flash-sale.ts's closed loop, the
// server thread's CPU per order sent): PLACE ORDER of one ticket with the attendee site's body, on 200
// connections, 1,400 orders sent for 1,000 tickets (1,000 held, 400 sold out) after 4,000 warm-up
// orders on another event (run after the open loop, whose p99 is then measured as before). The issue's
// target, 0.5 ms a scan against 0.25 ms an order, is a scan of at most 2 whole orders; both verdicts
// (the absolute and the ratio) are printed.
//
// The load generator runs in a worker thread of this process (plain sockets, like wrk), so that it
// does not share the server's event loop. Knobs: BENCH_DEVICES (20), BENCH_RATE (scans per second
// per device, 10), BENCH_SECONDS (measured seconds, 15), BENCH_POOL (pg pool, 10), BENCH_BUDGET_MS (100),
// BENCH_CPU_BUDGET_MS (0.5: the server thread's CPU per scan), BENCH_PROFILE=file.cpuprofile (the server
// thread's CPU profile over the measured seconds), BENCH_PROFILE_CLOSED=prefix (profiles of the closed loop's
// health checks and scans: prefix-health.cpuprofile, prefix-scan.cpuprofile), BENCH_CPU_SCANS (4000: scans in the closed loop that
// measures a scan's CPU; 0 skips it), BENCH_CPU_CONNECTIONS (4), BENCH_ORDERS (1400: orders sent in the whole
// order's reference; 0 skips it), BENCH_ORDER_TICKETS (1000), BENCH_ORDER_WARMUP (4000), BENCH_ORDER_CONNECTIONS
// (200), BENCH_ORDER_RATIO_BUDGET (2: a scan's CPU in whole orders), BENCH_RUSH_BUDGET_MS (50: issue 26's p99), BENCH_LOG_LEVEL (silent; `info` is production's
// default: the server's log lines are then written one write(2) each, as pino writes them to stdout, to
// BENCH_LOG_FILE, /dev/null unless given).

import { randomUUID } from 'node:crypto';
import { openSync, writeSync } from 'node:fs';
import os from 'node:os';
import { call, runClosedPhases, runLoad, serverThreadCpuMs, startProfile, type Request } from './load-generator.js';
import { loadServer } from './server.js';
import { percentile, requirePostgres, seedGaEvent, seedTenant, startServer } from './support.js';

async function main() {
  const { eq, sql } = await import('drizzle-orm');
  const api = await loadServer();
  const { checkinScans, events, memberships, tickets, ticketTypes, users, hashPassword, signTicketCode } = api;

  const adminUrl = requirePostgres('checkin.ts');
  const DEVICES = Number(process.env.BENCH_DEVICES ?? 20);
  const RATE = Number(process.env.BENCH_RATE ?? 10);
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
  const POOL = Number(process.env.BENCH_POOL ?? 10);
  const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 100);
  const CPU_BUDGET_MS = Number(process.env.BENCH_CPU_BUDGET_MS ?? 0.5);
  const CPU_SCANS = 2 * Math.round(Number(process.env.BENCH_CPU_SCANS ?? 4000) / 2);
  const CPU_CONNECTIONS = Number(process.env.BENCH_CPU_CONNECTIONS ?? 4);
  // The whole order's reference: flash-sale.ts's default closed loop (its knobs' defaults).
  const ORDERS = Number(process.env.BENCH_ORDERS ?? 1400);
  const ORDER_TICKETS = Number(process.env.BENCH_ORDER_TICKETS ?? 1000);
  const ORDER_WARMUP = Number(process.env.BENCH_ORDER_WARMUP ?? 4000);
  const ORDER_CONNECTIONS = Number(process.env.BENCH_ORDER_CONNECTIONS ?? 200);
  const ORDER_RATIO_BUDGET = Number(process.env.BENCH_ORDER_RATIO_BUDGET ?? 2);
  const RUSH_BUDGET_MS = Number(process.env.BENCH_RUSH_BUDGET_MS ?? 50);
  let cpuPerScan = Number.NaN;
  let cpuPerOrder = Number.NaN;
  const WARM_SECONDS = 3;
  if (DEVICES % 2 !== 0) throw new Error('BENCH_DEVICES must be even: devices scan in pairs');
  // Each pair of devices scans RATE tickets a second together.
  const ticketsFor = (seconds: number) => (DEVICES / 2) * RATE * seconds;

  const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'silent';
  const logFd = LOG_LEVEL === 'silent' ? null : openSync(process.env.BENCH_LOG_FILE ?? '/dev/null', 'a');
  const logStream = logFd === null ? undefined : { write: (line: string) => void writeSync(logFd, line) };
  const server = await startServer({
    api,
    adminUrl,
    poolSize: POOL,
    logStream,
    // The order's reference runs as flash-sale.ts runs it: the built-in test payment driver, no order rate limit.
    env: { LOG_LEVEL, JOBS_POLL_MS: '0', RATE_LIMIT_AUTH_PER_MINUTE: '100000', PAYMENT_DRIVER: 'test', RATE_LIMIT_ORDERS_PER_MINUTE: '1000000' },
  });
  let ok = false;
  try {
    const { deps, config, port } = server;
    const { tenant, host } = await seedTenant(api, server, { name: 'Bench Doors', url: 'doors' });

    /** An event with `count` tickets in paid orders of two; answers the tickets' signed codes in a shuffled order. */
    const seedEvent = async (label: string, count: number) => {
      const eventId = randomUUID();
      const ticketTypeId = randomUUID();
      await deps.db.insert(events).values({ tenantId: tenant.id, id: eventId, name: `Doors ${label}`, urlName: label, status: 'published', publishedAt: new Date() });
      await deps.db.insert(ticketTypes).values({ tenantId: tenant.id, id: ticketTypeId, eventId, name: 'General Admission', price: 2500, quantity: count, remaining: 0 });
      await deps.db.execute(sql`
        insert into orders (tenant_id, id, order_uid, event_id, status, email, first_name, last_name, ticket_count, subtotal, total_amount, tenant_total, paid_at)
        select ${tenant.id}::uuid, gen_random_uuid(), ${label.toUpperCase()} || lpad(g::text, 8, '0'), ${eventId}::uuid, 'completed', 'buyer' || g || '@example.test',
          'Bench', 'Buyer ' || g, 2, 5000, 5000, 5000, now()
        from generate_series(1, ${Math.ceil(count / 2)}) g`);
      await deps.db.execute(sql`
        insert into tickets (tenant_id, id, ticket_uid, order_id, event_id, ticket_type_id, ticket_type_name, price, full_name, email)
        select o.tenant_id, gen_random_uuid(), upper(md5(o.id::text || k)), o.id, o.event_id, ${ticketTypeId}::uuid, 'General Admission', 2500,
          o.first_name || ' ' || o.last_name, o.email
        from orders o cross join generate_series(1, 2) k where o.tenant_id = ${tenant.id}::uuid and o.event_id = ${eventId}::uuid`);
      const rows = await deps.db.select({ id: tickets.id, uid: tickets.ticketUid }).from(tickets).where(eq(tickets.eventId, eventId));
      const chosen = rows.slice(0, count).sort(() => Math.random() - 0.5);
      return { eventId, tickets: chosen.map((t) => ({ id: t.id, code: signTicketCode(config.secret, eventId, t.uid) })) };
    };
    const warm = await seedEvent('warmup', ticketsFor(WARM_SECONDS));
    const door = await seedEvent('show', ticketsFor(SECONDS));
    const cpuEvent = CPU_SCANS > 0 ? await seedEvent('cpu', CPU_SCANS / 2) : null;

    // One door volunteer per device: event_checkin on both events, signed in on the tenant's host.
    const passwordHash = await hashPassword('Bench-door-1!');
    const devices: Array<{ cookie: string; csrf: string }> = [];
    for (let d = 0; d < DEVICES; d++) {
      const userId = randomUUID();
      const email = `door${d}@example.test`;
      await deps.db.insert(users).values({ id: userId, email, passwordHash, firstName: 'Door', lastName: `Volunteer ${d + 1}`, status: 'ACTIVE' });
      for (const eventId of [warm.eventId, door.eventId, ...(cpuEvent ? [cpuEvent.eventId] : [])])
        await deps.db.insert(memberships).values({ id: randomUUID(), userId, groupId: tenant.id, tenantId: tenant.id, eventId, roles: ['event_checkin'] });
      const login = await call(port, host, 'POST', '/api/auth/login', { username: email, password: 'Bench-door-1!' });
      if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${JSON.stringify(login.body)}`);
      const cookie = login.cookies.map((c) => c.split(';')[0]).join('; ');
      devices.push({ cookie, csrf: login.body.csrfToken });
    }

    /** The open-loop schedule: pair p's two devices scan ticket p*RATE*seconds + k at k/RATE s (+ the device's offset in the second). */
    const schedule = (event: { eventId: string; tickets: Array<{ id: string; code: string }> }, seconds: number) => {
      const requests: Request[] = [];
      const scanPath = `/api/tenants/${tenant.id}/events/${event.eventId}/checkin/scans`;
      const perPair = RATE * seconds;
      const spread = 1000 / RATE / (DEVICES / 2);
      for (let d = 0; d < DEVICES; d++) {
        const pair = Math.floor(d / 2);
        for (let k = 0; k < perPair; k++) {
          const ticket = event.tickets[pair * perPair + k]!;
          const body = JSON.stringify({ clientScanId: randomUUID(), deviceId: `device-${d + 1}`, code: ticket.code });
          const raw =
            `POST ${scanPath} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `Cookie: ${devices[d]!.cookie}\r\nX-CSRF-Token: ${devices[d]!.csrf}\r\n\r\n${body}`;
          requests.push({ i: requests.length, due: (k * 1000) / RATE + pair * spread, key: `device-${d}`, raw });
        }
      }
      // The reference: the health check (one query) at RATE a second on its own connection, through the same seconds.
      const health = `GET /api/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
      for (let k = 0; k < RATE * seconds; k++) requests.push({ i: requests.length, due: (k * 1000) / RATE + spread / 2, key: 'health', raw: health });
      return requests;
    };
    const warmRequests = schedule(warm, WARM_SECONDS);
    const requests = schedule(door, SECONDS);
    const isScan = (r: Request) => r.key !== 'health';

    await runLoad(port, [warmRequests]);

    // The CPU of a scan, closed loop: CPU_CONNECTIONS connections scan as fast as they are answered,
    // every ticket twice in a row (an admission, then an already_used), so that the server's thread is
    // busy with scans alone; its CPU over them, divided by their number, is what one scan costs.
    let closedLine = '';
    if (cpuEvent) {
      const scanPath = `/api/tenants/${tenant.id}/events/${cpuEvent.eventId}/checkin/scans`;
      const closedRequests: Request[] = cpuEvent.tickets.flatMap((t, k) =>
        [0, 1].map((n) => {
          const d = (2 * k + n) % DEVICES;
          const body = JSON.stringify({ clientScanId: randomUUID(), deviceId: `device-${d + 1}`, code: t.code });
          const raw =
            `POST ${scanPath} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `Cookie: ${devices[d]!.cookie}\r\nX-CSRF-Token: ${devices[d]!.csrf}\r\n\r\n${body}`;
          return { i: 2 * k + n, due: 0, key: 'cpu', raw };
        }),
      );
      // The reference, the same way: GET /api/health (one query, no session) as many times.
      const healthRaw = `GET /api/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
      const closedProfile = process.env.BENCH_PROFILE_CLOSED;
      const healthProfiler = closedProfile ? await startProfile() : null;
      const healthBefore = serverThreadCpuMs();
      await runLoad(port, [closedRequests.map((r) => ({ ...r, raw: healthRaw }))], CPU_CONNECTIONS);
      const healthCpu = (serverThreadCpuMs() - healthBefore) / closedRequests.length;
      await healthProfiler?.stop(`${closedProfile}-health.cpuprofile`);
      const scanProfiler = closedProfile ? await startProfile() : null;
      const before = serverThreadCpuMs();
      const startedAt = performance.now();
      const [closedSamples] = await runLoad(port, [closedRequests], CPU_CONNECTIONS);
      const seconds = (performance.now() - startedAt) / 1000;
      const spent = serverThreadCpuMs() - before;
      await scanProfiler?.stop(`${closedProfile}-scan.cpuprofile`);
      const good = closedSamples!.filter((x) => x.status === 200).length;
      const ms = closedSamples!.map((x) => x.ms).sort((a, b) => a - b);
      cpuPerScan = spent / closedSamples!.length;
      closedLine =
        `${cpuPerScan.toFixed(3)} ms (budget ${CPU_BUDGET_MS} ms) over ${closedSamples!.length} scans (${good} x 200), closed loop on ${CPU_CONNECTIONS} connections:` +
        ` ${(closedSamples!.length / seconds).toFixed(0)} scans/s, p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms;` +
        ` reference GET /api/health the same way ${healthCpu.toFixed(3)} ms (a scan is ${(cpuPerScan / healthCpu).toFixed(2)} health checks)`;
    }

    const profiler = process.env.BENCH_PROFILE ? await startProfile() : null;
    const cpuBefore = process.cpuUsage();
    const serverBefore = serverThreadCpuMs();
    const serverSysBefore = serverThreadCpuMs('system');
    const [samples] = await runLoad(port, [requests]);
    const cpu = process.cpuUsage(cpuBefore);
    const serverMs = serverThreadCpuMs() - serverBefore;
    const serverSysMs = serverThreadCpuMs('system') - serverSysBefore;
    await profiler?.stop(process.env.BENCH_PROFILE!);

    const byIndex = new Map(samples!.map((s) => [s.i, s]));
    const scans = requests.filter(isScan).map((r) => byIndex.get(r.i)!);
    const reference = requests.filter((r) => !isScan(r)).map((r) => byIndex.get(r.i)!);
    const scanMs = scans.map((s) => s.ms).sort((a, b) => a - b);
    const refMs = reference.map((s) => s.ms).sort((a, b) => a - b);
    const answers = scans.filter((s) => s.status === 200).map((s) => JSON.parse(s.body) as { result: string; ticket: { id: string } | null });
    const perTicket = new Map<string, string[]>();
    for (const a of answers) if (a.ticket) perTicket.set(a.ticket.id, [...(perTicket.get(a.ticket.id) ?? []), a.result]);
    const exactlyOnce = door.tickets.every((t) => (perTicket.get(t.id) ?? []).sort().join() === 'admitted,already_used');
    const [used] = await deps.db
      .select({ n: sql<number>`count(*) filter (where ${tickets.used})`.mapWith(Number) })
      .from(tickets)
      .where(eq(tickets.eventId, door.eventId));
    const [recorded] = await deps.db
      .select({ admitted: sql<number>`count(*) filter (where ${checkinScans.result} = 'admitted')`.mapWith(Number), all: sql<number>`count(*)`.mapWith(Number) })
      .from(checkinScans)
      .where(eq(checkinScans.eventId, door.eventId));
    const statuses = new Map<number, number>();
    for (const s of scans) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);

    // The whole order's reference, after the open loop (so that the door's p99 is measured as before, on a
    // server that has not just sold 5,400 orders): flash-sale.ts's closed loop (a warm-up on another event
    // opens the connections and warms the checkout, then the measured orders on those connections), the
    // server thread's CPU over the measured orders divided by the orders sent, as flash-sale.ts prints it.
    let orderLine = '';
    let orderOk = true;
    if (ORDERS > 0) {
      const warmSale = await seedGaEvent(api, server, tenant.id, { name: 'Flash warm-up', urlName: 'flash-warm-up', tickets: 1_000_000 });
      const sale = await seedGaEvent(api, server, tenant.id, { name: 'Flash sale', urlName: 'flash-sale', tickets: ORDER_TICKETS });
      const orderRequests = (event: { eventId: string; ticketTypeId: string }, total: number): Request[] =>
        Array.from({ length: total }, (_, i) => {
          // flash-sale.ts's order: what the attendee site's checkout sends (checkout-page.tsx).
          const body = JSON.stringify({
            order: { email: `buyer${i}@example.test`, firstName: 'Flash', lastName: 'Buyer', phone: '+15551234567', address1: '1 Main St', address2: 'Apt 1', city: 'Springfield', state: 'NY', zipCode: '10001', country: 'USA' },
            lines: [{ ticketTypeId: event.ticketTypeId, quantity: 1 }],
            source: 'online',
            successUrl: `http://${host}/flash-sale/success`,
            cancelUrl: `http://${host}/flash-sale/account?payment=cancelled`,
            draftOrderUID: null,
          });
          const raw = `POST /api/p/tenants/${tenant.id}/events/${event.eventId}/orders HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
          return { i, due: 0, key: 'order', raw };
        });
      const readings: Array<{ cpu: number; at: number }> = [];
      const [, measuredOrders] = await runClosedPhases(port, [orderRequests(warmSale, ORDER_WARMUP), orderRequests(sale, ORDERS)], ORDER_CONNECTIONS, (phase) => {
        if (phase >= 1) readings.push({ cpu: serverThreadCpuMs(), at: performance.now() });
      });
      const [start, end] = readings as [{ cpu: number; at: number }, { cpu: number; at: number }];
      cpuPerOrder = (end.cpu - start.cpu) / ORDERS;
      const held = measuredOrders!.filter((x) => x.status === 201).length;
      const soldOut = measuredOrders!.filter((x) => x.status === 409).length;
      const other = measuredOrders!.length - held - soldOut;
      orderOk = held === Math.min(ORDER_TICKETS, ORDERS) && other === 0 && measuredOrders!.length === ORDERS;
      orderLine =
        `${cpuPerOrder.toFixed(3)} ms over ${ORDERS} orders sent (${held} x 201, ${soldOut} x 409 sold out, ${other} other) on ${ORDER_CONNECTIONS} connections` +
        ` after ${ORDER_WARMUP} warm-up orders: ${(ORDERS / ((end.at - start.at) / 1000)).toFixed(0)} orders/s`;
    }

    const line = (label: string, value: string) => console.log(`  ${label.padEnd(34)} ${value}`);
    console.log(
      `\nDoor check-in: ${DEVICES} devices x ${RATE} scans/s for ${SECONDS} s (open loop, ${scans.length} scans of ${door.tickets.length} tickets, each by two devices at once)` +
        ` (PostgreSQL, pool ${POOL}, log ${LOG_LEVEL}, Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)})`,
    );
    line('scan p50 / p99', `${percentile(scanMs, 50).toFixed(1)} ms / ${percentile(scanMs, 99).toFixed(1)} ms (max ${scanMs.at(-1)!.toFixed(1)} ms)`);
    line('reference GET /api/health p50 / p99', `${percentile(refMs, 50).toFixed(1)} ms / ${percentile(refMs, 99).toFixed(1)} ms`);
    const p99 = percentile(scanMs, 99);
    const rushOk = p99 <= RUSH_BUDGET_MS;
    line(
      `scan p99 at ${DEVICES} devices x ${RATE}/s`,
      `${p99.toFixed(1)} ms: issue 26's budget ${RUSH_BUDGET_MS} ms (at 20 devices x 10/s) ${rushOk ? 'met' : 'NOT MET'}; issue 11's ${BUDGET_MS} ms ${p99 <= BUDGET_MS ? 'met' : 'NOT MET'}`,
    );
    line('scan answers by status', [...statuses].map(([s, n]) => `${n} x ${s}`).join(', '));
    if (closedLine) line('CPU per scan: server thread, closed loop', closedLine);
    const flashSaleDefaults = ORDERS === 1400 && ORDER_TICKETS === 1000 && ORDER_WARMUP === 4000 && ORDER_CONNECTIONS === 200;
    if (orderLine)
      line(
        'CPU per order: server thread, closed loop',
        `${orderLine} (${flashSaleDefaults ? "flash-sale.ts's default run: the issue's \"0.25 ms for a whole order\"" : "NOT flash-sale.ts's default run (BENCH_ORDER_* knobs)"})`,
      );
    const scanInOrders = cpuPerScan / cpuPerOrder;
    const ratioOk = !(scanInOrders > ORDER_RATIO_BUDGET);
    if (closedLine && orderLine)
      line('a scan in whole orders', `${scanInOrders.toFixed(2)} (issue 26: a scan under 0.5 ms against 0.25 ms an order, so at most ${ORDER_RATIO_BUDGET}: ${ratioOk ? 'met' : 'NOT MET'})`);
    // Over the measured seconds only (the warm-up is a run of its own before them); the reference's
    // health checks (one in 20 requests at the defaults) are counted in, so this is an upper bound.
    line('CPU per scan: server thread', `${(serverMs / scans.length).toFixed(3)} ms (budget ${CPU_BUDGET_MS} ms)`);
    line('  of which in the kernel (system time)', `${(serverSysMs / scans.length).toFixed(3)} ms (the socket writes to PostgreSQL and to the devices)`);
    line('CPU per scan: whole Node process', `${((cpu.user + cpu.system) / 1000 / scans.length).toFixed(3)} ms (server, load generator, V8 helpers)`);
    line('admitted / already used answers', `${answers.filter((a) => a.result === 'admitted').length} / ${answers.filter((a) => a.result === 'already_used').length}`);
    line('tickets used / scans recorded', `${used?.n} / ${recorded?.all} (${recorded?.admitted} admissions)`);
    const countsOk = exactlyOnce && used?.n === door.tickets.length && recorded?.admitted === door.tickets.length && recorded.all === scans.length && statuses.get(200) === scans.length;
    const budgetOk = p99 <= BUDGET_MS && rushOk;
    console.log(countsOk ? '  OK: every ticket admitted exactly once, the other door told it was already used.' : '  FAILED: the admissions do not add up.');
    if (!orderOk) console.log("  FAILED: the whole order's reference did not hold exactly its tickets (its figure is not the flash sale's).");
    console.log(budgetOk ? `  OK: scan p99 within the ${RUSH_BUDGET_MS} ms and ${BUDGET_MS} ms budgets.\n` : `  OVER BUDGET: scan p99 above ${Math.min(RUSH_BUDGET_MS, BUDGET_MS)} ms.\n`);
    const cpuOk = !(cpuPerScan > CPU_BUDGET_MS) && ratioOk;
    if (cpuPerScan > CPU_BUDGET_MS) console.log(`  OVER BUDGET: a scan costs the server's thread ${cpuPerScan.toFixed(3)} ms of CPU (budget ${CPU_BUDGET_MS} ms).\n`);
    if (!ratioOk) console.log(`  OVER BUDGET: a scan costs ${scanInOrders.toFixed(2)} whole orders of the server's thread (budget ${ORDER_RATIO_BUDGET}).\n`);
    ok = countsOk && orderOk && budgetOk && cpuOk;
  } finally {
    await server.close();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
