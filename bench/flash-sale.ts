// Flash sale: PLACE ORDER (the hold) over HTTP on loopback against a real PostgreSQL server.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npx tsx bench/flash-sale.ts
//
// Creates a scratch database on that server (dropped afterwards unless BENCH_KEEP_DB=1), starts the
// server in this process with the test payment driver, seeds an event with 1,000 tickets, then
// keeps 200 connections busy creating orders of one ticket each until a bounded total has been
// sent. Prints holds per second, p50/p99 latency and the tickets held (must be exactly 1,000).
//
// The load generator runs in a worker thread of this process so that it does not share the
// server's event loop (BENCH_CLIENT=inline runs it on the main thread instead).
// Knobs: BENCH_CONNECTIONS (200), BENCH_TICKETS (1000), BENCH_REQUESTS (1400), BENCH_POOL (10),
// BENCH_RATE (orders per second, open loop; default: closed loop, each connection sends again when answered),
// BENCH_GATEWAY=stub (diagnostics: answer checkouts from memory, to see the hold alone).
// BENCH_SCENARIO presets the issue 13 runs: `closed500` (500 connections, closed loop, 2,000 tickets)
// and `open1500` (1,500 orders/s open loop); explicit knobs still win.
// BENCH_LOG_LEVEL=info logs as the product does by default (to stdout: pipe it away); the default is silent.
// BENCH_PROFILE=file.cpuprofile writes a CPU profile of the server's thread over the sale.
// BENCH_WARMUP (4000): orders placed on another event before the sale (400 measures a server still compiling).
// BENCH_SERVER=source runs the TypeScript sources through tsx instead of the compiled server (bench/server.ts).
// BENCH_DB=pglite runs it on PGlite (no DATABASE_URL; no reference and no PostgreSQL CPU then).
// BENCH_ANSWERS=1 (issue 24) sells a second event of the same size in the same run, whose orders each
// answer three per-ticket questions (a short text, a single choice, a consent checkbox), and prints
// its holds per second beside the plain sale's: the budget is within 10% of it.
// BENCH_METRICS=1 (issue 26) runs the server with its Prometheus metrics on (METRICS_TOKEN) and scrapes
// /metrics every 5 s through the sale, as a Prometheus would (more often than its usual 15 s).
// Every run also measures the reference in the same run: 16 clients doing bare conditional
// UPDATEs (`set n = n - 1 where n > 0`) on one row of a scratch table, for BENCH_REFERENCE_S (3) s.

import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { CONNECTIONS, cpuMsOf, serverThreadCpuMs, startProfile } from './load-generator.js';
import { loadServer } from './server.js';
import { percentile, requirePostgres, seedGaEvent, seedTenant, startServer } from './support.js';

type Target = { port: number; host: string; tenantId: string; eventId: string; ticketTypeId: string; extra?: Record<string, unknown> };
type Sample = { status: number; ms: number; at: number };
type Load = { samples: Sample[]; seconds: number };

/**
 * The load generator: `connections` keep-alive HTTP/1.1 connections, opened once and used by every
 * phase in turn (the warm-up's requests open them, so the measured phase starts on open
 * connections, as a load tester's measurement does after its warm-up). Each phase sends `total`
 * orders of one ticket; each connection carries one request at a time. It writes requests and reads
 * answers on plain sockets (status line, Content-Length or chunked body), like autocannon or wrk,
 * because it shares this machine's two cores with the server: Node's http client costs about as
 * much CPU per request as the server's own work. Plain JavaScript, so that it can run in a worker
 * thread without a TS loader.
 */
