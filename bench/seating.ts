// Reserved seating (issue 27): seat holds over HTTP on loopback against a real PostgreSQL server.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npx tsx bench/seating.ts
//
// Seeds a 20,000-seat arena (8 blocks of 25 rows x 100 seats, one ticket type), then sends seat holds
// of 2 adjacent seats at BENCH_RATE per second (open loop) over BENCH_CONNECTIONS keep-alive
// connections: half "best available: 2 together", half picking 2 adjacent seats at random (a pick
// that lost its race is a 409, as it is for a buyer). Prints holds per second, p50/p99 latency, and
// checks that no seat is held twice and that the database holds exactly the seats answered.
// Same-run reference: 16 clients doing the bare conditional UPDATE of 2 free seats on a copy of the
// arena, for 3 s. Knobs: BENCH_CONNECTIONS (500), BENCH_RATE (1200), BENCH_SECONDS (8), BENCH_POOL (10),
// BENCH_ANALYZE (1; 0: the seats never measured, as before issue 27 (seats) until autovacuum came round).
// Robust to a shared machine: the server thread's CPU ms per hold answered, the PostgreSQL backends'
// CPU ms per hold, and the SQL statements sent per request (counted at the pg client), each over the
// measured phase. BENCH_PROFILE=file.cpuprofile writes a CPU profile of the server's thread over it.
// BENCH_TRACE=1: no load; a few holds of each kind one after the other on the idle server, then one
// picked hold and one "best available: 2 together" with every statement they send listed (text, ms).
// Issue 27 (seats3): the measured phase also prints how long each pool connection stays checked out
// (acquire to release) and the statements sent by name. BENCH_EXPLAIN=1: no load; EXPLAIN (ANALYZE,
// BUFFERS, WAL) of the one-hold take (picked, best available) and of the bare UPDATE on the arena, then
// one backend's CPU per take over 1,000 takes by plan-cache mode, and the seats' HOT updates;
// BENCH_EXPERIMENT=hot with it first makes the seat UPDATE HOT-eligible on the scratch copy (no index
// on hold_id, fillfactor 70) to measure what that would save.

import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { call, cpuMsOf, serverThreadCpuMs, startProfile } from './load-generator.js';
import { loadServer } from './server.js';
import { percentile, requirePostgres, seedTenant, startServer, watchStatements } from './support.js';
type Request = { i: number; due: number; key: string; raw: string };
type Sample = { i: number; status: number; ms: number; body: string };

const LOAD_GENERATOR = String.raw`
const net = require('node:net');
const { performance } = require('node:perf_hooks');

function openConnection(port) {
  const socket = net.connect({ host: '127.0.0.1', port, noDelay: true });
  const conn = { socket, buffer: Buffer.alloc(0), pending: null };
  socket.on('data', (chunk) => {
    conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
    const done = conn.pending && answered(conn.buffer);
    if (!done) return;
    const { resolve } = conn.pending;
    conn.pending = null;
    const body = conn.buffer.toString('utf8', done.headEnd + 4, done.length);
    conn.buffer = conn.buffer.subarray(done.length);
    resolve({ status: done.status, body });
  });
  const fail = (err) => { if (conn.pending) { const { reject } = conn.pending; conn.pending = null; reject(err || new Error('connection closed')); } };
  socket.on('error', fail);
  socket.on('close', () => fail());
  return conn;
}

function answered(buf) {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const head = buf.toString('latin1', 0, headEnd).toLowerCase();
  const status = Number(head.slice(9, 12));
  const cl = /\r\ncontent-length: *(\d+)/.exec(head);
  const length = headEnd + 4 + (cl ? Number(cl[1]) : 0);
  return buf.length >= length ? { status, headEnd, length } : null;
}

function send(conn, raw) {
  return new Promise((resolve, reject) => {
    conn.pending = { resolve, reject };
    conn.socket.write(raw);
  });
}

// A fixed pool of connections, opened before the clock starts, each carrying one request at a time
// (as bench/flash-sale.ts drives its 500): a request due while every connection is busy waits for
// the next free one, and its latency counts from when it was due (open loop). The first version
// opened a new socket whenever its key's connection was busy, so a burst opened thousands at once
// and the server's accept queue reset them (ECONNRESET). A connection that fails is replaced; the
// request's answer is then status 0 (counted as an error).
async function runPhases(port, phases, connections) {
  const idle = [];
  const waiting = [];
  const give = (conn) => { const next = waiting.shift(); if (next) next(conn); else idle.push(conn); };
  const take = () => idle.length ? Promise.resolve(idle.pop()) : new Promise((resolve) => waiting.push(resolve));
  for (let i = 0; i < connections; i++) {
    const conn = openConnection(port);
    await new Promise((resolve, reject) => { conn.socket.once('connect', resolve); conn.socket.once('error', reject); });
    idle.push(conn);
  }
  const out = [];
  const cpuMs = () => { const f = require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8'); const x = f.slice(f.lastIndexOf(')') + 2).split(' '); return (Number(x[11]) + Number(x[12])) * 10; };
  for (const requests of phases) {
    const samples = [];
    const cpu0 = cpuMs();
    const started = performance.now() + 100;
    await Promise.all(requests.map(async (r) => {
      const due = started + r.due;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      let conn = await take();
      try {
        const { status, body } = await send(conn, r.raw);
        samples.push({ i: r.i, status, ms: performance.now() - due, body });
      } catch (err) {
        samples.push({ i: r.i, status: 0, ms: performance.now() - due, body: String(err && err.code || err) });
        conn.socket.destroy();
        conn = openConnection(port);
      }
      give(conn);
    }));
    // This thread's CPU over the phase (the load generator's cost, on the same cores as the server).
    out.push({ samples, cpuMs: cpuMs() - cpu0 });
  }
  for (const conn of idle) conn.socket.destroy();
  return out;
}
`;

