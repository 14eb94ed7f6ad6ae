import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutPayload, Client, givenEventOnSale, givenTenantWithSettings, startServer, type GivenEventOnSale, type GivenTenant, type TestServer } from './harness.js';

// issue 14, "Suites that keep this true": the crash test. The real server (main.ts, as `npm start`
// runs it) serves concurrent checkouts and test-gateway payments on PostgreSQL, is killed with
// SIGKILL mid-way, restarted under the same JOBS_NODE_ID, and its jobs left to run. Then: no
// oversell, no hold left past its expiry, every paid order fulfilled (none expired or refunded).
// PostgreSQL only (*.pg.test.ts: see vitest.config.ts).

const REPO = path.resolve(import.meta.dirname, '../../..');
const STOCK = 60;
const HOLD_MINUTES = 1;

let db: TestServer; // an in-process app on the same database: creates it, the fixtures, and reads
let tenant: GivenTenant;
let event: GivenEventOnSale;
let dataDir: string;
let child: ChildProcess | null = null;
let port = 0;
let childLog = '';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

async function startChild() {
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      DATABASE_URL: db.config.databaseUrl,
      PORT: String(port),
      DATA_DIR: dataDir,
      SECRET: 'crash-test-secret-crash-test-secret-0123',
      SEED_DEMO: 'false',
      JOBS_POLL_MS: '100',
      JOBS_NODE_ID: 'crash-node',
      HOLD_MINUTES: String(HOLD_MINUTES),
      PAYMENT_DRIVER: 'test',
      LOG_LEVEL: 'error',
      RATE_LIMIT_ORDERS_PER_MINUTE: '100000',
      RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (childLog += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (childLog += d.toString()));
  for (let i = 0; i < 300; i++) {
    const up = await new Client(port, `localhost:${port}`).get('/api/health').then((r) => r.status === 200, () => false);
    if (up) return;
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start:\n${childLog.slice(-3000)}`);
}

function kill9() {
  const c = child!;
  child = null;
  return new Promise<void>((resolve) => {
    c.once('exit', () => resolve());
    c.kill('SIGKILL');
  });
}

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('crash.pg.test.ts needs TEST_DATABASE_URL');
  db = await startServer();
  tenant = await givenTenantWithSettings(db);
  event = await givenEventOnSale(db, tenant.id, { capacity: STOCK, ticketTypes: [{ name: 'Flash', price: 2500, quantity: STOCK }] });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'marquee-crash-'));
  port = await freePort();
  await startChild();
}, 120_000);
afterAll(async () => {
  if (child) await kill9();
  await db?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Outcome = { placed?: string; paid?: boolean; error?: string };

/** A buyer: PLACE ORDER, then (two in three) pays with the test card on the pay page. */
async function buyer(i: number): Promise<Outcome> {
  const c = new Client(port, `${tenant.url}.${db.config.baseDomain}:${port}`);
  try {
    const res = await c.post(
      `/api/p/tenants/${tenant.id}/events/${event.id}/orders`,
      checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 + (i % 2) }], { email: `crash-${i}@example.test` }),
    );
    if (res.status !== 201) return {};
    const placed = res.body.orderUID as string;
    if (i % 3 === 0) return { placed };
    const pay = await c.request('POST', new URL(res.body.message).pathname, Buffer.from('cardNumber=4242424242424242&expiry=11%2F39&cvc=999'), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    return { placed, paid: pay.status === 303 };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const q = async <T>(text: string) => ((await db.app.deps.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;

describe('kill -9 during checkouts and payments (issue 14)', () => {
  it('oversells nothing, leaks no hold and loses no payment across a crash and restart', async () => {
    // Wave 1: 25 buyers who keep coming (each starts again as soon as its last order is answered),
    // so requests are always in flight; the server dies under them once a few have paid. A fixed
    // crowd could all be answered before the kill on a fast machine, and then nothing is cut off.
    const outcomes: Outcome[] = [];
    let paidBeforeKill = 0;
    let killed = false;
    let next = 0;
    const wave1 = Array.from({ length: 25 }, async () => {
      while (!killed) {
        const o = await buyer(next++);
        outcomes.push(o);
        if (o.paid && !killed) paidBeforeKill++;
      }
    });
    for (let t = 0; t < 200 && paidBeforeKill < 5; t++) await new Promise((r) => setTimeout(r, 50));
    killed = true;
    await kill9();
    await Promise.all(wave1);
    expect(paidBeforeKill).toBeGreaterThan(0);
    expect(outcomes.some((o) => o.error)).toBe(true); // the kill really cut requests off

    // Restart under the same node id, and a second wave for what stock is left.
    await startChild();
    const restartedAt = Date.now();
    const wave2 = await Promise.all(Array.from({ length: 30 }, (_, i) => buyer(10_000 + i)));
    outcomes.push(...wave2);

    // Not late: payments taken before the kill (their webhook jobs claimed by the dead process) are
    // fulfilled soon after the restart, before the hold they paid for (HOLD_MINUTES) runs out. The
    // bound was 20 s and failed once at a load average of 22 on this 2-core machine: two thirds of the hold.
    let unfulfilled = -1;
    while (Date.now() - restartedAt < (HOLD_MINUTES * 60_000 * 2) / 3) {
      const [row] = await q<{ n: number }>(
        `select count(*)::int as n from test_checkout_sessions s join orders o on o.tenant_id = s.tenant_id and o.id = s.order_id
          where s.status = 'complete' and o.status <> 'completed'`,
      );
      unfulfilled = row!.n;
      if (unfulfilled === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(unfulfilled).toBe(0);

    // Let every hold run out and every job run: the hold expiry is HOLD_MINUTES after the last order.
    const deadline = Date.now() + (HOLD_MINUTES * 60 + 60) * 1000;
    for (;;) {
      const [left] = await q<{ drafts: number; due: number }>(
        `select (select count(*)::int from orders where status = 'draft') as drafts,
                (select count(*)::int from jobs where run_at <= now() and done_at is null and failed_at is null) as due`,
      );
      if (left!.drafts === 0 && left!.due === 0) break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }

    expect(await q(`select name, last_error from jobs where failed_at is not null and name not like 'mail%'`)).toEqual([]);

    // No oversell: what is sold or held plus what remains is the stock, and never more than it.
    const [stock] = await q<{ remaining: number; capacity: number; taken: number }>(
      `select t.remaining, e.remaining_capacity as capacity,
              (select coalesce(sum(l.quantity), 0)::int from order_lines l join orders o on o.tenant_id = l.tenant_id and o.id = l.order_id
                where o.event_id = e.id and o.status in ('draft', 'processing', 'completed')) as taken
         from ticket_types t join events e on e.id = t.event_id where t.id = '${event.ticketTypeIds[0]}'`,
    );
    expect(stock!.taken).toBeLessThanOrEqual(STOCK);
    expect(stock!.remaining + stock!.taken).toBe(STOCK);
    expect(stock!.capacity + stock!.taken).toBe(STOCK);
    const [tickets] = await q<{ n: number }>(`select count(*)::int as n from tickets where event_id = '${event.id}'`);
    expect(tickets!.n).toBeLessThanOrEqual(STOCK);

    // No leaked hold: every draft past its expiry was released.
    const leaked = await q<{ order_uid: string }>(`select order_uid from orders where status = 'draft' and hold_expires_at < now() - interval '5 seconds'`);
    expect(leaked).toEqual([]);

    // No lost or late payment: every session the gateway took payment for is a fulfilled order with
    // its tickets, none expired or refunded (including payments whose answer the kill cut off).
    const paid = await q<{ order_uid: string; status: string; ticket_count: number; tickets: number }>(
      `select o.order_uid, o.status, o.ticket_count, (select count(*)::int from tickets t where t.order_id = o.id) as tickets
         from test_checkout_sessions s join orders o on o.tenant_id = s.tenant_id and o.id = s.order_id
        where s.status = 'complete'`,
    );
    const answeredPaid = outcomes.filter((o) => o.paid).map((o) => o.placed!);
    expect(answeredPaid.length).toBeGreaterThanOrEqual(5);
    expect(paid.map((p) => p.order_uid)).toEqual(expect.arrayContaining(answeredPaid));
    expect(paid.filter((p) => p.status !== 'completed' || p.tickets !== p.ticket_count)).toEqual([]);
    console.log(
      `crash test: ${outcomes.length} buyers, ${outcomes.filter((o) => o.error).length} cut off by the kill, ${paid.length} paid and fulfilled, ${stock!.taken}/${STOCK} sold`,
    );
  }, 240_000);
});
