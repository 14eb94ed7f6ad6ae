// The benchmarks' one load driver: keep-alive HTTP/1.1 connections on plain sockets, one request in
// flight on each, written raw and read back by hand (no HTTP client's CPU in the figures). The
// driver is JavaScript source, run in a worker thread (a worker has no TS loader), so that sending
// and timing never share the server's event loop. Used by box-office.ts, checkin.ts, rush-reads.ts
// and flash-sale.ts.

import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Worker } from 'node:worker_threads';

/**
 * `openConnection(port, keepBody)`: a connection (`conn.ready` settles when it is connected);
 * `send(conn, raw)`: resolves the answer's status once it has all arrived (its body in `conn.body`
 * when opened with keepBody), rejects when the connection fails; `openAll(port, n)`: n connected
 * connections, opened 100 at a time so that the listen backlog is never the limit.
 */
export const CONNECTIONS = String.raw`
const net = require('node:net');
const { performance } = require('node:perf_hooks');

function openConnection(port, keepBody) {
  const socket = net.connect({ host: '127.0.0.1', port, noDelay: true });
  const conn = { socket, buffer: Buffer.alloc(0), pending: null, body: '' };
  conn.ready = new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(conn));
    socket.once('error', reject);
  });
  conn.ready.catch(() => {});
  socket.on('data', (chunk) => {
    conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
    const done = conn.pending && answered(conn.buffer);
    if (!done) return;
    const { resolve } = conn.pending;
    conn.pending = null;
    if (keepBody) conn.body = conn.buffer.toString('utf8', done.headEnd + 4, done.length);
    conn.buffer = conn.buffer.subarray(done.length);
    resolve(done.status);
  });
  const fail = (err) => { if (conn.pending) { const { reject } = conn.pending; conn.pending = null; reject(err || new Error('connection closed')); } };
  socket.on('error', fail);
  socket.on('close', () => fail());
  return conn;
}

/** A whole answer at the start of buf: {status, headEnd, length}; null while incomplete. */
const CONTENT_LENGTH = Buffer.from('\r\ncontent-length: ', 'latin1');
function answered(buf) {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const status = (buf[9] - 48) * 100 + (buf[10] - 48) * 10 + (buf[11] - 48);
  // The server writes its header names in lower case; anything else takes the slow path.
  let at = buf.indexOf(CONTENT_LENGTH);
  if (at >= 0 && at < headEnd) {
    at += CONTENT_LENGTH.length;
    let n = 0;
    while (buf[at] >= 48 && buf[at] <= 57) n = n * 10 + (buf[at++] - 48);
    const length = headEnd + 4 + n;
    return buf.length >= length ? { status, headEnd, length } : null;
  }
  const head = buf.toString('latin1', 0, headEnd).toLowerCase();
  const cl = /\r\ncontent-length: *(\d+)/.exec(head);
  if (cl) {
    const length = headEnd + 4 + Number(cl[1]);
    return buf.length >= length ? { status, headEnd, length } : null;
  }
  if (/\r\ntransfer-encoding: *chunked/.test(head)) {
    const end = buf.indexOf('\r\n0\r\n\r\n', headEnd);
    return end < 0 ? null : { status, headEnd, length: end + 7 };
  }
  return { status, headEnd, length: headEnd + 4 };
}

function send(conn, request) {
  return new Promise((resolve, reject) => {
    conn.pending = { resolve, reject };
    conn.socket.write(request);
  });
}

async function openAll(port, n) {
  const out = [];
  for (let i = 0; i < n; i += 100) out.push(...(await Promise.all(Array.from({ length: Math.min(100, n - i) }, () => openConnection(port).ready))));
  return out;
}
`;

/** A request of a keyed open-loop run: sent `due` ms after its phase starts, on a connection of its `key`. */
export type Request = { i: number; due: number; key: string; raw: string };
/** Its answer: status (0: the connection failed), latency from when it was due (or from when it went, if earlier), body. */
export type Sample = { i: number; status: number; ms: number; body: string };

/**
 * `runPhases`: open loop, each request sent when it is due on an idle keep-alive connection of its
 * key (connectionsPerKey opened before the clock starts, more when all are busy); latency counts from
 * when it was due, so a slow server's queue shows. `runClosed`: closed loop, `connections` each
 * sending the next request as soon as their last was answered.
 */
const KEYED_LOAD = String.raw`${CONNECTIONS}
async function runPhases(port, phases, connectionsPerKey) {
  const idle = new Map();
  const take = (key) => {
    let list = idle.get(key);
    if (!list) idle.set(key, (list = []));
    return list.pop() || openConnection(port, true);
  };
  const give = (key, conn) => idle.get(key).push(conn);
  for (const key of new Set(phases.flat().map((r) => r.key))) for (let i = 0; i < connectionsPerKey; i++) give(key, take(key));
  const out = [];
  for (const requests of phases) {
    const samples = [];
    const started = performance.now() + 100;
    await Promise.all(requests.map(async (r) => {
      const due = started + r.due;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const conn = take(r.key);
      // From when it was due, or from when it went if that was earlier (a wait under 1 ms is not
      // slept, so a request can go up to 1 ms early: measured from its due time, a fast answer read
      // as a negative latency).
      const from = Math.min(due, performance.now());
      // A connection that failed (reset) is counted as status 0 and not used again.
      const status = await send(conn, r.raw).catch(() => 0);
      if (status !== 0) give(r.key, conn);
      samples.push({ i: r.i, status, ms: performance.now() - from, body: status ? conn.body : '' });
    }));
    out.push(samples);
  }
  for (const list of idle.values()) for (const conn of list) conn.socket.destroy();
  return out;
}

async function runClosed(port, requests, connections) {
  const pool = Array.from({ length: connections }, () => openConnection(port, true));
  const samples = [];
  let next = 0;
  await Promise.all(pool.map(async (conn) => {
    while (next < requests.length) {
      const r = requests[next++];
      const sent = performance.now();
      const status = await send(conn, r.raw).catch(() => 0);
      samples.push({ i: r.i, status, ms: performance.now() - sent, body: status ? conn.body : '' });
    }
  }));
  for (const conn of pool) conn.socket.destroy();
  return [samples];
}
`;

