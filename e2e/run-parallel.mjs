// The browser suite in two halves at once, each against its own server (own port, own empty data
// directory), so CI's browser stage takes about half as long (most of a browser test is waiting on
// the page). A spec sees only the demo data and what the specs before it in its own half did, never
// the other half's. Specs that change what later specs see stay in one half, in name order as
// Playwright runs them: payouts before reports (both pay out and refund acme's orders), and
// templates (publishes Summer Jam's page) after the specs that read the unpublished event page.
// A spec file not listed goes to the second half.
//
//   node run-parallel.mjs            (E2E_HALVES=1 runs everything in one server, name order)
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const all = readdirSync(path.join(here, 'tests')).filter((f) => f.endsWith('.spec.ts')).sort();
const FIRST = [
  'accessibility.spec.ts',
  'attendee-account.spec.ts', // for balance: the second half took a minute longer without it
  'buyer.spec.ts',
  'checkout.spec.ts',
  'cover-image.spec.ts',
  'event-pages.spec.ts',
  'payouts.spec.ts',
  'reports.spec.ts',
  'ssr-hydration.spec.ts',
];
const halves = process.env.E2E_HALVES === '1' ? [all] : [all.filter((f) => FIRST.includes(f)), all.filter((f) => !FIRST.includes(f))];
const basePort = Number(process.env.E2E_PORT ?? 3300);
const reports = mkdtempSync(path.join(os.tmpdir(), 'marquee-e2e-halves-'));

function run(files, i) {
  const tag = `[${'AB'[i]}]`;
  const report = path.join(reports, `${i}.json`);
  return new Promise((resolve) => {
    const child = spawn('npx', ['playwright', 'test', ...files.map((f) => `tests/${f}`), '--reporter=list,json'], {
      cwd: here,
      env: { ...process.env, E2E_PORT: String(basePort + i), PLAYWRIGHT_JSON_OUTPUT_NAME: report, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) if (line.trim()) console.log(`${tag} ${line}`);
      });
      stream.on('end', () => rest.trim() && console.log(`${tag} ${rest}`));
    }
    child.on('exit', (code) => {
      let stats = {};
      try {
        stats = JSON.parse(readFileSync(report, 'utf8')).stats ?? {};
      } catch {
        console.log(`${tag} no report written`);
      }
      resolve({ code, stats });
    });
  });
}

// Build the web app and compile the server once, if their sources changed, before two servers start
// at once (each would otherwise rebuild the same directories under the other).
const prepared = spawnSync(process.execPath, [path.join(here, '../scripts/start.mjs'), '--prepare'], { stdio: 'inherit' });
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

const results = await Promise.all(halves.map(run));
const sum = (k) => results.reduce((n, r) => n + (r.stats[k] ?? 0), 0);
const ran = sum('expected') + sum('flaky');
console.log(`browser tests passed: ${ran}, skipped: ${sum('skipped')}, failed: ${sum('unexpected')}`);
if (ran === 0) console.error('the browser stage ran no test');
process.exit(ran === 0 || results.some((r) => r.code !== 0) || sum('unexpected') > 0 ? 1 : 0);