type Phase = { samples: Sample[]; cpuMs: number };
function runLoad(port: number, phases: Request[][], connections: number): Promise<Phase[]> {
  return new Promise((resolve, reject) => {
    const source = `${LOAD_GENERATOR}
      const { parentPort, workerData } = require('node:worker_threads');
      runPhases(workerData.port, workerData.phases, workerData.connections).then((out) => parentPort.postMessage(out));`;
    const worker = new Worker(source, { eval: true, workerData: { port, phases, connections } });
    worker.once('message', (out: Phase[]) => {
      void worker.terminate();
      resolve(out);
    });
    worker.once('error', reject);
  });
}


async function main() {
  const pg = (await import('pg')).default;
  const api = await loadServer({ source: true });
  const { events, ticketTypes } = api;
  const adminUrl = requirePostgres('seating.ts');
  const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 500);
  const RATE = Number(process.env.BENCH_RATE ?? 1200);
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
  const POOL = Number(process.env.BENCH_POOL ?? 10);
  const server = await startServer({ api, adminUrl, poolSize: POOL, env: { LOG_LEVEL: 'silent', JOBS_POLL_MS: '0', RATE_LIMIT_ORDERS_PER_MINUTE: '100000000' } });
  try {
    const { deps, port } = server;
    const { tenant, host } = await seedTenant(api, server, { name: 'Bench Arena', url: 'arena' });
    const sections = Array.from({ length: 8 }, (_, i) => ({
      name: `Block ${i + 1}`, category: 'Arena', rows: 25, seatsPerRow: 100, rowLabels: 'numbers' as const, firstRow: 1, numbering: 'ltr' as const,
      aisleAfter: [], curve: 0, angle: 0, x: (i % 4) * 1100, y: Math.floor(i / 4) * 400,
    }));
    const seedArena = async (label: string) => {
      const eventId = randomUUID();
      const ticketTypeId = randomUUID();
      await deps.db.insert(events).values({ tenantId: tenant.id, id: eventId, name: `Arena ${label}`, urlName: label, status: 'published', publishedAt: new Date() });
      await deps.db.insert(ticketTypes).values({ tenantId: tenant.id, id: ticketTypeId, eventId, name: 'Arena', price: 5000, quantity: 20_000, remaining: 20_000, maxPerOrder: 10 });
      await deps.db.transaction((tx) =>
        api.insertEventSeating(tx, { tenantId: tenant.id, eventId, layoutId: randomUUID(), layoutName: 'Arena', categories: [{ category: 'Arena', ticketTypeId }], seats: api.eventSeatRowsOf(sections, [], new Map([['Arena', ticketTypeId]])) }),
      );
      return { eventId, ticketTypeId };
    };
    const warm = await seedArena('warmup');
    const show = await seedArena('show');
    const reference = await seedArena('reference');
    // As the console's seats copy does (event-seating.ts): the planner measures the new seats at once.
    // BENCH_ANALYZE=0: not measured (the code before "Issue 27 (seats)"), for before/after.
    if (process.env.BENCH_ANALYZE !== '0') await api.analyzeSeating(deps.db);
    // The "before" as it was whenever autovacuum had not come round yet (always on PGlite): on this
    // scratch database only, autovacuum leaves the seats alone, so the run does not change plans midway.
    else await deps.db.execute((await import('drizzle-orm')).sql`alter table event_seats set (autovacuum_enabled = false)`);

    const schedule = (event: { eventId: string; ticketTypeId: string }, seconds: number, rate: number) => {
      const requests: Request[] = [];
      const path = `/api/p/tenants/${tenant.id}/events/${event.eventId}/seat-holds`;
      const total = Math.round(rate * seconds);
      for (let k = 0; k < total; k++) {
        const row = Math.floor(Math.random() * 200);
        const at = Math.floor(Math.random() * 99);
        const body = JSON.stringify(k % 2 ? { best: { ticketTypeId: event.ticketTypeId, quantity: 2 } } : { seats: [row * 100 + at, row * 100 + at + 1] });
        const raw = `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
        requests.push({ i: k, due: (k * 1000) / rate, key: `c${k % CONNECTIONS}`, raw });
      }
      return requests;
    };
    const statements = await watchStatements();
    if (process.env.BENCH_EXPLAIN === '1') {
      // The take's plan and what it writes, on the 20,000-seat arena: EXPLAIN (ANALYZE, BUFFERS, WAL) of
      // one picked hold and one "best available" (the seats of a run the window would hand out), the
      // statement as the server sends it (a prepared statement, its generic plan), then the bare UPDATE.
      const c = new pg.Client({ connectionString: server.scratch!.url });
      await c.connect();
      const params = (seats: number[], bestOf: string | null) => {
        const holdId = randomUUID();
        return [tenant.id, warm.eventId, `{${seats.join(',')}}`, bestOf, holdId, 'x'.repeat(64), new Date(Date.now() + 600_000).toISOString(), 'seating.expire-hold', JSON.stringify({ tenantId: tenant.id, holdId }), `seating.expire-hold:${holdId}`];
      };
      const explain = async (title: string, name: string, text: string, values: unknown[]) => {
        await c.query('set plan_cache_mode = force_generic_plan');
        await c.query(`prepare ${name} as ${text}`);
        const { rows } = await c.query(`explain (analyze, buffers, wal, costs off) execute ${name}(${values.map((v) => (v === null ? 'null' : `'${String(v).replace(/'/g, "''")}'`)).join(', ')})`);
        console.log(`\n${title}\n${rows.map((r: Record<string, string>) => `  ${r['QUERY PLAN']}`).join('\n')}`);
      };
      const stat = async () => (await c.query("select n_tup_upd, n_tup_hot_upd from pg_stat_user_tables where relname = 'event_seats'")).rows[0];
      await explain('Picked hold (seats 100, 101), the take as prepared (wait):', 'take_wait', api.TAKE_SEATS_SQL.wait, params([100, 101], null));
      await explain('Best available (seats 0, 1 of the ticket type), the take as prepared (skip locked):', 'take_skip', api.TAKE_SEATS_SQL.skip, params([0, 1], warm.ticketTypeId));
      await explain('The bare conditional UPDATE of 2 seats:', 'bare', "update event_seats set hold_id = gen_random_uuid() where tenant_id = $1 and event_id = $2 and n = any($3::int[]) and status = 'open' and hold_id is null and order_id is null", [tenant.id, warm.eventId, '{200,201}']);
      // The backend's CPU per take, 1,000 picked takes of 2 free seats one after another on one
      // connection, by plan-cache mode (auto: as the server runs it), beside the bare UPDATE.
      await c.query('deallocate all');
      const pid = (await c.query('select pg_backend_pid() as pid')).rows[0].pid as number;
      let next = 1000;
      const perTake = async (mode: string, name: string, text: string, bare = false) => {
        await c.query(`set plan_cache_mode = ${mode}`);
        const t0 = cpuMsOf(`/proc/${pid}/stat`);
        for (let i = 0; i < 1000; i++) {
          const seats = [next, next + 1];
          next += 2;
          await c.query({ name, text, values: bare ? [tenant.id, warm.eventId, `{${seats.join(',')}}`] : params(seats, null) });
        }
        const ms = (cpuMsOf(`/proc/${pid}/stat`) - t0) / 1000;
        const ps = (await c.query('select generic_plans, custom_plans from pg_prepared_statements where name = $1', [name])).rows[0];
        console.log(`${mode.padEnd(20)} ${name.padEnd(10)} PostgreSQL CPU ${ms.toFixed(3)} ms a take; plans: ${JSON.stringify(ps)}`);
      };
      if (process.env.BENCH_EXPERIMENT === 'hot') {
        await c.query('drop index event_seats_hold_idx');
        await c.query('drop index event_seats_free_idx');
        await c.query("create index event_seats_free_idx on event_seats (tenant_id, event_id, ticket_type_id, score) where status = 'open' and order_id is null");
        await c.query('alter table event_seats set (fillfactor = 70)');
        await c.query('vacuum full analyze event_seats');
      }
      const bareSql = "update event_seats set hold_id = gen_random_uuid() where tenant_id = $1 and event_id = $2 and n = any($3::int[]) and status = 'open' and hold_id is null and order_id is null";
      for (let round = 0; round < 2; round++) {
        await perTake('auto', `auto${round}`, api.TAKE_SEATS_SQL.wait);
        await perTake('force_generic_plan', `gen${round}`, api.TAKE_SEATS_SQL.wait);
        await perTake('force_custom_plan', `cus${round}`, api.TAKE_SEATS_SQL.wait);
        await perTake('auto', `bare${round}`, bareSql, true);
      }
      await new Promise((resolve) => setTimeout(resolve, 800));
      console.log('event_seats updates / HOT updates so far:', JSON.stringify(await stat()));
      const { rows: idx } = await c.query("select indexrelname, idx_scan, pg_relation_size(indexrelid) as bytes from pg_stat_user_indexes where relname in ('event_seats', 'seat_holds', 'jobs') order by relname, indexrelname");
      console.log('indexes:', JSON.stringify(idx));
      await c.end();
      return;
    }
    if (process.env.BENCH_TRACE === '1') {
      const path = `/api/p/tenants/${tenant.id}/events/${warm.eventId}/seat-holds`;
      let next = 0;
      const kinds = {
        picked: () => ({ seats: [next * 2 + 10_000, next++ * 2 + 10_001] }),
        'best available: 2 together': () => ({ best: { ticketTypeId: warm.ticketTypeId, quantity: 2 } }),
      };
      for (const [kind, body] of Object.entries(kinds)) {
        for (let i = 0; i < 20; i++) await call(port, host, 'POST', path, body());
        const times: number[] = [];
        for (let i = 0; i < 10; i++) {
          statements.state.log = [];
          const t0 = performance.now();
          const res = await call(port, host, 'POST', path, body());
          times.push(performance.now() - t0);
          if (res.status !== 201) throw new Error(`trace hold: ${res.status} ${JSON.stringify(res.body)}`);
        }
        const log = statements.state.log!;
        statements.state.log = null;
        console.log(`\nOne ${kind} hold alone (last of 10; median of the 10: ${times.sort((a, b) => a - b)[5]!.toFixed(1)} ms): ${log.length} statements, ${log.reduce((n, l) => n + l.ms, 0).toFixed(1)} ms in them`);
        for (const l of log) console.log(`  ${l.ms.toFixed(2).padStart(7)} ms  ${l.text}`);
      }
      statements.stop();
      return;
    }
    const backendCpu = async () => {
      // CPU ms of this database's PostgreSQL backends so far (PostgreSQL on this machine; a backend gone counts 0).
      const scratch = server.scratch!;
      const { rows } = await scratch.admin.query('select pid from pg_stat_activity where datname = $1', [scratch.name]);
      return new Map(rows.map((r: { pid: number }) => [r.pid, cpuMsOf(`/proc/${r.pid}/stat`) || 0] as const));
    };
    await runLoad(port, [schedule(warm, 2, RATE)], CONNECTIONS);
    // Whether the planner had measured the seats when the measured phase began (by the seats copy's
    // ANALYZE, or by autovacuum meanwhile, which on a busy server may take minutes to come round).
    const stats = await deps.db.execute(
      (await import('drizzle-orm')).sql`select last_analyze is not null as analyzed, last_autoanalyze is not null as autoanalyzed from pg_stat_user_tables where relname = 'event_seats'`,
    );
    const measured = (stats as unknown as { rows: Array<{ analyzed: boolean; autoanalyzed: boolean }> }).rows[0];
    const seatStatistics = measured?.analyzed ? 'analyzed' : measured?.autoanalyzed ? 'autoanalyzed' : 'never measured';
    // How long each pool connection is checked out (acquire to release) over the measured phase, and
    // the statements sent by name (a named prepared statement; others as "other"): against the
    // backends' CPU per statement, the time a connection is held but not working in PostgreSQL.
    const pool = (deps.db as unknown as { $client: import('pg').Pool }).$client;
    const acquiredAt = new Map<unknown, number>();
    const heldMs: number[] = [];
    const onAcquire = (client: unknown) => acquiredAt.set(client, performance.now());
    const onRelease = (_err: unknown, client: unknown) => {
      const t = acquiredAt.get(client);
      if (t !== undefined) heldMs.push(performance.now() - t);
      acquiredAt.delete(client);
    };
    pool.on('acquire', onAcquire);
    pool.on('release', onRelease);
    const byName = new Map<string, number>();
    const pgQuery = pg.Client.prototype.query;
    (pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }).query = function (this: unknown, ...a: unknown[]) {
      const q = a[0] as { name?: string } | string;
      const name = (typeof q === 'object' && q?.name) || 'other';
      byName.set(name, (byName.get(name) ?? 0) + 1);
      return (pgQuery as unknown as (...x: unknown[]) => unknown).apply(this, a);
    };
    const before = { server: serverThreadCpuMs(), pg: await backendCpu(), statements: statements.state.count, at: performance.now() };
    const profiler = process.env.BENCH_PROFILE ? await startProfile() : null;
    // What the database's backends and the server's pool are doing, sampled every 20 ms over the
    // measured phase: pg_stat_activity's state and wait event per backend of the scratch database
    // (CPU: active with no wait event), and the requests waiting for a pool connection.
    const waits = new Map<string, number>();
    const poolWaiting: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      const scratch = server.scratch!;
      while (sampling) {
        poolWaiting.push(server.database.poolStats().waiting);
        const { rows } = await scratch.admin.query(
          "select state, coalesce(wait_event_type || ':' || wait_event, 'CPU') as w from pg_stat_activity where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()",
          [scratch.name],
        );
        for (const r of rows as Array<{ state: string; w: string }>) {
          const k = r.state === 'active' ? `active ${r.w}` : String(r.state);
          waits.set(k, (waits.get(k) ?? 0) + 1);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const [phase] = await runLoad(port, [schedule(show, SECONDS, RATE)], CONNECTIONS);
    loopDelay.disable();
    sampling = false;
    await sampler;
    const samples = phase!.samples;
    if (profiler) await profiler.stop(process.env.BENCH_PROFILE!);
    const after = { server: serverThreadCpuMs(), pg: await backendCpu(), statements: statements.state.count, at: performance.now() };
    pool.off('acquire', onAcquire);
    pool.off('release', onRelease);
    (pg.Client.prototype as unknown as { query: unknown }).query = pgQuery;
    heldMs.sort((a, b) => a - b);
    statements.stop();
    const pgMs = [...after.pg].reduce((sum, [pid, t]) => sum + t - (before.pg.get(pid) ?? 0), 0);
    const held = samples!.filter((s) => s.status === 201);
    const refused = samples!.filter((s) => s.status === 409).length;
    const other = samples!.filter((s) => s.status !== 201 && s.status !== 409);
    const lastAt = Math.max(...samples!.map((s) => s.ms)) / 1000;
    const endS = Math.max(...samples!.map((s) => (s.i * 1000) / RATE + s.ms)) / 1000;
    const ms = held.map((s) => s.ms).sort((a, b) => a - b);
    const seatsAnswered: number[] = held.flatMap((s) => (JSON.parse(s.body) as { seats: Array<{ n: number }> }).seats.map((x) => x.n));
    const inDb = await deps.db.execute(
      (await import('drizzle-orm')).sql`select count(*)::int as n from event_seats where event_id = ${show.eventId} and hold_id is not null`,
    );
    const dbHeld = Number((inDb as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);

    // The reference: the bare conditional UPDATE of 2 free adjacent seats, 16 clients, 3 s.
    const url = server.scratch!.url;
    const clients = await Promise.all(Array.from({ length: 16 }, async () => { const c = new pg.Client({ connectionString: url }); await c.connect(); return c; }));
    let refDone = 0;
    const until = Date.now() + 3000;
    await Promise.all(clients.map(async (c) => {
      while (Date.now() < until) {
        const row = Math.floor(Math.random() * 200);
        const at = Math.floor(Math.random() * 99);
        await c.query("update event_seats set hold_id = gen_random_uuid() where tenant_id = $1 and event_id = $2 and n = any($3::int[]) and status = 'open' and hold_id is null and order_id is null", [tenant.id, reference.eventId, [row * 100 + at, row * 100 + at + 1]]);
        refDone++;
      }
    }));
    await Promise.all(clients.map((c) => c.end()));

    console.log(JSON.stringify({
      seats: 20_000, connections: CONNECTIONS, rate: RATE, sent: samples!.length, held: held.length, refused, errors: other.length,
      // Answered holds over the time it took to answer them (the schedule's seconds, or longer when the server fell behind).
      holdsPerSecond: Math.round(held.length / Math.max(SECONDS, endS)), lastAnsweredAtS: Math.round(endS * 10) / 10, answeredWithinS: Math.round(lastAt * 10) / 10,
      p50: Math.round(percentile(ms, 50)), p99: Math.round(percentile(ms, 99)),
      // Per request answered (held or refused), over the measured phase.
      serverCpuMsPerHold: Math.round(((after.server - before.server) / samples!.length) * 100) / 100,
      pgCpuMsPerHold: Math.round((pgMs / samples!.length) * 100) / 100,
      statementsPerHold: Math.round(((after.statements - before.statements) / samples!.length) * 10) / 10,
      // The share of one core the server's thread used over the measured phase (near 1: the thread is the limit).
      serverThreadBusy: Math.round(((after.server - before.server) / (after.at - before.at)) * 100) / 100,
      // How late the server's event loop ran its timers over the measured phase (its turns' length), p50 / p99 ms.
      eventLoopDelayMs: [Math.round(loopDelay.percentile(50) / 1e5) / 10, Math.round(loopDelay.percentile(99) / 1e5) / 10],
      // The load generator's own thread (a worker of this process, on the same 2 cores as the server).
      loadGeneratorCpuMsPerHold: Math.round((phase!.cpuMs / samples!.length) * 100) / 100,
      // Share of the samples of the database's client backends in each state (active CPU, lock waits…) and the pool's queue.
      backendStates: Object.fromEntries([...waits].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, Math.round((n / Math.max(1, poolWaiting.length)) * 10) / 10])),
      poolWaitingAvg: Math.round(poolWaiting.reduce((a, b) => a + b, 0) / Math.max(1, poolWaiting.length)),
      // A pool connection checked out, acquire to release, p50 / p99 ms, and how many checkouts a hold.
      poolConnectionHeldMs: [Math.round(percentile(heldMs, 50) * 10) / 10, Math.round(percentile(heldMs, 99) * 10) / 10],
      poolCheckoutsPerHold: Math.round((heldMs.length / samples!.length) * 100) / 100,
      statementsByName: Object.fromEntries([...byName].sort((a, b) => b[1] - a[1])),
      seatStatisticsAtStart: seatStatistics,
      seatsAnswered: seatsAnswered.length, seatsDistinct: new Set(seatsAnswered).size, seatsHeldTwice: seatsAnswered.length - new Set(seatsAnswered).size, seatsHeldInDb: dbHeld,
      referenceUpdatesPerSecond: Math.round(refDone / 3), cpus: os.cpus().length, loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    }, null, 2));
    if (new Set(seatsAnswered).size !== seatsAnswered.length || dbHeld !== seatsAnswered.length) throw new Error('a seat held twice, or the database disagrees with the answers');
  } finally {
    await server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
