// The browser suite in parts at once, each against its own server (own port, own empty data
// directory), so CI's browser stage takes about a third as long (most of a browser test is waiting on
// the page; four parts since the accessibility sweep was split in two, docs/decisions.md "CI time (stop 32)"). A spec sees only the demo data and what the specs before it
// in its own part did, never another part's. The first part is FIRST (specs that change what later specs see stay together, in
// name order as Playwright runs them: payouts before reports, both pay out and refund acme's orders);
// the other specs are dealt to the other parts by their last measured duration (WEIGHT, seconds;
// a spec not listed counts 30 s), longest first, each to the lightest part. Templates (publishes Summer
// Jam's page) is never in the first part, whose specs read the unpublished event page.
//
//   node run-parallel.mjs            (E2E_PARTS=1 runs everything in one server, name order; default 4;
//                                    E2E_PORT=3500 puts the parts on 3500, 3501, …; E2E_LIST=1 prints the deal only;
//                                    E2E_DATABASE_URL=postgres://…/postgres runs each part's server on a database of
//                                    its own on that PostgreSQL server, created here and dropped at the end)
//
// CI sets E2E_DATABASE_URL: the embedded PGlite (PostgreSQL compiled to WASM) spent several times the CPU
// per query of a native server, and the browser stage is bound by CPU (docs/decisions.md "CI time (stop 33)").
// The default embedded path is still started, migrated, seeded and bought from in this stage: wallet.spec.ts
// starts its plain server on PGlite whatever the parts use; `npm test` runs the API suite on it.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const all = readdirSync(path.join(here, 'tests')).filter((f) => f.endsWith('.spec.ts')).sort();
const FIRST = [
  'accessibility.spec.ts',
  'attendee-account.spec.ts', // for balance: the other parts are a minute longer without it
  'buyer.spec.ts',
  'checkout.spec.ts',
  'cover-image.spec.ts',
  'event-pages.spec.ts',
  'payouts.spec.ts',
  'reports.spec.ts',
  'ssr-hydration.spec.ts',
];
// Seconds each spec took in CI (29 Nov 2026, the run of 04:16 UTC, all passed, three parts on a
// machine shared with other work: their ratios count, not their sum), to deal the specs not in FIRST evenly.
const WEIGHT = {
  // The accessibility sweep's phone half (787 s for both halves in that run; split since).
  'accessibility-phone.spec.ts': 394,
  'mail-attendees.spec.ts': 197, 'checkin.spec.ts': 152, 'operators.spec.ts': 151, 'console-lists-phone.spec.ts': 124,
  'platform-console.spec.ts': 123, 'new-tenant.spec.ts': 118, 'tenant-events.spec.ts': 112, 'tenants-list-and-fees.spec.ts': 111,
  'box-office.spec.ts': 106, 'modal-discard.spec.ts': 101, 'templates.spec.ts': 99, 'waitlist.spec.ts': 97,
  'organiser.spec.ts': 92, 'staff.spec.ts': 85, 'invites.spec.ts': 81, 'embed-widget.spec.ts': 70, 'series.spec.ts': 69,
  'domain-codes.spec.ts': 62, 'charities.spec.ts': 59, 'seat-map-canvas.spec.ts': 58, 'attendee-questions.spec.ts': 55,
  'buyer-after-sale.spec.ts': 53, 'seating.spec.ts': 49, 'api-keys-audit.spec.ts': 45,
  'policies-and-users.spec.ts': 41, 'read-only-images.spec.ts': 35, 'sales-by-channel.spec.ts': 33, 'wallet.spec.ts': 32,
  'box-office-settle.spec.ts': 30, 'limits.spec.ts': 27, 'transfers.spec.ts': 23, 'webhooks.spec.ts': 12, 'unlock.spec.ts': 10,
};
const partCount = Math.max(1, Number(process.env.E2E_PARTS ?? process.env.E2E_HALVES ?? 4));
function deal() {
  if (partCount === 1) return [all];
  const rest = all.filter((f) => !FIRST.includes(f));
  const parts = [all.filter((f) => FIRST.includes(f)), ...Array.from({ length: partCount - 1 }, () => [])];
  const load = parts.map(() => 0);
  for (const f of [...rest].sort((a, b) => (WEIGHT[b] ?? 30) - (WEIGHT[a] ?? 30) || a.localeCompare(b))) {
    let at = 1;
    for (let i = 2; i < parts.length; i++) if (load[i] < load[at]) at = i;
    parts[at].push(f);
    load[at] += WEIGHT[f] ?? 30;
  }
  return parts.map((p) => p.sort());
}
const parts = deal();
for (const [i, files] of parts.entries()) console.log(`[${"ABCDEFGH"[i] ?? i}] ${files.join(" ")}`);
if (process.env.E2E_LIST === "1") process.exit(0);
const basePort = Number(process.env.E2E_PORT ?? 3300);
const reports = mkdtempSync(path.join(os.tmpdir(), 'marquee-e2e-parts-'));

const adminUrl = process.env.E2E_DATABASE_URL;
const databases = adminUrl ? parts.map((_, i) => `marquee_e2e_${process.pid}_${i}`) : [];
async function onAdmin(statements) {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const sql of statements) await admin.query(sql);
  } finally {
    await admin.end();
  }
}
function databaseUrl(name) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function run(files, i) {
  const tag = `[${'ABCDEFGH'[i] ?? i}]`;
  const report = path.join(reports, `${i}.json`);
  return new Promise((resolve) => {
    const child = spawn('npx', ['playwright', 'test', ...files.map((f) => `tests/${f}`), '--reporter=list,json'], {
      cwd: here,
      env: {
        ...process.env,
        ...(adminUrl ? { DATABASE_URL: databaseUrl(databases[i]) } : {}),
        E2E_PORT: String(basePort + i),
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
        FORCE_COLOR: '0',
      },
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

// Build the web app and compile the server once, if their sources changed, before the servers start
// at once (each would otherwise rebuild the same directories under the other).
const prepared = spawnSync(process.execPath, [path.join(here, '../scripts/start.mjs'), '--prepare'], { stdio: 'inherit' });
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

if (adminUrl) await onAdmin(databases.map((name) => `create database ${name}`));
const results = await Promise.all(parts.map(run));
if (adminUrl) await onAdmin(databases.map((name) => `drop database if exists ${name} with (force)`));
const sum = (k) => results.reduce((n, r) => n + (r.stats[k] ?? 0), 0);
const ran = sum('expected') + sum('flaky');
console.log(`browser tests passed: ${ran}, skipped: ${sum('skipped')}, failed: ${sum('unexpected')}`);
if (ran === 0) console.error('the browser stage ran no test');
process.exit(ran === 0 || results.some((r) => r.code !== 0) || sum('unexpected') > 0 ? 1 : 0);
