// npm run typecheck: the five TypeScript projects, each its own `tsc -p` (they differ in libs: the web
// has the DOM, the server has not), run side by side rather than one after another: tsc uses one
// core, so on CI's two cores the five took their sum; two at a time take about half (CI time, stop 32).
// Each project's output is printed whole when it ends; the exit code is 1 if any project failed.
//   node scripts/typecheck.mjs [project…]      (TYPECHECK_JOBS=1 runs them one by one)
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
// Longest first, so that the last to start is a short one.
const projects = process.argv.length > 2 ? process.argv.slice(2) : ['apps/server', 'apps/web', 'bench', 'e2e', 'packages/core'];
const jobs = Math.max(1, Number(process.env.TYPECHECK_JOBS ?? availableParallelism()));

function check(project) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [tsc, '-p', project], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code) => {
      process.stdout.write(`tsc -p ${project}: ${code === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n${out}`);
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    while (queue.length) results.push(await check(queue.shift()));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
