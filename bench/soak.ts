// Soak: the attendee's whole purchase at half the measured peak, for a long time, on PostgreSQL.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npx tsx bench/soak.ts
//
// Creates a scratch database on that server (dropped afterwards), starts the server in this process
// with its job worker running and the test payment driver, and seeds an event that cannot sell out.
// One flow is: the event page, PLACE ORDER, and (every other flow) paying on the test pay page, whose
// webhook, fulfilment (ticket PDF) and mail then run as jobs. First the peak is measured (closed
// loop, SOAK_CONCURRENCY flows at once for SOAK_PEAK_SECONDS), then flows are started at half that
// rate (open loop) for SOAK_MINUTES (default 30; CI runs 1). Every SOAK_REPORT_SECONDS it prints
// flows/s, requests, errors, p99 and the process's RSS and heap; at the end, the verdict. Exit code 1
// on any error (a 5xx, an unexpected status, a dropped connection, a failed job) or when memory is
// not flat (RSS at the end more than 1.5x the first interval's plus 64 MB).

import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadServer } from './server.js';
import { requirePostgres, startServer } from './support.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const PEAK_SECONDS = Number(process.env.SOAK_PEAK_SECONDS ?? 15);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 32);
const REPORT_SECONDS = Number(process.env.SOAK_REPORT_SECONDS ?? (MINUTES <= 2 ? 10 : 60));

type Stats = { flows: number; requests: number; errors: number; latencies: number[]; errorSamples: string[] };
const newStats = (): Stats => ({ flows: 0, requests: 0, errors: 0, latencies: [], errorSamples: [] });

