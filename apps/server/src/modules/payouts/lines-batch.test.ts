import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, jobs, orders, payoutLines } from '../../db/schema/index.js';
import { givenTenant, startServer, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { PAYOUT_LINES_JOB } from '../orders/payment.js';
import { runPayoutLinesJobs } from './sync-payout-lines.js';

// Issue 26 "mail4": the payout lines jobs of a sale, run together, in the statements of one job; one
// order whose settlement is not there yet fails only its own job. On PGlite and on PostgreSQL.

let server: TestServer;
let tenant: GivenTenant;
beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;

/** A paid order as the payment webhook leaves it (processing, paid_at, the test gateway's charge), without its payout line. */
async function givenPaidOrder(total: number) {
  const eventId = randomUUID();
  await db().insert(events).values({ tenantId: tenant.id, id: eventId, name: `Gala ${eventId.slice(0, 4)}`, urlName: `e${eventId.slice(0, 8)}`, status: 'published' });
  const id = randomUUID();
  await db().insert(orders).values({
    tenantId: tenant.id,
    id,
    orderUid: `P${id.replace(/-/g, '').slice(0, 9).toUpperCase()}`,
    eventId,
    status: 'processing',
    email: 'buyer@example.test',
    ticketCount: 1,
    subtotal: total,
    totalAmount: total,
    tenantTotal: total - 100,
    platformTotal: 100,
    paymentProvider: 'test',
    chargeId: `pi_test_${id.slice(0, 8)}`,
    paymentMethod: 'card',
    paidAt: new Date(),
  });
  return id;
}

describe('payout lines jobs run together (issue 26 "mail4")', () => {
  it("write each order's sale line in the statements of one job; an order without its settlement yet fails alone", async () => {
    const ids = await Promise.all([1000, 2000, 3000, 4000].map(givenPaidOrder));
    const late = ids[2]!;
    const deps = server.app.deps;
    // The gateway has no balance transaction for one charge yet (Stripe writes it shortly after the charge).
    const payments = Object.create(deps.payments) as typeof deps.payments;
    payments.settlement = async (p) => {
      if (p.chargeId === `pi_test_${late.slice(0, 8)}`) throw new Error('no balance transaction yet');
      return deps.payments.settlement(p);
    };
    // The database calls of the run, counted.
    let calls = 0;
    const counted = new Proxy(db(), {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver);
        if ((prop === 'select' || prop === 'insert' || prop === 'execute' || prop === 'update') && typeof v === 'function')
          return (...a: unknown[]) => {
            calls++;
            return v.apply(target, a);
          };
        return v;
      },
    });
    const results = await runPayoutLinesJobs({ ...deps, db: counted, payments }, [
      ...ids.map((orderId) => ({ tenantId: tenant.id, orderId })),
      { tenantId: tenant.id, orderId: 'not-a-uuid' },
    ]);
    expect(results.map((r) => r?.message ?? null)).toEqual([null, null, `no settlement yet for order ${late}`, null, null]);
    // The orders without a line read, their lines written, the refunds' and netting lines' statements, the check: six in all (six a job before).
    expect(calls).toBe(6);
    const lines = await db().select().from(payoutLines).where(inArray(payoutLines.orderId, ids));
    expect(lines.map((l) => l.orderId).sort()).toEqual(ids.filter((id) => id !== late).sort());
    for (const l of lines) expect(l).toMatchObject({ kind: 'sale', tenantId: tenant.id, refundId: null });
    const byOrder = new Map(lines.map((l) => [l.orderId, l.grossAmount]));
    expect([ids[0], ids[1], ids[3]].map((id) => byOrder.get(id!))).toEqual([1000, 2000, 4000]);

    // Its job, once the settlement is there: the line, and no second line for the others run again.
    expect(await runPayoutLinesJobs(deps, ids.map((orderId) => ({ tenantId: tenant.id, orderId })))).toEqual([null, null, null, null]);
    expect((await db().select().from(payoutLines).where(inArray(payoutLines.orderId, ids))).map((l) => l.orderId).sort()).toEqual([...ids].sort());
  });

  it('the job fails while its order has no line, and is done once it has one', async () => {
    const id = await givenPaidOrder(1500);
    const deps = server.app.deps;
    const settlement = deps.payments.settlement;
    deps.payments.settlement = async () => {
      throw new Error('no balance transaction yet');
    };
    try {
      await deps.jobs.enqueue(db(), PAYOUT_LINES_JOB, { tenantId: tenant.id, orderId: id }, { dedupeKey: `lines-batch:${id}` });
      await deps.jobs.runDue();
    } finally {
      deps.payments.settlement = settlement;
    }
    const [job] = await db().select().from(jobs).where(eq(jobs.dedupeKey, `lines-batch:${id}`));
    expect(job).toMatchObject({ doneAt: null, attempts: 1, lastError: `no settlement yet for order ${id}` });
    expect(await db().select().from(payoutLines).where(eq(payoutLines.orderId, id))).toHaveLength(0);
    await db().update(jobs).set({ runAt: new Date(0) }).where(eq(jobs.id, job!.id));
    await deps.jobs.runDue();
    const [again] = await db().select().from(jobs).where(eq(jobs.dedupeKey, `lines-batch:${id}`));
    expect(again!.doneAt).toBeInstanceOf(Date);
    expect(await db().select().from(payoutLines).where(eq(payoutLines.orderId, id))).toHaveLength(1);
  });
});
