// Reads during a sale (issue 26 "The whole rush, measured"): the closed-loop flash sale of 500
// connections, first alone and then with 2,000 more connections reading the event on sale (its
// server-rendered page and its API), in the same run. Prints holds per second of both sales (budget:
// with the readers within 15% of alone) and the reads' p50/p99 while the sale ran (budget: p99 <= 50 ms).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npx tsx bench/rush-reads.ts
//   BENCH_DB=pglite npx tsx bench/rush-reads.ts        # the embedded default (PGlite)
//
// Starts the whole server in this process (compiled, as `npm start`; bench/server.ts) with the test
// payment driver and the built web app (apps/web/dist: `npm run build`; without it the page reads are
// of the API only, and it says so). Seeds three events of the same tenant: one to warm up on (orders
// and reads, so that both paths are compiled before anything is measured), and two of BENCH_TICKETS
// tickets each, sold one after the other: A alone, then B while the readers read B. The sale's load
// generator and the readers' run in two worker threads (plain sockets, HTTP/1.1 keep-alive, like wrk).
//
// A reader is a browser left open on the event page: each of the BENCH_READERS connections asks
// BENCH_READ_RATE times a second (default 1, so 2,000 reads a second in all; open loop, each read
// due on a clock, its latency counted from when it was due), alternately the event page HTML
// (/{urlName}/) and its API (/api/p/events/{urlName}), accepting br and gzip, without a validator
// (no If-None-Match: every answer carries the body, the harder case). A closed loop of 2,000
// readers would measure only how many reads two cores can make, never a sale beside them.
//
// Knobs: BENCH_CONNECTIONS (500), BENCH_TICKETS (2000), BENCH_REQUESTS (2800 orders per sale),
// BENCH_READERS (2000), BENCH_READ_RATE (1 per reader per second), BENCH_WARMUP (2000 orders),
// BENCH_POOL (10), BENCH_READ_P99_MS (50), BENCH_HOLDS_WITHIN (0.15), BENCH_PROFILE (a path prefix:
// the server thread's CPU profile of each sale, prefix-A.cpuprofile and prefix-B.cpuprofile), and the server's own
// ORDERS_IN_FLIGHT (platform/in-flight.ts; 0 turns the limit off, for a before/after with one build). Exit code 1 when a count is
// off (exactly the tickets on sale held, every read answered 200) or a budget is missed.

import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { CONNECTIONS, serverThreadCpuMs, startProfile } from './load-generator.js';
import { loadServer } from './server.js';
import { percentile, requirePostgres, seedGaEvent, seedTenant, startServer } from './support.js';

type Sample = { status: number; ms: number; at: number };

/** Shared by both workers: keep-alive connections on plain sockets, one request in flight each. */
const WORKER = String.raw`${CONNECTIONS}
const { parentPort, workerData } = require('node:worker_threads');
const clock = () => performance.timeOrigin + performance.now();
`;

/** The sale: `connections` connections each sending its next PLACE ORDER when answered, phase after phase (told by the main thread). */
const SALE = String.raw`${WORKER}
function order(target, i) {
  const body = Buffer.from(JSON.stringify({
    order: { email: 'buyer' + i + '@example.test', firstName: 'Flash', lastName: 'Buyer', phone: '+15551234567',
      address1: '1 Main St', address2: 'Apt 1', city: 'Springfield', state: 'NY', zipCode: '10001', country: 'USA' },
    lines: [{ ticketTypeId: target.ticketTypeId, quantity: 1 }],
    source: 'online',
    successUrl: 'http://' + target.host + '/flash-sale/success',
    cancelUrl: 'http://' + target.host + '/flash-sale/account?payment=cancelled',
    draftOrderUID: null,
  }));
  const head = 'POST /api/p/tenants/' + target.tenantId + '/events/' + target.eventId + '/orders HTTP/1.1\r\nHost: ' + target.host +
    '\r\nContent-Type: application/json\r\nContent-Length: ' + body.length + '\r\n\r\n';
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}
(async () => {
  const { port, connections } = workerData;
  const pool = await openAll(port, connections);
  parentPort.on('message', async ({ target, total }) => {
    const requests = Array.from({ length: total }, (_, i) => order(target, i));
    let next = 0;
    const samples = [];
    const started = clock();
    await Promise.all(pool.slice(0, Math.min(pool.length, total)).map(async (conn) => {
      while (next < total) {
        const req = requests[next++];
        const sent = clock();
        const status = await send(conn, req);
        const now = clock();
        samples.push({ status, ms: now - sent, at: now });
      }
    }));
    parentPort.postMessage({ samples, started, ended: clock() });
  });
  parentPort.postMessage({ ready: true });
})();
`;

