// Public reads under an on-sale rush (issue 13): GET /api/p/events/{name} and the event page HTML
// /{name}/ with 100 keep-alive connections, each figure printed beside a bare Fastify hello-world
// measured in the same run on the same machine (the reference; budget: >= 50% of it).
//
//   npx tsx bench/public-reads.ts                                    # embedded database (PGlite), as `npm start`
//   DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npx tsx bench/public-reads.ts
//
// Starts the whole server in this process on loopback (a scratch PGlite directory, or a scratch
// database on that PostgreSQL server, dropped afterwards), seeds a tenant and an event with five
// ticket types, and serves the built web app's index.html when apps/web/dist exists (the HTML row
// is skipped otherwise). The load generator runs in a worker thread (plain sockets, HTTP/1.1, one
// request in flight per connection, like autocannon, accepting gzip and br as browsers do): it shares the two cores with the server, the
// same for the reference as for Marquee. Knobs: BENCH_CONNECTIONS (100), BENCH_SECONDS (5 per row),
// BENCH_WARMUP_SECONDS (2). Exit code 1 when a row is under 50% of the reference.

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadServer } from './server.js';
import { percentile, seedTenant, startServer } from './support.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);

type Result = { requests: number; seconds: number; statuses: Record<string, number>; mean: number; p50: number; p99: number };

// Plain JavaScript for the worker: keeps `connections` sockets busy with one GET each until the time is up.
const LOAD = String.raw`
const net = require('node:net');
const { performance } = require('node:perf_hooks');
const { parentPort, workerData } = require('node:worker_threads');
const { port, host, path, connections, seconds } = workerData;
const request = Buffer.from('GET ' + path + ' HTTP/1.1\r\nHost: ' + host + '\r\nAccept: */*\r\nAccept-Encoding: gzip, deflate, br\r\nConnection: keep-alive\r\n\r\n');
function complete(buf) {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return 0;
  const head = buf.subarray(0, end).toString('latin1');
  const status = Number(head.slice(9, 12));
  const m = /\r\ncontent-length: *(\d+)/i.exec(head);
  const len = m ? Number(m[1]) : 0;
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    const term = buf.indexOf('\r\n0\r\n\r\n', end);
    return term < 0 ? 0 : { length: term + 7, status };
  }
  return buf.length >= end + 4 + len ? { length: end + 4 + len, status } : 0;
}
const latencies = [];
const statuses = {};
let requests = 0;
const stopAt = performance.now() + seconds * 1000;
const started = performance.now();
let open = connections;
function finish() {
  if (--open > 0) return;
  const elapsed = (performance.now() - started) / 1000;
  parentPort.postMessage({ requests, seconds: elapsed, statuses, latencies });
}
for (let i = 0; i < connections; i++) {
  const socket = net.connect({ host: '127.0.0.1', port, noDelay: true });
  let buf = Buffer.alloc(0);
  let sentAt = 0;
  const send = () => { sentAt = performance.now(); socket.write(request); };
  socket.on('connect', send);
  socket.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    const done = complete(buf);
    if (!done) return;
    buf = buf.subarray(done.length);
    const now = performance.now();
    latencies.push(now - sentAt);
    statuses[done.status] = (statuses[done.status] || 0) + 1;
    requests++;
    if (now < stopAt) send();
    else { socket.destroy(); finish(); }
  });
  socket.on('error', () => { statuses.error = (statuses.error || 0) + 1; finish(); });
}
`;

function load(port: number, host: string, urlPath: string, seconds: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD, { eval: true, workerData: { port, host, path: urlPath, connections: CONNECTIONS, seconds } });
    worker.once('message', ({ latencies, ...r }: Omit<Result, 'mean' | 'p50' | 'p99'> & { latencies: number[] }) => {
      void worker.terminate();
      latencies.sort((a, b) => a - b);
      const mean = latencies.reduce((n, x) => n + x, 0) / (latencies.length || 1);
      resolve({ ...r, mean, p50: percentile(latencies, 50), p99: percentile(latencies, 99) });
    });
    worker.once('error', reject);
  });
}

async function measure(port: number, host: string, urlPath: string): Promise<Result> {
  await load(port, host, urlPath, WARMUP);
  return load(port, host, urlPath, SECONDS);
}

const rate = (r: Result) => r.requests / r.seconds;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main() {
  const { default: Fastify } = await import('fastify');
  const api = await loadServer({ source: true });
  const { events, ticketTypes } = api;

  // The reference: a bare Fastify hello-world, measured by the same load generator in this run.
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ port: 0, host: '127.0.0.1' });
  const helloPort = (hello.server.address() as { port: number }).port;
  const reference = await measure(helloPort, `127.0.0.1:${helloPort}`, '/');
  await hello.close();

  const adminUrl = process.env.DATABASE_URL;
  const webDist = path.resolve('apps/web/dist');
  const server = await startServer({ api, adminUrl, webDist, env: { LOG_LEVEL: 'silent', JOBS_POLL_MS: '0' } });
  try {
    const { deps, port } = server;
    const { tenant, host } = await seedTenant(api, server, { name: 'Bench Events', url: 'bench' });
    const eventId = randomUUID();
    await deps.db.insert(events).values({
      tenantId: tenant.id,
      id: eventId,
      name: 'Summer Jam',
      urlName: 'summer-jam',
      status: 'published',
      publishedAt: new Date(),
      description: '<p>A long evening of music, food and friends under the open sky.</p>'.repeat(4),
      startDateTime: new Date(Date.now() + 30 * 86400_000),
      venueName: 'The Hall',
      address1: '10 Main St',
      city: 'Springfield',
      capacity: 5000,
      remainingCapacity: 5000,
    });
    await deps.db.insert(ticketTypes).values(
      ['Early Bird', 'General Admission', 'VIP', 'Student', 'Family'].map((name, i) => ({
        tenantId: tenant.id,
        id: randomUUID(),
        eventId,
        name,
        description: `${name} entry to every stage.`,
        price: 2500 + i * 1500,
        quantity: 1000,
        remaining: 1000,
        sortOrder: i,
      })),
    );
    const rows: Array<[string, Result]> = [['bare Fastify hello-world (reference)', reference]];
    rows.push(['GET /api/p/events/summer-jam', await measure(port, host, '/api/p/events/summer-jam')]);
    if (existsSync(path.join(webDist, 'index.html'))) rows.push(['event page HTML /summer-jam/', await measure(port, host, '/summer-jam/')]);
    else console.log('(apps/web/dist is not built: the event page HTML row is skipped; npm run build)');

    const refRate = rate(reference);
    console.log(`\nPublic reads, ${CONNECTIONS} connections, ${SECONDS} s per row after ${WARMUP} s warm-up, ${adminUrl ? 'PostgreSQL' : 'PGlite (embedded)'}, ${os.cpus().length} cores\n`);
    console.log(`${'measure'.padEnd(40)} ${'req/s'.padStart(8)} ${'of ref'.padStart(7)} ${'mean ms'.padStart(8)} ${'p99 ms'.padStart(8)}  statuses`);
    let under = false;
    for (const [name, r] of rows) {
      const share = rate(r) / refRate;
      if (share < 0.5) under = true;
      console.log(
        `${name.padEnd(40)} ${fmt(rate(r)).padStart(8)} ${`${Math.round(share * 100)}%`.padStart(7)} ${r.mean.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)}  ${JSON.stringify(r.statuses)}`,
      );
    }
    console.log(`\nbudget: each row >= 50% of the reference: ${under ? 'NOT MET' : 'met'}`);
    if (under) process.exitCode = 1;
  } finally {
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
