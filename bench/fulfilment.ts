// From payment to ticket mail (issue 26 "The whole rush, measured"): 3,000 orders paid within a
// minute on the test gateway's pay page, each confirmed by the gateway's signed webhook (a job), then
// fulfilled (the tickets' PDF and the .ics built, a job) and mailed (a job) through a real SMTP server
// in this process (the `smtp-server` package), which checks that every message carries the PDF and
// the .ics. Prints the delay from each payment (the order's paidAt, written when the payment commits)
// to its mail's arrival (p50, p99, max; budget p99 <= 10 s), the fulfilment throughput (orders mailed
// per second from the first payment to the last mail) and a same-run reference: bare messages of the
// same size sent by nodemailer to the same SMTP server, 4 at a time.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npx tsx bench/fulfilment.ts
//   npx tsx bench/fulfilment.ts                                  # PGlite (the embedded default)
//
// The server runs in this process (bench/support.ts) with its job worker started, as `npm start`
// runs it (JOBS_POLL_MS 200). The orders are written as PLACE ORDER leaves them (a draft with an
// open test checkout session, one $10 ticket each) before the clock starts; the payments are then
// made on a clock, BENCH_ORDERS spread evenly over BENCH_PAY_SECONDS, at most BENCH_PAY_CONCURRENCY at
// once. Knobs: BENCH_ORDERS (3000), BENCH_PAY_SECONDS (60), BENCH_PAY_CONCURRENCY (20),
// BENCH_TIMEOUT_S (600: how long to wait for the last mail), BENCH_BUDGET_MS (10000), BENCH_POOL (10),
// PDF_WORKERS (the server's PDF threads, 1; 0 builds the PDFs on the main thread). It also prints the CPU
// per order mailed: of the main thread and of the whole process, robust to a loaded machine, and the SQL
// statements per order (PostgreSQL), with and without the job queue's own; BENCH_STATEMENTS=1 lists them by text.
// Exit code 1 when a mail is missing or lacks its PDF or .ics, or the p99 is over the budget.

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { SMTPServer } from 'smtp-server';
import { serverThreadCpuMs } from './load-generator.js';
import { loadServer } from './server.js';
import { percentile, seedTenant, startServer, watchStatements, type LoggedStatement } from './support.js';

type Mail = { at: number; to: string; pdf: boolean; ics: boolean; bytes: number };

const ORDERS = Number(process.env.BENCH_ORDERS ?? 3000);
const PAY_SECONDS = Number(process.env.BENCH_PAY_SECONDS ?? 60);
const PAY_CONCURRENCY = Number(process.env.BENCH_PAY_CONCURRENCY ?? 20);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 600);
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 10_000);
const POOL = Number(process.env.BENCH_POOL ?? 10);
/** The server's PDF worker threads (PDF_WORKERS, default 1; 0: the PDFs built on the main thread, as before issue 26's pool). */
const PDF_WORKERS = process.env.PDF_WORKERS ?? '1';

/** The SMTP sink: every message's recipient, arrival time and whether it carries a PDF and an .ics. */
function smtpSink() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // No reverse DNS lookup of each client (this machine has no resolver to ask: each one waited for its timeout).
    disableReverseLookup: true,
    size: 20 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        mails.push({
          at: Date.now(),
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()).join(','),
          pdf: /content-type:\s*application\/pdf/i.test(raw),
          ics: /content-type:\s*text\/calendar/i.test(raw),
          bytes: raw.length,
        });
        callback();
      });
    },
  });
  return {
    mails,
    server,
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function request(port: number, host: string, method: string, urlPath: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent: keepAlive, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: PAY_CONCURRENCY });

