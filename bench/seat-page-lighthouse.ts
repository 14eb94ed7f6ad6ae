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
// `mq-seat-map-painted` (the first frame with every seat drawn, seat-canvas.tsx) is the map's first
// paint under that throttling. Prints FCP, LCP, the map's paint, TBT, and the bytes transferred
// (scripts and styles, and everything including the map's data), with the load average.
//
// The server answers the page once before Lighthouse (a running server's page is warm: its renderer
// loaded, the map's raster drawn). Issue 27 (paint): a seated event's ticket menu carries a preview
// of the map (the server's PNG of the seats' states, inline); its paint is the user timing
// `mq-seat-map-preview-painted` (the image's Element Timing), printed beside the canvas's; the map's
// first paint is the earlier. Also printed: Lighthouse's critical request chain. BENCH_LH_JSON=<file>
// keeps Lighthouse's whole result.
//
// Then the pan check (puppeteer on the same Chromium, a 390 px phone at 3x, CPU 4x slower): the map
// zoomed in twice, a drag scripted in the page (one pointer move per animation frame, 120 frames),
// counting the frames that took longer than 16.7 ms and the long tasks (> 50 ms) meanwhile.
// WEB_DIST=<dir> serves another build (e.g. a copy of the one before a change, to compare in the
// same minutes).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { loadServer } from './server.js';
import { seedTenant, startServer } from './support.js';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const MAP_BUDGET_MS = 1500;
const LOAD_BUDGET_BYTES = 150 * 1024;