/**
 * Closed loop over several phases on the same `connections` keep-alive connections, all connected
 * before the first phase (as flash-sale.ts: a warm-up, then the measured phase on connections already
 * open): each phase's requests go out as the connections free up. `onPhase(p)` (in the caller's
 * thread) is awaited as phase p starts and, with p = phases.length, after the last one ends, so that
 * CPU readings are taken exactly at the phases' edges. A connection that fails stops sending (its
 * request counted as status 0). Answers' bodies are not kept.
 */
const CLOSED_PHASES = String.raw`${CONNECTIONS}
async function runClosedPhases(port, phases, connections, onPhase) {
  const pool = await openAll(port, connections);
  const out = [];
  for (const [p, requests] of phases.entries()) {
    await onPhase(p);
    const samples = [];
    let next = 0;
    await Promise.all(pool.map(async (conn) => {
      while (next < requests.length) {
        const r = requests[next++];
        const sent = performance.now();
        const status = await send(conn, r.raw).catch(() => 0);
        samples.push({ i: r.i, status, ms: performance.now() - sent, body: '' });
        if (status === 0) break;
      }
    }));
    out.push(samples);
  }
  await onPhase(phases.length);
  for (const conn of pool) conn.socket.destroy();
  return out;
}
`;

/** runClosedPhases in a worker thread (see CLOSED_PHASES); the samples of each phase. */
export function runClosedPhases(port: number, phases: Request[][], connections: number, onPhase: (phase: number) => void | Promise<void>): Promise<Sample[][]> {
  return new Promise((resolve, reject) => {
    const source = `${CLOSED_PHASES}
      const { parentPort, workerData } = require('node:worker_threads');
      let resume = null;
      parentPort.on('message', () => { const r = resume; resume = null; r?.(); });
      const onPhase = (phase) => new Promise((r) => { resume = r; parentPort.postMessage({ phase }); });
      runClosedPhases(workerData.port, workerData.phases, workerData.connections, onPhase).then((out) => parentPort.postMessage({ out }));`;
    const worker = new Worker(source, { eval: true, workerData: { port, phases, connections } });
    worker.on('message', (m: { phase?: number; out?: Sample[][] }) => {
      if (m.out) {
        void worker.terminate();
        return resolve(m.out);
      }
      void Promise.resolve(onPhase(m.phase!)).then(() => worker.postMessage('go'), (err) => {
        void worker.terminate();
        reject(err);
      });
    });
    worker.once('error', reject);
  });
}

/**
 * Runs the phases one after the other in a worker thread, open loop with 2 connections a key opened
 * ahead (or, with `closed` > 0, the first phase closed loop on that many connections); the samples of
 * each phase.
 */
export function runLoad(port: number, phases: Request[][], closed = 0): Promise<Sample[][]> {
  return new Promise((resolve, reject) => {
    const source = `${KEYED_LOAD}
      const { parentPort, workerData } = require('node:worker_threads');
      (workerData.closed ? runClosed(workerData.port, workerData.phases[0], workerData.closed) : runPhases(workerData.port, workerData.phases, 2))
        .then((out) => parentPort.postMessage(out));`;
    const worker = new Worker(source, { eval: true, workerData: { port, phases, closed } });
    worker.once('message', (out: Sample[][]) => {
      void worker.terminate();
      resolve(out);
    });
    worker.once('error', reject);
  });
}

/** One request on loopback with the tenant's Host (Node's fetch will not send a Host header), for setting the scene. */
export function call(port: number, host: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise<{ status: number; body: any; cookies: string[] }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: url, headers: { host, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, cookies: res.headers['set-cookie'] ?? [] });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/**
 * CPU time (user + system, or system alone) of a process or thread so far, in ms, from its Linux
 * /proc stat file (clock ticks of 10 ms); NaN when it cannot be read.
 */
export function cpuMsOf(statFile: string, which: 'all' | 'system' = 'all'): number {
  try {
    const stat = readFileSync(statFile, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (which === 'system' ? Number(f[12]) : Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** CPU time of this process's main thread (the server's event loop, the benches starting the server in process), in ms. */
export const serverThreadCpuMs = (which: 'all' | 'system' = 'all') => cpuMsOf(`/proc/self/task/${process.pid}/stat`, which);

/** A CPU profile of this thread (the server's) from now until `stop(file)`: the benches' BENCH_PROFILE=file.cpuprofile. */
export async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file: string) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