const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms, max ${(s.at(-1) ?? 0).toFixed(0)} ms`;
};

async function main() {
  const { sql } = await import('drizzle-orm');
  const nodemailer = (await import('nodemailer')).default;
  // Every statement the server's pg clients send (PostgreSQL only; PGlite has no pg client), counted
  // from the first payment to the last mail, with and without the job queue's own; BENCH_STATEMENTS=1 also lists them by text.
  const statements = await watchStatements(110);
  const api = await loadServer();
  const { events, ticketTypes } = api;
  const adminUrl = process.env.DATABASE_URL || undefined;
  const sink = smtpSink();
  const smtpPort = await sink.listen();
  const server = await startServer({
    api,
    adminUrl,
    poolSize: POOL,
    env: {
      LOG_LEVEL: 'error',
      JOBS_POLL_MS: '200',
      PAYMENT_DRIVER: 'test',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      RATE_LIMIT_ORDERS_PER_MINUTE: '100000000',
      PDF_WORKERS,
    },
  });
  let ok = false;
  try {
    const { deps, port } = server;
    const { tenant, host } = await seedTenant(api, server, { name: 'Bench Mail', url: 'mail' });
    const eventId = randomUUID();
    const ticketTypeId = randomUUID();
    await deps.db.insert(events).values({
      tenantId: tenant.id,
      id: eventId,
      name: 'Summer Jam',
      urlName: 'summer-jam',
      status: 'published',
      publishedAt: new Date(),
      startDateTime: new Date(Date.now() + 30 * 86400_000),
      endDateTime: new Date(Date.now() + 30 * 86400_000 + 4 * 3600_000),
      venueName: 'The Hall',
      address1: '10 Main St',
      city: 'Springfield',
      capacity: ORDERS,
      remainingCapacity: 0,
    });
    await deps.db.insert(ticketTypes).values({ tenantId: tenant.id, id: ticketTypeId, eventId, name: 'General Admission', price: 1000, quantity: ORDERS, remaining: 0 });

    // The orders as PLACE ORDER leaves them: a draft holding one ticket, with an open test checkout.
    const batch = randomUUID().slice(0, 6).toUpperCase();
    const result = (await deps.db.execute(sql`
      with o as (
        insert into orders (tenant_id, id, order_uid, event_id, status, email, first_name, last_name, ticket_count, subtotal, total_amount, tenant_total, hold_expires_at)
        select ${tenant.id}::uuid, gen_random_uuid(), 'M' || ${batch} || lpad(g::text, 5, '0'), ${eventId}::uuid, 'draft', 'buyer' || g || '@example.test', 'Ada', 'Lovelace', 1, 1000, 1000, 1000, now() + interval '1 hour'
        from generate_series(1, ${ORDERS}::int) g returning id, order_uid, email),
      l as (insert into order_lines (tenant_id, order_id, ticket_type_id, ticket_name, unit_price, quantity) select ${tenant.id}::uuid, id, ${ticketTypeId}::uuid, 'General Admission', 1000, 1 from o)
      insert into test_checkout_sessions (tenant_id, id, order_id, order_uid, amount, currency, success_url, cancel_url, idempotency_key, expires_at)
      select ${tenant.id}::uuid, 'cs_test_' || replace(gen_random_uuid()::text, '-', ''), o.id, o.order_uid, 1000, 'usd', ${`http://${host}/s`}, ${`http://${host}/c`}, 'checkout:' || o.id, now() + interval '1 hour' from o
      returning id, order_id`)) as unknown as { rows: Array<{ id: string; order_id: string }> };
    const sessions = result.rows;
    await deps.db.execute(sql`update orders o set payment_provider = 'test', payment_session_id = s.id from test_checkout_sessions s where s.order_id = o.id and o.tenant_id = ${tenant.id}::uuid`);

    // The reference, same run: bare messages of the same size through nodemailer to the same sink, 4 at a time.
    const REF = Math.max(50, Math.round(ORDERS / 10));
    const sample = { bytes: 0 };
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 4 });
    const pdfLike = Buffer.alloc(24_000, 7);
    const refStart = Date.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (sent < REF) {
          sent++;
          await transport.sendMail({ from: 'bench@example.test', to: 'reference@example.test', subject: 'Reference', text: 'x', attachments: [{ filename: 'x.pdf', content: pdfLike }] });
        }
      }),
    );
    const refSeconds = (Date.now() - refStart) / 1000;
    transport.close();
    sink.mails.splice(0);
    sample.bytes = 0;

    // CPU from the first payment to the last mail: the main thread (the server's event loop, which here
    // also runs the payers and the SMTP sink) and the whole process (with the PDF worker threads).
    const cpu0 = { thread: serverThreadCpuMs(), process: process.cpuUsage() };
    const statements0 = statements.state.count;
    // Listed always (the job queue's own statements, mostly idle polls, grow with the run's length, not with the orders).
    statements.state.log = [];
    deps.jobs.start();
    // The payments, on a clock: payment i is made at i * PAY_SECONDS / ORDERS s (or as soon as one of the PAY_CONCURRENCY is free).
    const payStart = Date.now();
    let next = 0;
    let failedPayments = 0;
    await Promise.all(
      Array.from({ length: PAY_CONCURRENCY }, async () => {
        while (next < sessions.length) {
          const i = next++;
          const wait = payStart + (i * PAY_SECONDS * 1000) / ORDERS - Date.now();
          if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
          const res = await request(port, host, 'POST', `/pay/${sessions[i]!.id}`, 'cardNumber=4242424242424242', { 'content-type': 'application/x-www-form-urlencoded' }).catch(() => null);
          if (res?.status !== 303) failedPayments++;
        }
      }),
    );
    const paySeconds = (Date.now() - payStart) / 1000;
    const until = Date.now() + TIMEOUT_S * 1000;
    while (sink.mails.length < ORDERS && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    const threadCpuMs = serverThreadCpuMs() - cpu0.thread;
    const processCpu = process.cpuUsage(cpu0.process);
    const processCpuMs = (processCpu.user + processCpu.system) / 1000;
    const statementCount = statements.state.count - statements0;
    const statementLog: LoggedStatement[] = statements.state.log ?? [];
    statements.state.log = null;
    await deps.jobs.stop();

    const paid = (await deps.db.execute(sql`
      select email, extract(epoch from paid_at) * 1000 as paid_ms from orders where tenant_id = ${tenant.id}::uuid and event_id = ${eventId}::uuid and paid_at is not null`)) as unknown as {
      rows: Array<{ email: string; paid_ms: string | number }>;
    };
    const paidAt = new Map(paid.rows.map((r) => [r.email.toLowerCase(), Number(r.paid_ms)]));
    const firstMail = new Map<string, Mail>();
    for (const m of sink.mails) if (!firstMail.has(m.to)) firstMail.set(m.to, m);
    const delays: number[] = [];
    for (const [email, at] of paidAt) {
      const m = firstMail.get(email);
      if (m) delays.push(m.at - at);
    }
    const mailed = [...firstMail.values()].filter((m) => paidAt.has(m.to));
    const complete = mailed.filter((m) => m.pdf && m.ics).length;
    const firstPaid = Math.min(...paidAt.values());
    const lastMail = Math.max(...mailed.map((m) => m.at));
    const p99 = percentile([...delays].sort((a, b) => a - b), 99);

    const line = (label: string, value: string) => console.log(`  ${label.padEnd(40)} ${value}`);
    console.log(
      `\nFrom payment to ticket mail: ${ORDERS} orders paid over ${PAY_SECONDS} s, ${PAY_CONCURRENCY} at a time at most` +
        ` (${adminUrl ? `PostgreSQL, pool ${POOL}` : 'PGlite'}, Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)})`,
    );
    line('reference: bare mails through nodemailer', `${REF} in ${refSeconds.toFixed(1)} s (${(REF / refSeconds).toFixed(0)} mails/s, 4 connections, a 24 kB attachment)`);
    line('payments made', `${ORDERS - failedPayments} in ${paySeconds.toFixed(1)} s (${failedPayments} refused or failed); ${paidAt.size} orders paid`);
    line('mails received', `${mailed.length} (${complete} with the PDF and the .ics); ${sink.mails.length} messages in all`);
    line('payment -> mail', `${stats(delays)} (budget p99 <= ${BUDGET_MS} ms)`);
    line('CPU per order mailed', `main thread ${(threadCpuMs / Math.max(1, mailed.length)).toFixed(1)} ms, whole process ${(processCpuMs / Math.max(1, mailed.length)).toFixed(1)} ms (PDF_WORKERS ${PDF_WORKERS}; the main thread also runs the payers and the SMTP sink)`);
    const queueStatements = statementLog.filter((st) => /^(with clock as|select now\(\)|update jobs set (locked_until|done_at))/.test(st.text.trim())).length;
    const perOrder = (n: number) => (n / Math.max(1, mailed.length)).toFixed(1);
    if (adminUrl)
      line(
        'SQL statements per order mailed',
        `${perOrder(statementCount)} (${statementCount} in all); without the job queue's claims, clocks, lease renewals and completions (idle polls included): ${perOrder(statementCount - queueStatements)}`,
      );
    line('fulfilment throughput', `${(mailed.length / ((lastMail - firstPaid) / 1000)).toFixed(1)} orders/s (first payment to last mail, ${((lastMail - firstPaid) / 1000).toFixed(1)} s)`);
    const countsOk = failedPayments === 0 && paidAt.size === ORDERS && mailed.length === ORDERS && complete === ORDERS;
    console.log(countsOk ? '  OK: every paid order mailed once with its PDF and .ics.' : '  FAILED: a payment, a mail or an attachment is missing.');
    console.log(p99 <= BUDGET_MS ? `  OK: p99 within ${BUDGET_MS} ms.\n` : `  OVER BUDGET: p99 ${p99.toFixed(0)} ms.\n`);
    ok = countsOk && p99 <= BUDGET_MS;
    if (process.env.BENCH_STATEMENTS && statementLog.length) {
      const byText = new Map<string, number>();
      for (const st of statementLog) byText.set(st.text, (byText.get(st.text) ?? 0) + 1);
      console.log('  statements by text (count per order mailed):');
      for (const [text, n] of [...byText].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`    ${(n / Math.max(1, mailed.length)).toFixed(2).padStart(6)}  ${text}`);
    }
  } finally {
    statements.stop();
    keepAlive.destroy();
    await server.close();
    await sink.close();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