async function main() {
  const { sql } = await import('drizzle-orm');
  const api = await loadServer({ source: true });
  const { Client, checkoutPayload, givenEventOnSale, givenTenantWithSettings } = await import('../apps/server/test/harness.js');

  const adminUrl = requirePostgres('soak.ts');
  const bench = await startServer({
    api,
    adminUrl,
    env: { LOG_LEVEL: 'error', JOBS_POLL_MS: '200', PAYMENT_DRIVER: 'test', RATE_LIMIT_ORDERS_PER_MINUTE: '100000000' },
  });
  let failed = true;
  try {
    const { app, port, config } = bench;
    app.deps.jobs.start();
    // The harness's factories take a TestServer; only `app` is read.
    const server = { app } as unknown as Parameters<typeof givenTenantWithSettings>[0];
    const tenant = await givenTenantWithSettings(server);
    const event = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 100_000_000 }] });
    const host = `${tenant.url}.${config.baseDomain}:${port}`;

    let seq = 0;
    async function flow(stats: Stats) {
      const i = seq++;
      const c = new Client(port, host);
      const step = async (f: () => Promise<{ status: number; body: unknown }>, ok: number[]) => {
        const t0 = performance.now();
        try {
          const res = await f();
          stats.latencies.push(performance.now() - t0);
          stats.requests++;
          if (!ok.includes(res.status)) {
            stats.errors++;
            if (stats.errorSamples.length < 5) stats.errorSamples.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
            return null;
          }
          return res;
        } catch (err) {
          stats.requests++;
          stats.errors++;
          if (stats.errorSamples.length < 5) stats.errorSamples.push(String(err));
          return null;
        }
      };
      if (!(await step(() => c.get(`/api/p/events/${event.urlName}`), [200]))) return;
      const placed = await step(
        () => c.post(`/api/p/tenants/${tenant.id}/events/${event.id}/orders`, checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 }], { email: `soak-${i % 500}@example.test` })),
        [201],
      );
      if (!placed) return;
      if (i % 2 === 0) {
        const pay = new URL((placed.body as { message: string }).message).pathname;
        const paid = await step(() => c.request('POST', pay, Buffer.from('cardNumber=4242424242424242&expiry=11%2F39&cvc=999'), { 'content-type': 'application/x-www-form-urlencoded' }), [303]);
        if (!paid) return;
      }
      stats.flows++;
    }

    const p99 = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length ? s[Math.min(s.length - 1, Math.ceil(0.99 * s.length) - 1)]! : 0;
    };
    const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

    // 1. The peak: CONCURRENCY flows at once, each starting another when done.
    const peak = newStats();
    const peakEnd = performance.now() + PEAK_SECONDS * 1000;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < peakEnd) await flow(peak);
    }));
    const peakRate = peak.flows / PEAK_SECONDS;
    const rate = Math.max(peakRate / 2, 0.5);
    console.log(`Soak: peak ${peakRate.toFixed(1)} flows/s (${(peak.requests / PEAK_SECONDS).toFixed(1)} req/s, p99 ${p99(peak.latencies).toFixed(0)} ms, ${peak.errors} errors); soaking at ${rate.toFixed(1)} flows/s for ${MINUTES} min`);
    console.log(`  (PostgreSQL, test payment driver, jobs running, Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)})`);
    console.log('  minute   flows/s   req/s  errors  p99 ms      rss     heap  in flight');

    // 2. The soak: flows started on a clock at half the peak (open loop).
    const total = newStats();
    total.errors = peak.errors;
    total.errorSamples.push(...peak.errorSamples);
    const start = performance.now();
    const end = start + MINUTES * 60_000;
    const inFlight = new Set<Promise<void>>();
    const rss: number[] = [];
    let interval = newStats();
    let nextReport = start + REPORT_SECONDS * 1000;
    let nextFlow = start;
    while (performance.now() < end) {
      const now = performance.now();
      while (nextFlow <= now) {
        const p = flow(interval).finally(() => inFlight.delete(p));
        inFlight.add(p);
        nextFlow += 1000 / rate;
      }
      if (now >= nextReport) {
        const m = process.memoryUsage();
        rss.push(m.rss);
        console.log(
          `  ${((now - start) / 60_000).toFixed(2).padStart(6)}  ${(interval.flows / REPORT_SECONDS).toFixed(1).padStart(8)}  ${(interval.requests / REPORT_SECONDS).toFixed(1).padStart(6)}  ${String(interval.errors).padStart(6)}  ${p99(interval.latencies).toFixed(0).padStart(6)}  ${mb(m.rss).padStart(7)}  ${mb(m.heapUsed).padStart(7)}  ${String(inFlight.size).padStart(9)}`,
        );
        for (const k of ['flows', 'requests', 'errors'] as const) total[k] += interval[k];
        total.errorSamples.push(...interval.errorSamples);
        interval = newStats();
        nextReport += REPORT_SECONDS * 1000;
      }
      await new Promise((r) => setTimeout(r, Math.max(1, Math.min(nextFlow, nextReport) - performance.now())));
    }
    await Promise.all(inFlight);
    for (const k of ['flows', 'requests', 'errors'] as const) total[k] += interval[k];
    total.errorSamples.push(...interval.errorSamples);
    await app.deps.jobs.drain();

    const jobRows = (await app.deps.db.execute(sql`select name, last_error from jobs where failed_at is not null and name not like 'mail%' limit 5`)) as unknown as { rows: Array<{ name: string; last_error: string }> };
    const failedJobs = jobRows.rows;
    const first = rss[0] ?? process.memoryUsage().rss;
    const last = rss.at(-1) ?? first;
    const flat = last <= first * 1.5 + 64 * 1024 * 1024;
    console.log(
      `Soak done: ${total.flows} flows, ${total.requests} requests, ${total.errors} errors, ${failedJobs.length} failed jobs; RSS ${mb(first)} -> ${mb(last)} (${flat ? 'flat' : 'GROWING'})`,
    );
    for (const s of total.errorSamples.slice(0, 5)) console.log(`  error: ${s}`);
    for (const j of failedJobs) console.log(`  failed job ${j.name}: ${j.last_error}`);
    failed = total.errors > 0 || failedJobs.length > 0 || !flat;
    await app.deps.jobs.stop();
  } finally {
    await bench.close();
  }
  process.exit(failed ? 1 : 0);
}

await main();
