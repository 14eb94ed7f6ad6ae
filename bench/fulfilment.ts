// From payment to ticket mail (issue 26 "The whole rush, measured"): 3,000 orders paid within a
// minute on the test gateway's pay page, each confirmed by the gateway's signed webhook (a job), then
// fulfilled (the tickets' PDF and the .ics built, a job) and mailed (a job) through a real SMTP server
// (the `smtp-server` package), which checks that every message carries the PDF and the .ics. The SMTP
// server, the payers and the reference run in a child process (bench/fulfilment-client.ts), so that the
// main thread's CPU per order is the server's alone. Prints the delay from each payment (the order's paidAt, written when the payment commits)
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
// statements per order (PostgreSQL), with and without the job queue's own; BENCH_STATEMENTS=1 lists them by text;
// BENCH_PROFILE=file.cpuprofile writes the main thread's CPU profile from the first payment to the last mail.
// Exit code 1 when a mail is missing or lacks its PDF or .ics, or the p99 is over the budget.

import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { ClientAnswer, ClientRequest, Mail } from './fulfilment-client.js';
import { cpuMsOf, serverThreadCpuMs, startProfile } from './load-generator.js';
import { loadServer } from './server.js';
import { percentile, seedTenant, startServer, watchStatements, type LoggedStatement } from './support.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 3000);
const PAY_SECONDS = Number(process.env.BENCH_PAY_SECONDS ?? 60);
const PAY_CONCURRENCY = Number(process.env.BENCH_PAY_CONCURRENCY ?? 20);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 600);
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 10_000);
const POOL = Number(process.env.BENCH_POOL ?? 10);
/** The server's PDF worker threads (PDF_WORKERS, default 1; 0: the PDFs built on the main thread, as before issue 26's pool). */
const PDF_WORKERS = process.env.PDF_WORKERS ?? '1';

/**
 * The payers, the SMTP sink and the reference in a child process (bench/fulfilment-client.ts), so that
 * this process's main thread is the server's alone: one request at a time, each answered in turn.
 */
function startClient() {
  const child = fork(new URL('./fulfilment-client.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let queue: Promise<unknown> = Promise.resolve();
  function ask<K extends ClientAnswer['kind']>(m: ClientRequest, kind: K): Promise<Extract<ClientAnswer, { kind: K }>> {
    const asked = queue.then(
      () =>
        new Promise<Extract<ClientAnswer, { kind: K }>>((resolve, reject) => {
          const onExit = () => reject(new Error('the bench client exited'));
          child.once('exit', onExit);
          child.once('message', (a: ClientAnswer) => {
            child.off('exit', onExit);
            if (a.kind === kind) resolve(a as Extract<ClientAnswer, { kind: K }>);
            else reject(new Error(`the bench client answered ${a.kind}, not ${kind}`));
          });
          child.send(m);
        }),
    );
    queue = asked.catch(() => {});
    return asked;
  }
  return {
    ask,
    close: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.send({ kind: 'close' } satisfies ClientRequest);
    }),
  };
}

