// The seat page of a 20,000-seat arena on a phone (issue 27's budget): first paint of the map
// <= 1.5 s in Lighthouse mobile, first load <= 150 KB gzipped.
//
//   npm run build -w apps/web
//   DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npx tsx bench/seat-page-lighthouse.ts
//
// Starts the server in this process on a scratch PostgreSQL database (or PGlite without
// DATABASE_URL), serving the built web app, seeds a tenant with a published 20,000-seat arena (8
// blocks of 25 rows x 100 seats, as bench/seating.ts), and runs Lighthouse 12 mobile on its ticket
// menu with Debian's Chromium (CHROME_PATH=/usr/bin/chromium; no browser download). Throttling is
// applied by DevTools (a mid-range phone: slow 4G, CPU 4x slower), so the page's own user timing
// `mq-seat-map-painted` (the first frame with every seat drawn, seat-svg.tsx) is the map's first
// paint under that throttling. Prints FCP, LCP, the map's paint, TBT, and the bytes transferred
// (scripts and styles, and everything including the map's data), with the load average.

import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { loadServer } from './server.js';
import { seedTenant, startServer } from './support.js';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const MAP_BUDGET_MS = 1500;
const LOAD_BUDGET_BYTES = 150 * 1024;

async function main() {
  const webDist = path.resolve(import.meta.dirname, '../apps/web/dist');
  if (!existsSync(path.join(webDist, 'index.html'))) throw new Error('build the web app first: npm run build -w apps/web');
  const api = await loadServer({ source: true });
  const load0 = os.loadavg();
  const server = await startServer({ api, adminUrl: process.env.DATABASE_URL, webDist, env: { LOG_LEVEL: 'silent', JOBS_POLL_MS: '0' } });
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    const { deps } = server;
    const { tenant, host } = await seedTenant(api, server, { name: 'Lighthouse Arena', url: 'lharena' });
    const sections = Array.from({ length: 8 }, (_, i) => ({
      name: `Block ${i + 1}`, category: 'Arena', rows: 25, seatsPerRow: 100, rowLabels: 'numbers' as const, firstRow: 1, numbering: 'ltr' as const,
      aisleAfter: [], curve: 0, angle: 0, x: (i % 4) * 1100, y: Math.floor(i / 4) * 400,
    }));
    const eventId = randomUUID();
    const ticketTypeId = randomUUID();
    const urlName = 'arena-night';
    await deps.db.insert(api.events).values({ tenantId: tenant.id, id: eventId, name: 'Arena Night', urlName, status: 'published', publishedAt: new Date(), startDateTime: new Date(Date.now() + 30 * 86_400_000) });
    await deps.db.insert(api.ticketTypes).values({ tenantId: tenant.id, id: ticketTypeId, eventId, name: 'Arena', price: 5000, quantity: 20_000, remaining: 20_000, maxPerOrder: 10 });
    await deps.db.transaction((tx) =>
      api.insertEventSeating(tx, { tenantId: tenant.id, eventId, layoutId: randomUUID(), layoutName: 'Arena', categories: [{ category: 'Arena', ticketTypeId }], seats: api.eventSeatRowsOf(sections, [], new Map([['Arena', ticketTypeId]])) }),
    );
    const url = `http://${host}/${urlName}/tickets`;
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      formFactor: 'mobile',
      throttlingMethod: 'devtools',
    });
    if (!result) throw new Error('no Lighthouse result');
    if (result.lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}: ${result.lhr.runtimeError.message}`);
    const a = result.lhr.audits;
    const ms = (id: string) => Math.round(Number(a[id]?.numericValue ?? NaN));
    const marks = ((a['user-timings']?.details as { items?: Array<{ name: string; startTime: number }> } | undefined)?.items ?? []).filter((m) => m.name === 'mq-seat-map-painted');
    const mapPaint = marks.length ? Math.round(marks[0]!.startTime) : null;
    const requests = ((a['network-requests']?.details as { items?: Array<{ url: string; resourceType?: string; transferSize?: number }> } | undefined)?.items ?? []);
    const sum = (f: (r: (typeof requests)[number]) => boolean) => requests.filter(f).reduce((n, r) => n + (r.transferSize ?? 0), 0);
    const code = sum((r) => r.resourceType === 'Script' || r.resourceType === 'Stylesheet' || r.resourceType === 'Document');
    const all = sum(() => true);
    const mapData = sum((r) => r.url.includes('/seat-map') || r.url.includes('/seat-states'));
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`Lighthouse 12 mobile (DevTools throttling: slow 4G, CPU x4) on the ticket menu of a 20,000-seat arena\n`);
    console.log(`first contentful paint   ${ms('first-contentful-paint')} ms`);
    console.log(`largest contentful paint ${ms('largest-contentful-paint')} ms`);
    console.log(`map painted (all seats)  ${mapPaint ?? 'not seen'} ms   budget <= ${MAP_BUDGET_MS} ms: ${mapPaint !== null && mapPaint <= MAP_BUDGET_MS ? 'met' : 'NOT MET'}`);
    console.log(`total blocking time      ${ms('total-blocking-time')} ms`);
    console.log(`performance score        ${Math.round((result.lhr.categories.performance?.score ?? 0) * 100)}`);
    console.log(`first load, page + code  ${kb(code)} transferred (compressed)   budget <= ${kb(LOAD_BUDGET_BYTES)}: ${code <= LOAD_BUDGET_BYTES ? 'met' : 'NOT MET'}`);
    console.log(`  the map's data         ${kb(mapData)} (seat plan and states)`);
    console.log(`  everything             ${kb(all)}`);
    console.log(`load average             ${load0.map((x) => x.toFixed(2)).join(' ')} before, ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} after; ${os.cpus().length} cores`);
  } finally {
    await chrome.kill();
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