/** The readers: every connection reads at its own rate on a clock (open loop) from 'start' to 'stop'. */
const READERS = String.raw`${WORKER}
(async () => {
  const { port, host, paths, connections, rate } = workerData;
  const pool = await openAll(port, connections);
  const requests = paths.map((p) => Buffer.from('GET ' + p + ' HTTP/1.1\r\nHost: ' + host + '\r\nAccept: */*\r\nAccept-Encoding: br, gzip\r\n\r\n', 'latin1'));
  let stopping = false;
  const samples = [];
  const loops = [];
  parentPort.on('message', async (m) => {
    if (m === 'start') {
      const started = clock();
      const period = 1000 / rate;
      pool.forEach((conn, c) => loops.push((async () => {
        // Reader c starts at its own offset in the first period, so that the reads are spread evenly.
        for (let k = 0; !stopping; k++) {
          const due = started + (c / pool.length) * period + k * period;
          const wait = due - clock();
          if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
          if (stopping) break;
          const status = await send(conn, requests[(c + k) % requests.length]).catch(() => 0);
          const now = clock();
          samples.push({ status, ms: now - due, at: now, path: (c + k) % requests.length });
        }
      })()));
    } else if (m === 'stop') {
      stopping = true;
      await Promise.all(loops);
      for (const conn of pool) conn.socket.destroy();
      parentPort.postMessage({ samples });
    }
  });
  parentPort.postMessage({ ready: true });
})();
`;

/**
 * The server thread's CPU between two ticks of a 1 ms timer (reads4): what a turn of the event loop
 * costs in CPU, which a read that arrives during it waits for on a machine that gives the thread a
 * core. Unlike the loop's delay (wall time) it does not grow when the machine is shared. Read from
 * /proc/thread-self/schedstat (nanoseconds on the CPU); the percentiles are weighted by the CPU, as a
 * read arriving at a random moment lands in a turn with a chance in proportion to its length.
 */
function turnCpu() {
  let fd: number | null = null;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return { stop: () => null };
  }
  const buf = Buffer.alloc(64);
  const read = () => Number(buf.toString('latin1', 0, readSync(fd!, buf, 0, 64, 0)).split(' ')[0]) / 1e6;
  const turns: number[] = [];
  let last = read();
  const timer = setInterval(() => {
    const now = read();
    turns.push(now - last);
    last = now;
  }, 1);
  return {
    stop: () => {
      clearInterval(timer);
      closeSync(fd!);
      const sorted = turns.sort((x, y) => x - y);
      const total = sorted.reduce((sum, t) => sum + t, 0);
      const weighted = (q: number) => {
        let sum = 0;
        for (const t of sorted) if ((sum += t) >= q * total) return t;
        return sorted.at(-1) ?? 0;
      };
      return { p50: weighted(0.5), p99: weighted(0.99), max: sorted.at(-1) ?? 0 };
    },
  };
}

/** A worker from `source`, once it says it is ready (its connections open). */
function startWorker(source: string, workerData: unknown): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData });
    worker.once('error', reject);
    worker.once('message', () => resolve(worker));
  });
}

