// Waiting room: 10,000 simulated visitors through an event's line, over HTTP on loopback.
//
//   npx tsx bench/waiting-room.ts                                   (PGlite, the default npm start)
//   DATABASE_URL=postgres://postgres@127.0.0.1:55407/postgres npx tsx bench/waiting-room.ts
//
// Starts the server in this process, creates a tenant through the real use case and an event with
// its waiting room on (opening a few seconds ahead, BENCH_RATE admissions per minute). Then:
//  1. BENCH_EARLY (6,000) visitors join before the opening (random places),
//  2. the line opens; BENCH_LATE (4,000) more join (arrival order),
//  3. every visitor refreshes once (the page's auto-refresh), BENCH_SETTLE_S seconds after opening.
// It prints joins and refreshes per second with p50/p99 next to the reference measured in the same
// run (GET /api/health on the same connections), and checks the guarantees: the early places are a
// permutation of 1..N, late arrivals are behind them in arrival order, no more were admitted than the
// rate allows, an admitted visitor can place an order and a waiting one cannot. Exit code 1 otherwise.

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { loadServer } from './server.js';
import { percentile, seedTenant, startServer } from './support.js';

const EARLY = Number(process.env.BENCH_EARLY ?? 6000);
const LATE = Number(process.env.BENCH_LATE ?? 4000);
const RATE = Number(process.env.BENCH_RATE ?? 6000); // per minute: 100 a second
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 3);