const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms, max ${(s.at(-1) ?? 0).toFixed(0)} ms`;
};

async function main() {
  const { sql } = await import('drizzle-orm');
  // Every statement the server's pg clients send (PostgreSQL only; PGlite has no pg client), counted
  // from the first payment to the last mail, with and without the job queue's own; BENCH_STATEMENTS=1 also lists them by text.
  const statements = await watchStatements(110);
  const api = await loadServer();
  const { events, ticketTypes } = api;
  const adminUrl = process.env.DATABASE_URL || undefined;
  const client = startClient();
  const smtpPort = (await client.ask({ kind: 'listen' }, 'listening')).port;
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

    // The reference, same run: bare messages of the same size through nodemailer to the same sink, 4 at a time (in the client process).
    const REF = Math.max(50, Math.round(ORDERS / 10));
    const refSeconds = (await client.ask({ kind: 'reference', count: REF }, 'reference')).seconds;

    // CPU from the first payment to the last mail: the main thread (the server's event loop) and the whole
    // process (with the PDF worker threads); the payers and the SMTP sink run in the client process.
    // BENCH_PROFILE=file.cpuprofile: the main thread's CPU profile over the same span.
    const profiler = process.env.BENCH_PROFILE ? await startProfile() : null;
    // PostgreSQL's CPU: this database's backends (the server's pool), read from /proc (PostgreSQL on this machine).
    const backendCpu = async () => {
      const scratch = server.scratch;
      if (!scratch) return new Map<number, number>();
      const { rows } = await scratch.admin.query('select pid from pg_stat_activity where datname = $1', [scratch.name]);
      return new Map(rows.map((r: { pid: number }) => [r.pid, cpuMsOf(`/proc/${r.pid}/stat`) || 0] as const));
    };
    const pg0 = await backendCpu();
    const cpu0 = { thread: serverThreadCpuMs(), process: process.cpuUsage() };
    const statements0 = statements.state.count;
    // Listed always (the job queue's own statements, mostly idle polls, grow with the run's length, not with the orders).
    statements.state.log = [];
    deps.jobs.start();
    // The payments, on a clock: payment i is made at i * PAY_SECONDS / ORDERS s (or as soon as one of the PAY_CONCURRENCY is free).
    const payment = await client.ask({ kind: 'pay', port, host, sessions: sessions.map((x) => x.id), seconds: PAY_SECONDS, concurrency: PAY_CONCURRENCY }, 'paid');
    const failedPayments = payment.failed;
    const paySeconds = payment.seconds;
    await client.ask({ kind: 'wait', count: ORDERS, timeoutMs: TIMEOUT_S * 1000 }, 'waited');
    const threadCpuMs = serverThreadCpuMs() - cpu0.thread;
    const processCpu = process.cpuUsage(cpu0.process);
    const processCpuMs = (processCpu.user + processCpu.system) / 1000;
    const statementCount = statements.state.count - statements0;
    const pg1 = await backendCpu();
    // A backend started during the run counts from 0; one gone before the end is not counted (the pool keeps its connections).
    const pgCpuMs = [...pg1].reduce((sum, [pid, ms]) => sum + ms - (pg0.get(pid) ?? 0), 0);
    const statementLog: LoggedStatement[] = statements.state.log ?? [];
    statements.state.log = null;
    await profiler?.stop(process.env.BENCH_PROFILE!);
    await deps.jobs.stop();
    const received = (await client.ask({ kind: 'mails' }, 'mails')).mails;

    const paid = (await deps.db.execute(sql`
      select email, extract(epoch from paid_at) * 1000 as paid_ms from orders where tenant_id = ${tenant.id}::uuid and event_id = ${eventId}::uuid and paid_at is not null`)) as unknown as {
      rows: Array<{ email: string; paid_ms: string | number }>;
    };
    const paidAt = new Map(paid.rows.map((r) => [r.email.toLowerCase(), Number(r.paid_ms)]));
    const firstMail = new Map<string, Mail>();
    for (const m of received) if (!firstMail.has(m.to)) firstMail.set(m.to, m);
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
    line('mails received', `${mailed.length} (${complete} with the PDF and the .ics); ${received.length} messages in all`);
    line('payment -> mail', `${stats(delays)} (budget p99 <= ${BUDGET_MS} ms)`);
    line('CPU per order mailed', `main thread ${(threadCpuMs / Math.max(1, mailed.length)).toFixed(1)} ms, whole process ${(processCpuMs / Math.max(1, mailed.length)).toFixed(1)} ms (PDF_WORKERS ${PDF_WORKERS}; the payers and the SMTP sink run in a process of their own)`);
    const queueStatements = statementLog.filter((st) => /^(with (finished as \(update jobs|clock as)|select now\(\)|update jobs set (locked_until|done_at))/.test(st.text.trim())).length;
    const perOrder = (n: number) => (n / Math.max(1, mailed.length)).toFixed(1);
    if (adminUrl) line('PostgreSQL CPU per order mailed', `${(pgCpuMs / Math.max(1, mailed.length)).toFixed(1)} ms (this database's backends)`);
    if (adminUrl)
      line(
        'SQL statements per order mailed',
        `${perOrder(statementCount)} (${statementCount} in all); without the job queue's claims, clocks, lease renewals and completions (idle polls included): ${perOrder(statementCount - queueStatements)}`,
      );
    // Idle polls (claims that claimed nothing) grow with the run's length, so with a loaded machine's slower run, not with the orders.
    const idlePolls = statementLog.filter((st) => st.idle).length;
    if (adminUrl) line('  of them idle polls', `${perOrder(idlePolls)}; without them ${perOrder(statementCount - idlePolls)} an order (the job queue's own: ${perOrder(queueStatements - idlePolls)})`);
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
    await server.close();
    await client.close();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
