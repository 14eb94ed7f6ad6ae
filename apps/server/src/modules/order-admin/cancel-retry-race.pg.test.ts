import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, orders, refunds, testCheckoutSessions, testRefunds } from '../../db/schema/index.js';
import { givenHeldOrder, startTenantServer, type Client, type GivenTenant, type Res, type TestServer } from '../../../test/harness.js';
import { FULFIL_JOB } from '../fulfilment/service.js';
import { refundCancelledOrder } from './refund-cancelled-order.js';

// Issue 21.13 on PostgreSQL: the retry of a failed cancellation refund racing the organiser's own
// refund of the same order from the order page. Both take the order's row lock before they count
// what is left, so whichever comes second finds nothing left: the money goes back exactly once,
// and neither side answers 500. A side connection holds the order's lock so that both wait on it
// together (the interleaving is forced, not hoped for); then many orders race freely.

let server: TestServer;
let tenant: GivenTenant;
let admin: Client;
let side: pg.Client;
let watch: pg.Client;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('cancel-retry-race.pg.test.ts needs TEST_DATABASE_URL');
  ({ server, tenant, admin } = await startTenantServer());
  side = new pg.Client({ connectionString: server.config.databaseUrl });
  await side.connect();
  watch = new pg.Client({ connectionString: server.config.databaseUrl });
  await watch.connect();
});
afterAll(async () => {
  await side?.end();
  await watch?.end();
  await server?.close();
});

const db = () => server.app.deps.db;

async function lockWaiters(): Promise<number> {
  const name = new URL(server.config.databaseUrl!).pathname.slice(1);
  const res = await watch.query(`select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`, [name]);
  return res.rows[0].n as number;
}
async function untilWaiting(n: number): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if ((await lockWaiters()) >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no ${n} sessions waited for a lock`);
}

type Paid = { orderId: string; orderUid: string; eventId: string; chargeId: string };

/** A $100.00 order paid through the test gateway, of `eventId` when given. */
async function givenPaidOrder(eventId?: string): Promise<Paid> {
  const order = await givenHeldOrder(server, tenant.id, { eventId, status: 'processing' });
  const chargeId = `pi_test_${randomUUID().replace(/-/g, '')}`;
  await db().insert(testCheckoutSessions).values({
    tenantId: tenant.id, id: `cs_test_${randomUUID()}`, orderId: order.orderId, orderUid: order.orderUid, amount: order.totalAmount, currency: 'usd',
    successUrl: 'http://x.test/s', cancelUrl: 'http://x.test/c', idempotencyKey: `checkout:${order.orderId}`, status: 'complete', chargeId, expiresAt: new Date(Date.now() + 60_000),
  });
  await db().update(orders).set({ chargeId, paymentProvider: 'test', paymentMethod: 'card', paidAt: new Date(), platformTotal: 957, tenantTotal: order.totalAmount - 957 }).where(eq(orders.id, order.orderId));
  await server.app.deps.jobs.enqueue(db(), FULFIL_JOB, { tenantId: tenant.id, orderId: order.orderId }, { dedupeKey: `fulfil:${order.orderId}` });
  return { orderId: order.orderId, orderUid: order.orderUid, eventId: order.eventId, chargeId };
}

/**
 * A cancelled event whose orders' first cancellation refund was refused (their charges were
 * refunded outside), with the charges whole again: each order waits for its first retry.
 */
async function givenOrdersWaitingForRetry(n: number): Promise<Paid[]> {
  const first = await givenPaidOrder();
  const paid = [first];
  for (let i = 1; i < n; i++) paid.push(await givenPaidOrder(first.eventId));
  await server.app.deps.jobs.drain();
  for (const p of paid) await db().insert(testRefunds).values({ id: `re_test_${randomUUID()}`, chargeId: p.chargeId, amount: 10000, idempotencyKey: `outside:${p.orderId}` });
  expect((await admin.post(`/api/tenants/${tenant.id}/events/${first.eventId}/cancel`)).status).toBe(200);
  await server.app.deps.jobs.drain();
  for (const p of paid) {
    expect((await db().select().from(jobs).where(eq(jobs.dedupeKey, `cancel-refund:${p.orderId}:retry-1`)))).toHaveLength(1);
    await db().delete(testRefunds).where(eq(testRefunds.idempotencyKey, `outside:${p.orderId}`));
  }
  return paid;
}

const refundByHand = (p: Paid) => admin.post(`/api/tenants/${tenant.id}/events/${p.eventId}/orders/${p.orderUid}/refunds`, { mode: 'full', reason: 'by hand' });
const retry = (p: Paid) => refundCancelledOrder({ deps: server.app.deps, job: { tenantId: tenant.id, orderId: p.orderId, userId: null, retry: 1 } });

/** The money went back once: the gateway gave back $100.00, and the live refund rows say the same. */
async function expectRefundedOnce(p: Paid, byHand: Res) {
  expect([201, 409]).toContain(byHand.status);
  if (byHand.status === 409) expect(byHand.body.error.message).toBe(M.refundNothingLeft);
  const given = await db().select().from(testRefunds).where(eq(testRefunds.chargeId, p.chargeId));
  expect(given.reduce((s, r) => s + r.amount, 0)).toBe(10000);
  const rows = await db().select().from(refunds).where(eq(refunds.orderId, p.orderId));
  expect(rows.filter((r) => r.status !== 'failed').map((r) => [r.status, r.amount])).toEqual([['succeeded', 10000]]);
  expect((await db().select().from(orders).where(eq(orders.id, p.orderId)))[0]).toMatchObject({ refunded: true, refundedAmount: 10000 });
}

describe('a cancellation retry racing a refund from the order page, on PostgreSQL', () => {
  it('both wait on the order’s lock; whichever comes second finds nothing left', async () => {
    const [p] = await givenOrdersWaitingForRetry(1);
    await side.query('begin');
    await side.query('select 1 from orders where id = $1 for update', [p!.orderId]);
    const retrying = retry(p!);
    const byHand = refundByHand(p!);
    await untilWaiting(2);
    await side.query('commit');
    const [, answered] = await Promise.all([retrying, byHand]);
    await expectRefundedOnce(p!, answered);
  });

  it('many orders at once: each refunded exactly once, no 500', async () => {
    const paid = await givenOrdersWaitingForRetry(8);
    // Half the pairs start with the retry, half with the organiser's refund.
    const answers = await Promise.all(
      paid.map((p, i) => (i % 2 ? Promise.all([retry(p), refundByHand(p)]).then(([, r]) => r) : Promise.all([refundByHand(p), retry(p)]).then(([r]) => r))),
    );
    for (const [i, p] of paid.entries()) await expectRefundedOnce(p, answers[i]!);
  });
});