const LOAD_GENERATOR = String.raw`${CONNECTIONS}
async function generateLoad(phases, connections, onPhase) {
  const pool = Array.from({ length: connections }, () => openConnection(phases[0].target.port));
  const loads = [];
  for (const [i, phase] of phases.entries()) {
    // The caller is told when each phase starts, to take its CPU readings there (it answers at once).
    await onPhase(i, 0);
    loads.push(await runPhase(pool, phase.target, phase.total, phase.rate));
  }
  await onPhase(phases.length, 0);
  for (const conn of pool) conn.socket.destroy();
  return loads;
}

async function runPhase(pool, target, total, rate) {
  const path = '/api/p/tenants/' + target.tenantId + '/events/' + target.eventId + '/orders';
  const request = (i) => {
    const body = Buffer.from(JSON.stringify(Object.assign({
      order: { email: 'buyer' + i + '@example.test', firstName: 'Flash', lastName: 'Buyer', phone: '+15551234567',
        address1: '1 Main St', address2: 'Apt 1', city: 'Springfield', state: 'NY', zipCode: '10001', country: 'USA' },
      lines: [{ ticketTypeId: target.ticketTypeId, quantity: 1 }],
      source: 'online',
      // What the attendee site's checkout sends besides (checkout-page.tsx): the return URLs are parsed and checked per order.
      successUrl: 'http://' + target.host + '/flash-sale/success',
      cancelUrl: 'http://' + target.host + '/flash-sale/account?payment=cancelled',
      draftOrderUID: null,
    }, target.extra || {})));
    const head = 'POST ' + path + ' HTTP/1.1\r\nHost: ' + target.host + '\r\nContent-Type: application/json\r\nContent-Length: ' + body.length + '\r\n\r\n';
    return Buffer.concat([Buffer.from(head, 'latin1'), body]);
  };
  // Every request's bytes are made before the clock starts, as load testers prepare theirs: on these
  // two shared cores, the generator's own per-request work competes with the server it measures.
  const requests = Array.from({ length: total }, (_, i) => request(i));
  let next = 0;
  const samples = [];
  const started = performance.now();
  if (rate > 0) {
    // Open loop: order i is due at i/rate seconds, whether or not earlier ones were answered; its
    // latency counts from when it was due (so time spent waiting for a free connection counts too).
    const idle = [...pool];
    const waiting = [];
    const take = () => idle.length ? Promise.resolve(idle.pop()) : new Promise((resolve) => waiting.push(resolve));
    const give = (conn) => { const w = waiting.shift(); if (w) w(conn); else idle.push(conn); };
    const inFlight = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      inFlight.push(take().then(async (conn) => {
        const status = await send(conn, requests[i]);
        give(conn);
        const now = performance.now();
        samples.push({ status, ms: now - due, at: now - started });
      }));
    }
    await Promise.all(inFlight);
  } else {
    // Closed loop: every connection sends its next order as soon as the last one is answered.
    await Promise.all(pool.slice(0, Math.min(pool.length, total)).map(async (conn) => {
      while (next < total) {
        const req = requests[next++];
        const sent = performance.now();
        const status = await send(conn, req);
        const now = performance.now();
        samples.push({ status, ms: now - sent, at: now - started });
      }
    }));
  }
  return { samples, seconds: (performance.now() - started) / 1000 };
}
`;

type Phase = { target: Target; total: number; rate: number };

/** Called as each phase starts and after the last, with the load generator's thread CPU (ms) so far. */
type OnPhase = (phase: number, generatorMs: number) => void | Promise<void>;

function generateLoad(phases: Phase[], connections: number, onPhase: OnPhase): Promise<Load[]> {
  const run = new Function('require', `${LOAD_GENERATOR}; return generateLoad;`)(createRequire(import.meta.url)) as (
    p: Phase[],
    c: number,
    o: OnPhase,
  ) => Promise<Load[]>;
  return run(phases, connections, onPhase);
}

/**
 * The reference: the ceiling of one hot row on this server, as 16 clients that do nothing but the
 * conditional UPDATE a hold needs (no HTTP, no order rows), each sending again when answered.
 */