function nextMessage<T>(worker: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

async function main() {
  const { eq, sql } = await import('drizzle-orm');
  const api = await loadServer();
  const { ticketTypes } = api;
  const pglite = process.env.BENCH_DB === 'pglite';
  const adminUrl = pglite ? undefined : requirePostgres('rush-reads.ts');
  const CONNS = Number(process.env.BENCH_CONNECTIONS ?? 500);
  const TICKETS = Number(process.env.BENCH_TICKETS ?? 2000);
  const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2800);
  const READERS_N = Number(process.env.BENCH_READERS ?? 2000);
  const READ_RATE = Number(process.env.BENCH_READ_RATE ?? 1);
  const WARMUP = Number(process.env.BENCH_WARMUP ?? 2000);
  const POOL = Number(process.env.BENCH_POOL ?? 10);
  const READ_P99_MS = Number(process.env.BENCH_READ_P99_MS ?? 50);
  const HOLDS_WITHIN = Number(process.env.BENCH_HOLDS_WITHIN ?? 0.15);

  const webDist = path.resolve('apps/web/dist');
  const withPage = existsSync(path.join(webDist, 'index.html'));
  const server = await startServer({
    api,
    adminUrl,
    poolSize: POOL,
    webDist,
    env: {
      LOG_LEVEL: 'silent',
      JOBS_POLL_MS: '0',
      PAYMENT_DRIVER: 'test',
      RATE_LIMIT_ORDERS_PER_MINUTE: '1000000',
      // The server's limit on orders past their first checks (platform/in-flight.ts); 0 turns it off.
      ...(process.env.ORDERS_IN_FLIGHT ? { ORDERS_IN_FLIGHT: process.env.ORDERS_IN_FLIGHT } : {}),
    },
  });
  let ok = false;
  try {
    const { deps, port } = server;
    const { tenant, host } = await seedTenant(api, server, { name: 'Bench Rush', url: 'rush' });
    // The page is read too: a description and a venue, as a real event page has.
    const page = { publishedAt: new Date(), description: '<p>A long evening of music, food and friends under the open sky.</p>'.repeat(4), venueName: 'The Hall', address1: '10 Main St', city: 'Springfield' };
    const seedEvent = (urlName: string, tickets: number) => seedGaEvent(api, server, tenant.id, { name: `Rush ${urlName}`, urlName, tickets, extra: page });
    const warm = await seedEvent('warm-up', 1_000_000);
    const alone = await seedEvent('sale-alone', TICKETS);
    const read = await seedEvent('sale-read', TICKETS);
    const pathsOf = (urlName: string) => (withPage ? [`/${urlName}/`, `/api/p/events/${urlName}`] : [`/api/p/events/${urlName}`]);

    const sale = await startWorker(SALE, { port, connections: CONNS });
    type SaleRun = { samples: Sample[]; started: number; ended: number };
    const sell = async (ev: { eventId: string; ticketTypeId: string }, total: number) => {
      const done = nextMessage<SaleRun>(sale);
      sale.postMessage({ target: { host, tenantId: tenant.id, ...ev }, total });
      return done;
    };
    type ReadSample = Sample & { path: number };
    const readersOn = async (urlName: string, connections: number) => {
      const w = await startWorker(READERS, { port, host, paths: pathsOf(urlName), connections, rate: READ_RATE });
      w.postMessage('start');
      return {
        stop: async () => {
          const done = nextMessage<{ samples: ReadSample[] }>(w);
          w.postMessage('stop');
          const { samples } = await done;
          await w.terminate();
          return samples;
        },
      };
    };

    // Warm-up: orders and reads of the warm-up event at once (a smaller crowd), so both paths are compiled.
    const warmReaders = await readersOn(warm.urlName, Math.min(READERS_N, 500));
    await sell(warm, WARMUP);
    await warmReaders.stop();

    // A: the sale alone. B: the same sale of another event while the readers read it.
    // The server's event loop in each sale (issue 26): how late a timer of 1 ms runs (the delay a read
    // answered by the fast path waits for its turn), and the main thread's CPU over the sale's wall time.
    const loopOf = async <T>(run: () => Promise<T>, profile?: string) => {
      const profiler = profile ? await startProfile() : null;
      const h = monitorEventLoopDelay({ resolution: 1 });
      const turns = turnCpu();
      const cpu0 = serverThreadCpuMs();
      const t0 = performance.now();
      h.enable();
      const result = await run();
      h.disable();
      const turn = turns.stop();
      const cpuMs = serverThreadCpuMs() - cpu0;
      const busy = cpuMs / (performance.now() - t0);
      await profiler?.stop(profile!);
      return { result, loop: { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6, busy, cpuMs, turn } };
    };
    // The fast path's counts (public-site/fast-path.ts; absent from builds before issue 26's reads work).
    type Counts = { hits: number; passed: number; absent: number; host: number; compressing: number };
    const fastPath = (api as { fastPathCounts?: (d: unknown) => Counts }).fastPathCounts;
    const counts = (): Counts => ({ ...(fastPath?.(deps) ?? { hits: NaN, passed: NaN, absent: NaN, host: NaN, compressing: NaN }) });
    const { result: a, loop: loopA } = await loopOf(() => sell(alone, REQUESTS), process.env.BENCH_PROFILE && `${process.env.BENCH_PROFILE}-A.cpuprofile`);
    const readers = await readersOn(read.urlName, READERS_N);
    // One period for the readers to be under way before the sale starts.
    await new Promise((resolve) => setTimeout(resolve, 1000 / READ_RATE));
    const countsBefore = counts();
    const { result: b, loop: loopB } = await loopOf(() => sell(read, REQUESTS), process.env.BENCH_PROFILE && `${process.env.BENCH_PROFILE}-B.cpuprofile`);
    const countsAfter = counts();
    const readSamples = await readers.stop();
    await sale.terminate();

    const holdsPerSecond = (r: SaleRun) => {
      const held = r.samples.filter((s) => s.status === 201);
      return held.length / ((Math.max(...held.map((s) => s.at)) - r.started) / 1000);
    };
    const stats = (ms: number[]) => {
      const sorted = [...ms].sort((x, y) => x - y);
      return `${percentile(sorted, 50).toFixed(1)} ms / ${percentile(sorted, 99).toFixed(1)} ms (max ${(sorted.at(-1) ?? 0).toFixed(1)} ms)`;
    };
    // The reads that were answered while sale B ran.
    const during = readSamples.filter((s) => s.at >= b.started && s.at <= b.ended);
    const readP99 = percentile(
      during.map((s) => s.ms).sort((x, y) => x - y),
      99,
    );
    const readStatuses = new Map<number, number>();
    for (const s of readSamples) readStatuses.set(s.status, (readStatuses.get(s.status) ?? 0) + 1);
    const heldOf = async (ev: { eventId: string; ticketTypeId: string }) => {
      const [stock] = await deps.db.select({ remaining: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.id, ev.ticketTypeId));
      const rows = (await deps.db.execute(
        sql`select coalesce(sum(l.quantity), 0)::int as n from order_lines l join orders o on o.id = l.order_id where o.event_id = ${ev.eventId} and o.status = 'draft'`,
      )) as unknown as { rows: Array<{ n: number }> };
      return { held: Number(rows.rows[0]?.n), remaining: stock?.remaining };
    };
    const stockA = await heldOf(alone);
    const stockB = await heldOf(read);
    const hA = holdsPerSecond(a);
    const hB = holdsPerSecond(b);
    const others = (r: SaleRun) => r.samples.filter((s) => s.status !== 201 && s.status !== 409).length;

    const line = (label: string, value: string) => console.log(`  ${label.padEnd(40)} ${value}`);
    console.log(
      `\nReads during a sale: ${TICKETS} tickets, ${CONNS} sale connections (closed loop), ${REQUESTS} orders per sale; ${READERS_N} readers x ${READ_RATE}/s` +
        ` (${pglite ? 'PGlite' : `PostgreSQL, pool ${POOL}`}, ORDERS_IN_FLIGHT ${deps.config.ordersInFlight || 'off'}, ${withPage ? 'page HTML and API' : 'API only: apps/web/dist not built'}, Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)})`,
    );
    line('A, the sale alone: holds/s', `${hA.toFixed(0)}; order p50 / p99 ${stats(a.samples.map((s) => s.ms))}`);
    line('B, the sale with the readers: holds/s', `${hB.toFixed(0)} (${((hB / hA) * 100).toFixed(0)}% of A; budget >= ${((1 - HOLDS_WITHIN) * 100).toFixed(0)}%); order p50 / p99 ${stats(b.samples.map((s) => s.ms))}`);
    line('reads during B: count, per second', `${during.length}, ${(during.length / ((b.ended - b.started) / 1000)).toFixed(0)}/s`);
    line('reads during B: p50 / p99', `${stats(during.map((s) => s.ms))} (budget p99 <= ${READ_P99_MS} ms)`);
    pathsOf(read.urlName).forEach((p, i) => line(`  ${p}`, stats(during.filter((s) => s.path === i).map((s) => s.ms))));
    const loopLine = (l: typeof loopA) =>
      `delay p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms; main thread busy ${(l.busy * 100).toFixed(0)}%` +
      (l.turn ? `; a turn's CPU (weighted) p50 ${l.turn.p50.toFixed(1)} ms, p99 ${l.turn.p99.toFixed(1)} ms, max ${l.turn.max.toFixed(1)} ms` : '');
    // The reads' CPU on the server thread: what B took beyond A (the same number of orders), per read answered during B.
    line('server thread CPU per read (B - A)', `${((loopB.cpuMs - loopA.cpuMs) / Math.max(1, during.length)).toFixed(3)} ms (A ${(loopA.cpuMs / REQUESTS).toFixed(3)} ms per order)`);
    line(
      'reads during B answered by the fast path',
      `${countsAfter.hits - countsBefore.hits}; the full way: ${(['passed', 'absent', 'host', 'compressing'] as const).map((k) => `${k} ${countsAfter[k] - countsBefore[k]}`).join(', ')}`,
    );
    line('event loop during A', loopLine(loopA));
    line('event loop during B', loopLine(loopB));
    line('reads by status (all)', [...readStatuses].map(([s, n]) => `${n} x ${s}`).join(', '));
    line('tickets held A / B', `${stockA.held} (remaining ${stockA.remaining}) / ${stockB.held} (remaining ${stockB.remaining})`);
    const countsOk =
      stockA.held === TICKETS && stockB.held === TICKETS && stockA.remaining === 0 && stockB.remaining === 0 && others(a) === 0 && others(b) === 0 && readStatuses.size === 1 && readStatuses.has(200);
    const budgetOk = readP99 <= READ_P99_MS && hB >= hA * (1 - HOLDS_WITHIN);
    console.log(countsOk ? '  OK: exactly the tickets on sale held in both sales, every read answered 200.' : '  FAILED: the counts do not add up.');
    console.log(budgetOk ? '  OK: both budgets met.\n' : '  OVER BUDGET: see above.\n');
    ok = countsOk && budgetOk;
  } finally {
    await server.close();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