async function main() {
  const webDist = path.resolve(process.env.WEB_DIST ?? path.resolve(import.meta.dirname, '../apps/web/dist'));
  if (!existsSync(path.join(webDist, 'index.html'))) throw new Error('build the web app first: npm run build -w apps/web');
  const api = await loadServer({ source: true });
  const load0 = os.loadavg();
  const server = await startServer({ api, adminUrl: process.env.DATABASE_URL, webDist, env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', JOBS_POLL_MS: '0' } });
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
    // A running server has rendered the page before: one request first (the server renderer's
    // module loaded, the event's snapshot read, the map's raster drawn), so the phone's figures are
    // the phone's and the network's, not this process's cold start (which took seconds on the loaded machine).
    const [hostname, port] = host.split(':');
    const warm = await new Promise<number>((resolve, reject) =>
      http
        .get({ host: '127.0.0.1', port: Number(port), path: `/${urlName}/tickets`, headers: { host: `${hostname}:${port}`, 'accept-encoding': 'gzip' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject),
    );
    if (warm !== 200) throw new Error(`the ticket menu answered ${warm}`);
    const printPan = (pan: Awaited<ReturnType<typeof panCheck>>) =>
      console.log(`pan (zoomed in x2, 2 s drag, CPU x4)  ${pan.frames} frames, ${pan.slow} over 16.7 ms (longest ${pan.longest} ms, median ${pan.median} ms), ${pan.longTasks} long tasks (${pan.longTaskMs} ms), ${pan.draws} draws of the seats for 120 moves, ${pan.stillDraws} while the page sat still for 5 s`);
    const printLoad = () => console.log(`load average             ${load0.map((x) => x.toFixed(2)).join(' ')} before, ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} after; ${os.cpus().length} cores`);
    // Issue 27 (pan3): BENCH_PAN_ONLY=1 runs the pan check alone (BENCH_PAN_RUNS times, 1 by default), without Lighthouse.
    if (process.env.BENCH_PAN_ONLY === '1') {
      for (let i = 0; i < Number(process.env.BENCH_PAN_RUNS ?? 1); i++) printPan(await panCheck(chrome.port, url));
      printLoad();
      return;
    }
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
    if (process.env.BENCH_LH_JSON) writeFileSync(process.env.BENCH_LH_JSON, JSON.stringify(result.lhr));
    const timings = (a['user-timings']?.details as { items?: Array<{ name: string; startTime: number }> } | undefined)?.items ?? [];
    const markAt = (name: string) => {
      const m = timings.find((t) => t.name === name);
      return m ? Math.round(m.startTime) : null;
    };
    // The interactive canvas's first frame with every seat, and (issue 27 paint) the server-drawn
    // preview's paint (its Element Timing render time): the map with every seat's state as the page
    // was served, shown until the canvas takes its place.
    const canvasPaint = markAt('mq-seat-map-painted');
    const previewPaint = markAt('mq-seat-map-preview-painted');
    const mapPaint = previewPaint !== null && canvasPaint !== null ? Math.min(previewPaint, canvasPaint) : (previewPaint ?? canvasPaint);
    const requests = ((a['network-requests']?.details as { items?: Array<{ url: string; resourceType?: string; transferSize?: number; networkRequestTime?: number; networkEndTime?: number }> } | undefined)?.items ?? []);
    // When the plan (the last thing the map waits for from the network) had arrived: what remains to the mark is the page's own work.
    const planArrived = requests.find((r) => r.url.includes('/seat-map'))?.networkEndTime;
    const sum = (f: (r: (typeof requests)[number]) => boolean) => requests.filter(f).reduce((n, r) => n + (r.transferSize ?? 0), 0);
    const code = sum((r) => r.resourceType === 'Script' || r.resourceType === 'Stylesheet' || r.resourceType === 'Document');
    const all = sum(() => true);
    const mapData = sum((r) => r.url.includes('/seat-map') || r.url.includes('/seat-states'));
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`Lighthouse 12 mobile (DevTools throttling: slow 4G, CPU x4) on the ticket menu of a 20,000-seat arena\n`);
    console.log(`first contentful paint   ${ms('first-contentful-paint')} ms`);
    console.log(`largest contentful paint ${ms('largest-contentful-paint')} ms`);
    console.log(`map painted (all seats)  ${mapPaint ?? 'not seen'} ms   budget <= ${MAP_BUDGET_MS} ms: ${mapPaint !== null && mapPaint <= MAP_BUDGET_MS ? 'met' : 'NOT MET'}`);
    console.log(`  the preview (server)   ${previewPaint ?? 'not seen'} ms   (mq-seat-map-preview-painted: the seats' states inline in the page)`);
    console.log(`  the interactive canvas ${canvasPaint ?? 'not seen'} ms   (mq-seat-map-painted)`);
    if (planArrived !== undefined && canvasPaint !== null) console.log(`  the plan arrived at     ${Math.round(planArrived)} ms; the canvas painted ${canvasPaint - Math.round(planArrived)} ms later (the page's own work: parse, plan, draw)`);
    console.log(`total blocking time      ${ms('total-blocking-time')} ms`);
    // Lighthouse's critical request chains (what the first render waits for): less sensitive to the machine's load than the times.
    const chains = a['critical-request-chains']?.details as { longestChain?: { duration: number; length: number; transferSize: number } } | undefined;
    const chain = chains?.longestChain;
    if (chain) console.log(`critical request chain   ${chain.length} requests, ${Math.round(chain.duration)} ms, ${kb(chain.transferSize)} (Lighthouse's longest chain)`);
    // Issue 27 (paint2): what the first paint waited for: the stylesheets asked before it (render-blocking).
    const fcp = ms('first-contentful-paint');
    const blocking = requests.filter((r) => r.resourceType === 'Stylesheet' && (r.networkRequestTime ?? Infinity) < fcp);
    console.log(`stylesheets before FCP   ${blocking.length} requests, ${kb(blocking.reduce((n, r) => n + (r.transferSize ?? 0), 0))}${blocking.length ? `, the last done at ${Math.round(Math.max(...blocking.map((r) => r.networkEndTime ?? 0)))} ms` : ''} (render-blocking round trip after the document)`);
    const doc = requests.find((r) => r.resourceType === 'Document');
    if (doc) console.log(`the document             ${Math.round(doc.networkEndTime ?? 0)} ms, ${kb(doc.transferSize ?? 0)}`);
    const before = requests.filter((r) => mapPaint !== null && (r.networkEndTime ?? Infinity) <= mapPaint).length;
    console.log(`requests before the map  ${mapPaint === null ? '-' : before} finished before its first paint`);
    console.log(`performance score        ${Math.round((result.lhr.categories.performance?.score ?? 0) * 100)}`);
    console.log(`first load, page + code  ${kb(code)} transferred (compressed)   budget <= ${kb(LOAD_BUDGET_BYTES)}: ${code <= LOAD_BUDGET_BYTES ? 'met' : 'NOT MET'}`);
    console.log(`  the map's data         ${kb(mapData)} (seat plan and states)`);
    console.log(`  everything             ${kb(all)}`);
    printPan(await panCheck(chrome.port, url));
    printLoad();
  } finally {
    await chrome.kill();
    await server.close();
  }
}

/** A scripted pan on a phone: one pointer move per animation frame, each frame's duration, and the long tasks meanwhile. */
async function panCheck(port: number, url: string) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}`, defaultViewport: null });
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: false });
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    // tsx (esbuild) names functions with a __name helper the page does not have.
    await page.evaluateOnNewDocument('globalThis.__name = (f) => f');
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => performance.getEntriesByName('mq-seat-map-painted').length > 0, { timeout: 120_000 });
    for (let i = 0; i < 2; i++) {
      await page.click('[aria-label="Zoom in"]');
      await new Promise((r) => setTimeout(r, 500));
    }
    await page.$eval('[data-testid="seat-map"]', (el) => el.scrollIntoView({ block: 'center' }));
    // Issue 27 (pan3): draws of the seats while the page sits still (the states' poll runs every 2 s).
    const stillDraws = await page.evaluate(async () => {
      const canvas = document.querySelector('[data-testid="seat-canvas"]');
      let draws = 0;
      const seen = new MutationObserver(() => draws++);
      if (canvas) seen.observe(canvas, { attributes: true, attributeFilter: ['data-view'] });
      await new Promise((r) => setTimeout(r, 5_000));
      seen.disconnect();
      return draws;
    });
    const box = (await (await page.$('[data-testid="seat-map"]'))!.boundingBox())!;
    await page.evaluate(() => {
      const w = window as unknown as { panFrames: number[]; panLong: number[]; panStop: boolean; panDraws: number };
      w.panFrames = [];
      w.panLong = [];
      w.panStop = false;
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.panLong.push(e.duration))).observe({ type: 'longtask' });
      // Each draw of the seats sets the canvas's data-view (seat-canvas.tsx): counted while dragging.
      w.panDraws = 0;
      const canvas = document.querySelector('[data-testid="seat-canvas"]');
      if (canvas) new MutationObserver(() => w.panDraws++).observe(canvas, { attributes: true, attributeFilter: ['data-view'] });
      let last = 0;
      const tick = (now: number) => {
        if (last) w.panFrames.push(now - last);
        last = now;
        if (!w.panStop) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    // Issue 27 (pan4): BENCH_PAN_TRACE=<file prefix> records a Chromium trace of the drag (written to
    // <prefix>-<time>.json, to open in DevTools' Performance panel) and prints what the page's main
    // thread did: its CPU, its tasks over 16.7 ms and what was inside them. Tracing itself slows the
    // page (its figures are not the untraced run's): compare traced runs with traced runs.
    const trace = process.env.BENCH_PAN_TRACE ? `${process.env.BENCH_PAN_TRACE}-${Date.now()}.json` : null;
    if (trace) await page.tracing.start({ path: trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8.execute', 'blink', 'cc', 'input', 'disabled-by-default-v8.gc', 'latencyInfo'] });
    // A finger-speed drag: a move every 16 ms, left then back, by real input events (CDP).
    let x = box.x + box.width * 0.8;
    const y = box.y + box.height / 2;
    await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1 });
    for (let i = 0; i < 120; i++) {
      x += i < 60 ? -4 : 4;
      await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y: y + (i % 2), button: 'left', buttons: 1 });
      await new Promise((r) => setTimeout(r, 16));
    }
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: 1 });
    // Issue 27 (pan4): the frames are counted until the map drawn at the lift's view is shown (the drawing
    // worker's bitmap can arrive later than the next frame), then 200 ms more, so that its frame counts.
    await page.waitForFunction(() => (window as unknown as { panDraws: number }).panDraws > 0, { timeout: 10_000, polling: 50 }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    if (trace) {
      await page.tracing.stop();
      printTrace(trace);
    }
    return await page.evaluate(() => {
      const w = window as unknown as { panFrames: number[]; panLong: number[]; panStop: boolean; panDraws: number };
      w.panStop = true;
      const frames = w.panFrames;
      const sorted = [...frames].sort((a, b) => a - b);
      return {
        frames: frames.length,
        // rAF intervals jitter around 16.7 ms: a frame counts as slow past 17.7 ms.
        slow: frames.filter((f) => f > 17.7).length,
        longest: Math.round(sorted[sorted.length - 1] ?? 0),
        median: Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 10) / 10,
        longTasks: w.panLong.length,
        longTaskMs: Math.round(w.panLong.reduce((a, b) => a + b, 0)),
        draws: w.panDraws,
      };
    }).then((r) => ({ ...r, stillDraws }));
  } finally {
    await page.close();
    await browser.disconnect();
  }
}

type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { data?: { type?: string; functionName?: string; url?: string; lineNumber?: number } } };

/**
 * Issue 27 (pan4): what the page's main thread did during the drag (from the first pointer move to 300 ms
 * after the last), from a Chromium trace: its CPU (the trace's thread time, which CPU throttling does not
 * stretch), how many frames it committed and how often the canvas was copied to the compositor, and each
 * task over 16.7 ms (wall) with the work inside it that took longest.
 */
function printTrace(file: string) {
  const events = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const moves = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'pointermove');
  if (moves.length === 0) return console.log('trace                    no pointer move seen');
  const main = `${moves[0]!.pid}:${moves[0]!.tid}`;
  const mine = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main);
  const t0 = Math.min(...moves.map((e) => e.ts));
  const t1 = Math.max(...moves.map((e) => e.ts)) + 300_000;
  const during = mine.filter((e) => e.ts >= t0 && e.ts <= t1);
  const tasks = during.filter((e) => e.name === 'ThreadControllerImpl::RunTask');
  const ms = (us: number) => (us / 1000).toFixed(1);
  const count = (name: string) => during.filter((e) => e.name === name).length;
  const cpu = tasks.reduce((n, e) => n + (e.tdur ?? 0), 0);
  console.log(`trace ${file}: the drag ${ms(t1 - t0)} ms; main thread ${ms(cpu)} ms of CPU in ${tasks.length} tasks, ${count('Commit')} commits, ${count('Canvas2DResourceProvider::ProduceCanvasResource')} copies of the 2D canvas, ${count('FireAnimationFrame')} animation frames, ${count('TimerFire')} timers, ${count('MinorGC') + count('MajorGC')} GCs`);
  const label = (e: TraceEvent) => {
    const d = e.args?.data;
    if (e.name === 'EventDispatch') return `EventDispatch ${d?.type}`;
    if (e.name === 'FunctionCall') return `FunctionCall ${d?.functionName || '(anonymous)'} ${String(d?.url ?? '').split('/').pop()}:${d?.lineNumber ?? ''}`;
    return e.name;
  };
  const skip = new Set(['ThreadControllerImpl::RunTask', 'RunTask', 'ProxyMain::BeginMainFrame', 'LatencyInfo.Flow', 'v8.callFunction', 'AsyncTask Run', 'TimerBase::run']);
  const slow = tasks.filter((e) => (e.dur ?? 0) > 16_700);
  console.log(`  ${slow.length} tasks over 16.7 ms (the 10 longest, by time from the first move):`);
  const longest = new Set([...slow].sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 10));
  for (const task of slow.filter((e) => longest.has(e))) {
    const end = task.ts + (task.dur ?? 0);
    const inside = new Map<string, number>();
    for (const e of during) if (e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && !skip.has(e.name)) inside.set(label(e), (inside.get(label(e)) ?? 0) + (e.dur ?? 0));
    const top = [...inside].sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(`  task at +${ms(task.ts - t0)} ms: ${ms(task.dur ?? 0)} ms (CPU ${ms(task.tdur ?? 0)}): ${top.map(([n, d]) => `${n} ${ms(d)}`).join(', ')}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