async function referenceUpdates(url: string, seconds: number): Promise<number> {
  const { default: pg } = await import('pg');
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query('create table if not exists bench_reference (id int primary key, n bigint not null)');
  await setup.query('insert into bench_reference values (1, 1000000000) on conflict (id) do update set n = excluded.n');
  const clients = await Promise.all(
    Array.from({ length: 16 }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  let done = 0;
  const until = Date.now() + seconds * 1000;
  const started = Date.now();
  await Promise.all(
    clients.map(async (c) => {
      while (Date.now() < until) {
        await c.query({ name: 'ref', text: 'update bench_reference set n = n - 1 where id = 1 and n > 0' });
        done++;
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  await Promise.all(clients.map((c) => c.end()));
  await setup.query('drop table bench_reference');
  await setup.end();
  return done / elapsed;
}

async function main() {
  const { eq, sql } = await import('drizzle-orm');
  const api = await loadServer();
  const { events, eventQuestions, ticketTypes, compiled } = api;

  // BENCH_DB=pglite runs the same sale on PGlite in a scratch data directory (no reference, no PostgreSQL CPU).
  const pglite = process.env.BENCH_DB === 'pglite';
  const adminUrl = pglite ? undefined : requirePostgres('flash-sale.ts');
  const SCENARIOS: Record<string, { connections: number; tickets: number; requests: number; rate: number }> = {
    closed500: { connections: 500, tickets: 2000, requests: 2800, rate: 0 },
    open1500: { connections: 500, tickets: 3000, requests: 4500, rate: 1500 },
  };
  const scenario = SCENARIOS[process.env.BENCH_SCENARIO ?? ''];
  const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? scenario?.connections ?? 200);
  const TICKETS = Number(process.env.BENCH_TICKETS ?? scenario?.tickets ?? 1000);
  const REQUESTS = Number(process.env.BENCH_REQUESTS ?? scenario?.requests ?? 1400);
  const POOL = Number(process.env.BENCH_POOL ?? 10);
  const METRICS_TOKEN = process.env.BENCH_METRICS === '1' ? 'bench-metrics-token-0123456789abcdef' : undefined;
  // The warm-up runs orders on another event first, so that the sale is measured on a server whose
  // checkout code the JIT has already compiled, as in a load tester's warm-up: after 400 orders V8's
  // helper threads were still optimising during the sale (bench/README.md, session 6).
  const WARMUP = Number(process.env.BENCH_WARMUP ?? 4000);
  const RATE = Number(process.env.BENCH_RATE ?? scenario?.rate ?? 0);
  const REFERENCE_S = Number(process.env.BENCH_REFERENCE_S ?? 3);
  const inline = process.env.BENCH_CLIENT === 'inline';
  const ANSWERS = process.env.BENCH_ANSWERS === '1';

  const run = (phases: Phase[], onPhase: OnPhase): Promise<Load[]> => {
    if (inline) return generateLoad(phases, CONNECTIONS, onPhase);
    return new Promise((resolve, reject) => {
      const source = `${LOAD_GENERATOR}
        const { parentPort, workerData } = require('node:worker_threads');
        let resumePhase = null;
        parentPort.on('message', () => { const r = resumePhase; resumePhase = null; r?.(); });
        const threadMs = () => { const f = require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
        const onPhase = (phase) => new Promise((resume) => { resumePhase = resume; parentPort.postMessage({ phase, generatorMs: threadMs() }); });
        generateLoad(workerData.phases, workerData.connections, onPhase).then((loads) => { parentPort.postMessage({ loads }); parentPort.close(); });`;
      const worker = new Worker(source, { eval: true, workerData: { phases, connections: CONNECTIONS } });
      worker.on('message', (m: { phase?: number; generatorMs?: number; loads?: Load[] }) => {
        if (m.loads) return resolve(m.loads);
        void Promise.resolve(onPhase(m.phase!, m.generatorMs!)).then(() => worker.postMessage('go'), reject);
      });
      worker.once('error', reject);
    });
  };

  const server = await startServer({
    api,
    adminUrl,
    poolSize: POOL,
    env: {
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      JOBS_POLL_MS: '0',
      PAYMENT_DRIVER: 'test',
      RATE_LIMIT_ORDERS_PER_MINUTE: '1000000',
      ...(METRICS_TOKEN ? { METRICS_TOKEN } : {}),
      // The server's limit on orders past their first checks (platform/in-flight.ts); 0 turns it off.
      ...(process.env.ORDERS_IN_FLIGHT ? { ORDERS_IN_FLIGHT: process.env.ORDERS_IN_FLIGHT } : {}),
    },
  });
  const scratch = server.scratch;
  let scrapes = 0;
  let lastScrape = '';
  const scrape = () =>
    fetch(`http://127.0.0.1:${server.port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      .then((r) => r.text())
      .then((text) => {
        scrapes++;
        lastScrape = text;
      });
  const scraper = METRICS_TOKEN ? setInterval(() => void scrape().catch(() => {}), 5_000) : undefined;
  let ok = false;
  try {
    const { deps, port } = server;
    if (process.env.BENCH_GATEWAY === 'stub') {
      deps.payments = {
        name: 'test',
        createCheckout: async (i) => ({ sessionId: `cs_${i.orderId}`, url: `http://pay.invalid/${i.orderId}` }),
        refund: async () => ({ refundId: 're_stub', status: 'succeeded' }),
        expireCheckout: async () => {},
        expiresByOrder: true,
        settlement: async ({ paidAt }) => ({ fee: 0, availableOn: paidAt }),
        transfer: async ({ payoutId }) => ({ transferId: `tr_${payoutId}` }),
        findTransfer: async () => null,
        testMode: true,
        createConnectedAccount: async () => ({ accountId: 'acct_stub' }),
        createOnboardingLink: async () => ({ url: 'http://pay.invalid/onboard', expiresAt: new Date() }),
        connectedAccountStatus: deps.payments.connectedAccountStatus,
      };
    }

    // A tenant through the real use case (fee settings and rules); one event to warm up on, one to sell.
    const { tenant, host } = await seedTenant(api, server, { name: 'Bench Events', url: 'bench' });
    const seedEvent = (urlName: string, tickets: number) => seedGaEvent(api, server, tenant.id, { name: `Flash ${urlName}`, urlName, tickets });
    const warm = await seedEvent('warm-up', 1_000_000);
    const sale = await seedEvent('flash-sale', TICKETS);
    // Issue 24: the same sale with three per-ticket questions, each order answering them.
    const answered = ANSWERS ? await seedEvent('flash-answers', TICKETS) : null;
    let answersExtra: Record<string, unknown> | undefined;
    if (answered) {
      const q = [randomUUID(), randomUUID(), randomUUID()] as const;
      await deps.db.insert(eventQuestions).values([
        { tenantId: tenant.id, id: q[0], eventId: answered.eventId, label: 'Company', kind: 'shortText', scope: 'ticket', required: true, sortOrder: 1 },
        { tenantId: tenant.id, id: q[1], eventId: answered.eventId, label: 'Diet', kind: 'singleChoice', options: ['None', 'Vegetarian', 'Vegan'], scope: 'ticket', required: true, sortOrder: 2 },
        { tenantId: tenant.id, id: q[2], eventId: answered.eventId, label: 'Photos may be taken', kind: 'checkbox', scope: 'ticket', required: true, sortOrder: 3 },
      ]);
      answersExtra = { attendees: [{ ticketTypeId: answered.ticketTypeId, answers: { [q[0]]: 'Acme Widgets', [q[1]]: 'Vegan', [q[2]]: true } }] };
    }

    const target = { port, host, tenantId: tenant.id };
    // Warm-up (it also opens the connections), then the sale on the same connections.
    const backendCpu = async () => {
      // CPU ms of this database's PostgreSQL backends so far (PostgreSQL on this machine; a backend gone counts 0).
      if (!scratch) return new Map<number, number>();
      const { rows } = await scratch.admin.query('select pid from pg_stat_activity where datname = $1', [scratch.name]);
      return new Map(rows.map((r: { pid: number }) => [r.pid, cpuMsOf(`/proc/${r.pid}/stat`) || 0] as const));
    };
    // CPU is read when the sale starts and when it ends (the load generator waits for the readings).
    type Reading = { pg: Map<number, number>; process: NodeJS.CpuUsage; server: number; generator: number };
    const readings: Reading[] = [];
    let profiler: Awaited<ReturnType<typeof startProfile>> | null = null;
    const [, measured, withAnswers] = await run(
      [
        { target: { ...target, ...warm }, total: WARMUP, rate: 0 },
        { target: { ...target, ...sale }, total: REQUESTS, rate: RATE },
        ...(answered ? [{ target: { ...target, ...answered, extra: answersExtra }, total: REQUESTS, rate: RATE }] : []),
      ],
      async (phase, generatorMs) => {
        if (phase === 2 && profiler) await profiler.stop(process.env.BENCH_PROFILE!);
        if (phase >= 1 && phase <= 2) readings.push({ pg: await backendCpu(), process: process.cpuUsage(), server: serverThreadCpuMs(), generator: generatorMs });
        if (phase === 1 && process.env.BENCH_PROFILE) profiler = await startProfile();
      },
    );
    const { samples, seconds } = measured!;
    const [start, end] = readings as [Reading, Reading];
    const cpu = process.cpuUsage(start.process);
    const nodeMs = (cpu.user + cpu.system) / 1000;
    const serverMs = end.server - start.server;
    const generatorMs = inline ? 0 : end.generator - start.generator;
    const pgMs = [...end.pg].reduce((sum, [pid, t]) => sum + t - (start.pg.get(pid) ?? 0), 0);
    const perOrder = (ms: number) => (ms / REQUESTS).toFixed(2);

    const held = samples.filter((r) => r.status === 201);
    const refused = samples.filter((r) => r.status === 409);
    const other = samples.filter((r) => r.status !== 201 && r.status !== 409);
    const lastHoldAt = Math.max(...held.map((r) => r.at)) / 1000;
    const latencies = samples.map((r) => r.ms).sort((a, b) => a - b);
    const holdLatencies = held.map((r) => r.ms).sort((a, b) => a - b);
    const [stock] = await deps.db
      .select({ remaining: ticketTypes.remaining, capacity: events.remainingCapacity })
      .from(ticketTypes)
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(eq(ticketTypes.id, sale.ticketTypeId));
    const soldRows = await deps.db.execute(
      sql`select coalesce(sum(l.quantity), 0)::int as n from order_lines l join orders o on o.id = l.order_id where o.event_id = ${sale.eventId} and o.status = 'draft'`,
    );
    const sold = (soldRows as unknown as { rows: Array<{ n: number }> }).rows[0]?.n;

    const line = (label: string, value: string) => console.log(`  ${label.padEnd(30)} ${value}`);
    console.log(
      `\nFlash sale: ${TICKETS} tickets, ${CONNECTIONS} connections, ${REQUESTS} orders sent${RATE > 0 ? ` at ${RATE}/s (open loop)` : ' (closed loop)'}` +
        ` (${pglite ? 'PGlite' : `PostgreSQL, pool ${POOL}`}, ${process.env.BENCH_GATEWAY === 'stub' ? 'STUB gateway' : 'test payment driver'},` +
        ` client ${inline ? 'inline' : 'in a worker thread'}, server ${compiled ? 'compiled (as npm start)' : 'from source (tsx)'}, Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)})`,
    );
    line('holds per second', (held.length / lastHoldAt).toFixed(0));
    line('requests per second', (samples.length / seconds).toFixed(0));
    line('latency p50 / p99 (all)', `${percentile(latencies, 50).toFixed(1)} ms / ${percentile(latencies, 99).toFixed(1)} ms`);
    line('latency p50 / p99 (holds)', `${percentile(holdLatencies, 50).toFixed(1)} ms / ${percentile(holdLatencies, 99).toFixed(1)} ms`);
    line('latency p90 / p95 / max (all)', `${percentile(latencies, 90).toFixed(1)} ms / ${percentile(latencies, 95).toFixed(1)} ms / ${latencies.at(-1)!.toFixed(1)} ms`);
    const byArrival = [...samples].sort((a, b) => a.at - a.ms - (b.at - b.ms));
    const firstWave = byArrival.slice(0, CONNECTIONS).map((r) => r.ms).sort((a, b) => a - b);
    const rest = byArrival.slice(CONNECTIONS).map((r) => r.ms).sort((a, b) => a - b);
    line(`p99 first ${CONNECTIONS} sent / the rest`, `${percentile(firstWave, 99).toFixed(1)} ms / ${percentile(rest, 99).toFixed(1)} ms`);
    line('CPU per order (the sale)', `Node ${perOrder(nodeMs)} ms (server and load generator)${pglite ? ', PGlite in it' : `, PostgreSQL ${perOrder(pgMs)} ms`}`);
    line("  the server's thread", `${perOrder(serverMs)} ms (its event loop${inline ? ', the load generator included' : ''})`);
    if (!inline) line('  the load generator', `${perOrder(generatorMs)} ms (its worker thread)`);
    line('  the rest', `${perOrder(nodeMs - serverMs - generatorMs)} ms (V8's helper threads: optimising compiler, GC)`);
    line('answers', `${held.length} x 201, ${refused.length} x 409, ${other.length} other`);
    if (scraper) {
      clearInterval(scraper);
      await scrape();
      const holdsTotal = lastScrape
        .split('\n')
        .filter((l) => l.startsWith('marquee_holds_total{'))
        .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
      line('metrics (BENCH_METRICS=1)', `on; /metrics scraped ${scrapes} times; marquee_holds_total ${holdsTotal} (warm-up included)`);
    }
    line('tickets held', `${sold} (remaining ${stock?.remaining}, event capacity left ${stock?.capacity})`);
    if (scratch) {
      const reference = await referenceUpdates(scratch.url, REFERENCE_S);
      line('reference: 16 clients, bare UPDATE', `${reference.toFixed(0)} updates/s on one row (same run); holds/s is ${((held.length / lastHoldAt) / reference).toFixed(2)}x that`);
    }
    ok = sold === TICKETS && held.length === TICKETS && stock?.remaining === 0 && stock.capacity === 0 && other.length === 0;
    if (withAnswers) {
      const heldA = withAnswers.samples.filter((r) => r.status === 201);
      const otherA = withAnswers.samples.filter((r) => r.status !== 201 && r.status !== 409);
      const lastA = Math.max(...heldA.map((r) => r.at)) / 1000;
      const latA = withAnswers.samples.map((r) => r.ms).sort((a, b) => a - b);
      const [{ n: answerRows } = { n: 0 }] = (
        (await deps.db.execute(sql`select count(*)::int as n from order_answers where event_id = ${answered!.eventId}`)) as unknown as { rows: Array<{ n: number }> }
      ).rows;
      const plain = held.length / lastHoldAt;
      const asked = heldA.length / lastA;
      line('with 3 questions: holds/s', `${asked.toFixed(0)} (plain sale ${plain.toFixed(0)}: ${((asked / plain) * 100).toFixed(0)}%; budget >= 90%)`);
      line('with 3 questions: p50 / p99', `${percentile(latA, 50).toFixed(1)} ms / ${percentile(latA, 99).toFixed(1)} ms`);
      line('with 3 questions: answers', `${heldA.length} x 201, ${otherA.length} other; ${answerRows} answers stored (3 per hold)`);
      const answersOk = heldA.length === TICKETS && otherA.length === 0 && answerRows === TICKETS * 3;
      if (!answersOk) console.log('  FAILED: the sale with questions did not hold every ticket with its answers.');
      if (asked < plain * 0.9) console.log('  OVER BUDGET: the sale with questions is more than 10% slower than the plain sale.');
      ok = ok && answersOk;
    }
    console.log(ok ? '  OK: exactly the tickets on sale were held.\n' : '  FAILED: the counts do not add up.\n');
  } finally {
    clearInterval(scraper);
    await server.close();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
