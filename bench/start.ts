// Start: `npm start` on an existing data directory, from spawning to the first answer
// (GET /api/health 200), next to the reference measured in the same run: a bare `node -e` HTTP
// server's start to its first answer (what Node alone costs on this machine).
//
//   npx tsx bench/start.ts            (PGlite in a scratch data directory, created by a first start)
//   BENCH_STARTS=5 npx tsx bench/start.ts
//   BENCH_DATABASE_URL=postgres://…/scratch npx tsx bench/start.ts   (on PostgreSQL: give it a scratch database)
//
// The first start creates and seeds the data directory (and compiles the server and builds the web
// app if their sources changed); it is not counted. Then it starts BENCH_STARTS times (3) and prints
// each time, the median, and the budget (issue 13: <= 3 s). Port: BENCH_PORT (3407).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.BENCH_PORT ?? 3407);
const STARTS = Number(process.env.BENCH_STARTS ?? 3);
const BUDGET_MS = 3000;

type Start = { ms: number; cpuMs: number };

/** CPU the process has used so far (Linux /proc), in ms: on a shared machine, the part of a start that is its own. */
function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function firstAnswer(url: string, child: ChildProcess, started: number): Promise<Start> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}) before answering`);
    try {
      const res = await fetch(url);
      if (res.ok) return { ms: performance.now() - started, cpuMs: cpuMsOf(child.pid) };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function timeStart(command: string, args: string[], env: NodeJS.ProcessEnv, url: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    return await firstAnswer(url, child, started);
  } finally {
    await stop(child);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'marquee-start-'));
  // PGlite by default; BENCH_DATABASE_URL=postgres://… starts on that database instead (its first start migrates and seeds it).
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1', DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '' };
  const health = `http://127.0.0.1:${PORT}/api/health`;
  try {
    console.log(`first start (creates and seeds ${dataDir}; not counted): ${fmt((await timeStart(process.execPath, ['scripts/start.mjs'], env, health)).ms)}`);
    const reference: Start[] = [];
    const marquee: Start[] = [];
    for (let i = 0; i < STARTS; i++) {
      reference.push(
        await timeStart(
          process.execPath,
          ['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(${PORT}, '127.0.0.1')`],
          env,
          `http://127.0.0.1:${PORT}/`,
        ),
      );
      marquee.push(await timeStart(process.execPath, ['scripts/start.mjs'], env, health));
    }
    const show = (xs: Start[]) =>
      `${xs.map((x) => fmt(x.ms)).join(', ')}   median ${fmt(median(xs.map((x) => x.ms)))}   (CPU by then: median ${fmt(median(xs.map((x) => x.cpuMs)))})`;
    console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`);
    console.log(`reference: bare node -e http server   ${show(reference)}`);
    console.log(`npm start, existing data directory    ${show(marquee)}`);
    const ratio = median(marquee.map((x) => x.ms)) / median(reference.map((x) => x.ms));
    console.log(`npm start takes ${ratio.toFixed(1)}x the reference`);
    const ok = median(marquee.map((x) => x.ms)) <= BUDGET_MS;
    console.log(`budget <= ${fmt(BUDGET_MS)}: ${ok ? 'met' : 'NOT met'}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