type Answer = { status: number; body: string; headers: http.IncomingHttpHeaders; ms: number };

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(port: number, host: string, method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: url, agent, headers: { host, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `count` tasks, `CONCURRENCY` at a time, in index order of start. */
async function pool<T>(count: number, task: (i: number) => Promise<T>): Promise<{ results: T[]; seconds: number }> {
  const results = new Array<T>(count);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return { results, seconds: (performance.now() - started) / 1000 };
}

function summary(label: string, answers: Answer[], seconds: number) {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  console.log(`  ${label.padEnd(40)} ${(answers.length / seconds).toFixed(0).padStart(6)}/s   p50 ${percentile(ms, 50).toFixed(1)} ms   p99 ${percentile(ms, 99).toFixed(1)} ms`);
}

async function main() {
  const api = await loadServer({ source: true });
  const { events, ticketTypes, setWaitingRoom } = api;

  const server = await startServer({
    api,
    adminUrl: process.env.DATABASE_URL || undefined,
    env: { LOG_LEVEL: 'silent', JOBS_POLL_MS: '0', PAYMENT_DRIVER: 'test', RATE_LIMIT_ORDERS_PER_MINUTE: '1000000' },
  });
  const { database, deps, port } = server;
  let ok = true;
  const check = (what: string, pass: boolean) => {
    console.log(`  ${pass ? 'ok  ' : 'FAIL'} ${what}`);
    if (!pass) ok = false;
  };
  try {
    const { tenant, host } = await seedTenant(api, server, { name: 'Bench Events', url: 'bench' });
    const eventId = randomUUID();
    const ticketTypeId = randomUUID();
    await deps.db.insert(events).values({ tenantId: tenant.id, id: eventId, name: 'Rush', urlName: 'rush', status: 'published', startDateTime: new Date(Date.now() + 30 * 86400_000) });
    await deps.db.insert(ticketTypes).values({ tenantId: tenant.id, id: ticketTypeId, eventId, name: 'General Admission', price: 4500, quantity: 100_000, remaining: 100_000 });
    const ctx = { tenantId: tenant.id, user: { id: randomUUID() } } as Parameters<typeof setWaitingRoom>[0]['ctx'];
    // Opens after the early joins (set far ahead now, moved to "now" when they are in).
    await setWaitingRoom({ deps, ctx, eventId, settings: { enabled: true, opensAt: new Date(Date.now() + 3_600_000).toISOString(), admitPerMinute: RATE } });

    const roomPath = `/api/p/tenants/${tenant.id}/events/${eventId}/waiting-room`;
    // Each visitor from an address of their own (the server believes x-forwarded-for from loopback):
    // one address's joins beyond the first few draw in later rounds (issue 21 §1).
    const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const join = (token?: string, visitor = 0) => request(port, host, 'POST', roomPath, token ? { 'x-waiting-room': token } : { 'x-forwarded-for': addressOf(visitor) });
    const place = (a: Answer) => JSON.parse(a.body) as { admitted: boolean; position: number; estimateSeconds: number };

    console.log(`\nWaiting room: ${EARLY.toLocaleString('en-US')} visitors before opening, ${LATE.toLocaleString('en-US')} after, ${RATE}/min admitted, ${CONCURRENCY} connections, ${database.kind}`);
    const reference = await pool(2000, () => request(port, host, 'GET', '/api/health'));
    summary('reference: GET /api/health', reference.results, reference.seconds);

    const early = await pool(EARLY, (i) => join(undefined, i));
    summary('join before opening (random place)', early.results, early.seconds);
    const earlyTokens = early.results.map((a) => a.headers['x-waiting-room'] as string);

    await setWaitingRoom({ deps, ctx, eventId, settings: { enabled: true, opensAt: new Date().toISOString(), admitPerMinute: RATE } });
    const openedAt = Date.now();
    const late = await pool(LATE, (i) => join(undefined, EARLY + i));
    summary('join after opening (arrival order)', late.results, late.seconds);
    const lateTokens = late.results.map((a) => a.headers['x-waiting-room'] as string);

    const wait = SETTLE_S * 1000 - (Date.now() - openedAt);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const all = [...earlyTokens, ...lateTokens];
    const refreshStarted = Date.now();
    const refresh = await pool(all.length, (i) => join(all[i]));
    summary('refresh (auto-refresh, place kept)', refresh.results, refresh.seconds);
    const refreshEnded = Date.now();

    const places = refresh.results.map(place);
    const earlyPlaces = places.slice(0, EARLY);
    const latePlaces = places.slice(EARLY);
    const admitted = places.filter((p) => p.admitted).length;
    const allowedMax = Math.floor(((refreshEnded - openedAt) / 60_000) * RATE) + 1;
    const allowedMin = Math.floor(((refreshStarted - openedAt) / 60_000) * RATE) - 1;
    console.log(`  admitted after ${((refreshEnded - openedAt) / 1000).toFixed(1)} s: ${admitted} (the rate allows ${Math.max(0, allowedMin)} to ${allowedMax})`);
    check('every answer 200', [...early.results, ...late.results, ...refresh.results].every((a) => a.status === 200));
    check('places kept on refresh (same visitor)', refresh.results.every((a, i) => (a.headers['x-waiting-room'] as string).split('.')[0] === all[i]!.split('.')[0]));
    check('admissions within the rate', admitted <= allowedMax && admitted >= Math.max(0, allowedMin));
    // Before opening the positions were a draw: the early joins' own answers are not arrival order.
    const earlyJoinPositions = early.results.map((a) => place(a).position);
    check('early places drawn at random (not arrival order)', earlyJoinPositions.slice(1).some((p, i) => p < earlyJoinPositions[i]!));
    const lateWaits = latePlaces.map((p) => p.estimateSeconds);
    check('late arrivals in arrival order', lateWaits.every((s, i) => i === 0 || s >= lateWaits[i - 1]!));
    const lastEarlyWait = Math.max(...earlyPlaces.map((p) => p.estimateSeconds));
    check('late arrivals behind every early visitor', latePlaces.every((p) => p.admitted || p.estimateSeconds >= lastEarlyWait - 1));

    const orderBody = JSON.stringify({
      order: { email: 'b@example.test', firstName: 'Ada', lastName: 'Lovelace', phone: '+15551234567', address1: '1 Loop', address2: 'Apt 2', city: 'Springfield', state: 'NY', zipCode: '10001', country: 'USA', optInEmail: false, optInText: false },
      lines: [{ ticketTypeId, quantity: 1 }],
      source: 'online',
    });
    const ordersPath = `/api/p/tenants/${tenant.id}/events/${eventId}/orders`;
    const inIdx = places.findIndex((p) => p.admitted);
    // The last in line (its turn may have come for the first ones still waiting at the refresh).
    const lastWait = Math.max(...places.map((p) => p.estimateSeconds));
    const outIdx = lastWait > (Date.now() - refreshEnded) / 1000 + 5 ? places.findIndex((p) => p.estimateSeconds === lastWait) : -1;
    if (inIdx >= 0) {
      const r = await request(port, host, 'POST', ordersPath, { 'x-waiting-room': refresh.results[inIdx]!.headers['x-waiting-room'] as string }, orderBody);
      check(`an admitted visitor places an order (${r.status})`, r.status === 201);
    }
    if (outIdx >= 0) {
      const r = await request(port, host, 'POST', ordersPath, { 'x-waiting-room': refresh.results[outIdx]!.headers['x-waiting-room'] as string }, orderBody);
      check(`a waiting visitor cannot (${r.status})`, r.status === 403);
    }
    const skip = await request(port, host, 'POST', ordersPath, {}, orderBody);
    check(`no place, no order (${skip.status} ${skip.status === 403 ? "" : skip.body.slice(0, 200)})`, skip.status === 403);
    agent.destroy();
  } finally {
    await server.close();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
