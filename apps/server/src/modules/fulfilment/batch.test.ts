import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, orderLinks, orders, outbox, subscribers, tickets } from '../../db/schema/index.js';
import { givenHeldOrder, givenTenant, inspectPdf, startServer, type GivenHeldOrder, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { createJobs } from '../../platform/jobs.js';
import { FULFIL_JOB, fulfilmentBatches, fulfilOrder, fulfilOrders } from './service.js';

// Issue 26 "mail4": paid orders fulfilled in batches (one lock statement, one tickets statement, one
// completion statement for the batch), each order's result its own. On PGlite and on PostgreSQL.

let server: TestServer;
let tenant: GivenTenant;
beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server);
});
afterAll(async () => {
  await server.close();
});

const deps = () => server.app.deps;
const db = () => deps().db;
const ticketsOf = (orderId: string) => db().select().from(tickets).where(eq(tickets.orderId, orderId));
const mailsTo = (to: string) => db().select().from(outbox).where(eq(outbox.to, to));
const rowsOf = (ids: string[]) => db().select().from(orders).where(inArray(orders.id, ids));
const paidOrders = (n: number, opts: Parameters<typeof givenHeldOrder>[2] = {}) =>
  Promise.all(Array.from({ length: n }, (_, i) => givenHeldOrder(server, tenant.id, { email: `batch${i}-${Math.random().toString(36).slice(2, 8)}@example.test`, ...opts, status: 'processing' })));

/** Each order completed once: its own tickets, one mail to its buyer naming it with a PDF of its own tickets, one order link. */
async function expectFulfilledOnce(order: GivenHeldOrder) {
  const sold = await ticketsOf(order.orderId);
  expect(sold).toHaveLength(order.seats);
  const mails = await mailsTo(order.email);
  expect(mails).toHaveLength(1);
  expect(mails[0]!.text).toContain(order.orderUid);
  const pdf = inspectPdf((await deps().storage.get(mails[0]!.attachments[0]!.key))!.bytes);
  expect(pdf.pages).toHaveLength(order.seats);
  for (const t of sold) expect(pdf.pages.some((p) => p.text.includes(t.ticketUid))).toBe(true);
  expect(await db().select().from(orderLinks).where(eq(orderLinks.orderId, order.orderId))).toHaveLength(1);
  expect(await db().select().from(jobs).where(eq(jobs.dedupeKey, `mail:${mails[0]!.id}`))).toHaveLength(1);
}

describe('fulfilment in batches (issue 26 "mail4")', () => {
  it('fulfils a batch in one completion statement, each order with its own tickets, mail and link; a second run skips them all', async () => {
    const batch = await paidOrders(3);
    const [draft] = await Promise.all([givenHeldOrder(server, tenant.id, { status: 'draft' })]);
    const results = await fulfilOrders(deps(), [...batch, draft!].map((o) => ({ tenantId: tenant.id, orderId: o.orderId })));
    expect(results).toEqual(['completed', 'completed', 'completed', 'skipped']);
    const rows = await rowsOf(batch.map((o) => o.orderId));
    expect(rows.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    // One statement completed them: the same transaction time on each.
    expect(new Set(rows.map((r) => r.updatedAt.getTime())).size).toBe(1);
    for (const o of batch) await expectFulfilledOnce(o);
    expect(await ticketsOf(draft!.orderId)).toHaveLength(0);
    expect(await fulfilOrders(deps(), batch.map((o) => ({ tenantId: tenant.id, orderId: o.orderId })))).toEqual(['skipped', 'skipped', 'skipped']);
    for (const o of batch) await expectFulfilledOnce(o);
  });

  it("leaves out an order of another tenant, and one buyer's two orders in a batch subscribe the address once", async () => {
    const other = await givenTenant(server);
    const first = await givenHeldOrder(server, tenant.id, { status: 'processing', optInEmail: true, email: 'twice@example.test' });
    const second = await givenHeldOrder(server, tenant.id, { status: 'processing', optInEmail: true, email: 'twice@example.test', eventId: first.eventId });
    const results = await fulfilOrders(deps(), [
      { tenantId: other.id, orderId: first.orderId },
      { tenantId: tenant.id, orderId: first.orderId },
      { tenantId: tenant.id, orderId: second.orderId },
    ]);
    expect(results).toEqual(['skipped', 'completed', 'completed']);
    expect(await mailsTo('twice@example.test')).toHaveLength(2);
    const subs = await db().select().from(subscribers).where(and(eq(subscribers.tenantId, tenant.id), eq(subscribers.eventId, first.eventId)));
    expect(subs.map((s) => [s.email, s.optInEmail])).toEqual([['twice@example.test', true]]);
  });

  it("one order's failure (its PDF not stored) fails only that order: the others complete, it completes on its retry with the same tickets", async () => {
    const [a, b, c] = await paidOrders(3);
    const storage = deps().storage;
    const put = storage.put;
    const badKey = `tickets/${tenant.id}/${b!.orderId}/tickets.pdf`;
    storage.put = async (key, ...rest) => {
      if (key === badKey) throw new Error('the disk is full');
      return put.call(storage, key, ...rest);
    };
    let results: Awaited<ReturnType<typeof fulfilOrders>>;
    try {
      results = await fulfilOrders(deps(), [a!, b!, c!].map((o) => ({ tenantId: tenant.id, orderId: o.orderId })));
    } finally {
      storage.put = put;
    }
    expect(results[0]).toBe('completed');
    expect(results[1]).toBeInstanceOf(Error);
    expect((results[1] as Error).message).toBe('the disk is full');
    expect(results[2]).toBe('completed');
    await expectFulfilledOnce(a!);
    await expectFulfilledOnce(c!);
    const [bRow] = await rowsOf([b!.orderId]);
    expect(bRow!.status).toBe('processing');
    expect(await mailsTo(b!.email)).toHaveLength(0);
    const issued = (await ticketsOf(b!.orderId)).map((t) => t.ticketUid).sort();
    expect(issued).toHaveLength(b!.seats);
    // Its job's retry: the tickets the batch issued, no more.
    expect(await fulfilOrder({ deps: deps(), tenantId: tenant.id, orderId: b!.orderId })).toBe('completed');
    expect((await ticketsOf(b!.orderId)).map((t) => t.ticketUid).sort()).toEqual(issued);
    await expectFulfilledOnce(b!);
  });

  it('a batch whose completion statement fails completes its orders one by one', async () => {
    const batch = await paidOrders(3);
    const database = db();
    const execute = database.execute;
    let failed = 0;
    // Outside the batch's transaction the only statement of a fulfilment is the completion.
    (database as { execute: unknown }).execute = function (this: unknown, ...a: unknown[]) {
      if (failed++ === 0) return Promise.reject(new Error('connection reset'));
      return (execute as (...b: unknown[]) => unknown).apply(database, a);
    };
    let results: Awaited<ReturnType<typeof fulfilOrders>>;
    try {
      results = await fulfilOrders(deps(), batch.map((o) => ({ tenantId: tenant.id, orderId: o.orderId })));
    } finally {
      (database as { execute: unknown }).execute = execute;
    }
    expect(failed).toBe(4);
    expect(results).toEqual(['completed', 'completed', 'completed']);
    // Each completed by a transaction of its own: three row versions written by three transactions
    // (their updated_at can share a millisecond on a fast machine, so the transaction ids are compared).
    const ids = batch.map((o) => o.orderId);
    const versions = (await db().execute(sql`select xmin::text as tx from orders where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`)) as unknown as { rows: Array<{ tx: string }> };
    expect(new Set(versions.rows.map((r) => r.tx)).size).toBe(3);
    for (const o of batch) await expectFulfilledOnce(o);
  });

  it('a batch after a crash: an order whose tickets were issued keeps them, the others get theirs', async () => {
    const [crashed, fresh] = await paidOrders(2);
    await fulfilOrder({ deps: deps(), tenantId: tenant.id, orderId: crashed!.orderId });
    const first = (await ticketsOf(crashed!.orderId)).map((t) => t.ticketUid).sort();
    // Died after its tickets and before its completion: processing, tickets issued, no mail yet.
    await db().update(orders).set({ status: 'processing' }).where(eq(orders.id, crashed!.orderId));
    await db().delete(outbox).where(eq(outbox.to, crashed!.email));
    await db().delete(orderLinks).where(eq(orderLinks.orderId, crashed!.orderId));
    expect(await fulfilOrders(deps(), [crashed!, fresh!].map((o) => ({ tenantId: tenant.id, orderId: o.orderId })))).toEqual(['completed', 'completed']);
    expect((await ticketsOf(crashed!.orderId)).map((t) => t.ticketUid).sort()).toEqual(first);
    await expectFulfilledOnce(crashed!);
    await expectFulfilledOnce(fresh!);
  });

  it("the fulfil lane runs the jobs it claims together as one batch, each job done once", async () => {
    const batch = await paidOrders(4);
    for (const o of batch) await deps().jobs.enqueue(db(), FULFIL_JOB, { tenantId: tenant.id, orderId: o.orderId }, { dedupeKey: `fulfil:${o.orderId}` });
    // A worker of this file's own that takes only fulfil jobs, with the server's handler rule (fulfilmentBatches).
    const worker = createJobs(db(), server.app.log, 60_000, { kinds: [FULFIL_JOB] });
    const fulfil = fulfilmentBatches(deps(), 16);
    worker.register(FULFIL_JOB, async (p: { tenantId: string; orderId: string }) => {
      await fulfil(p);
    });
    worker.lane([FULFIL_JOB], 16);
    // The lane claims at once; the main loop (which claims one job at a time) would poll a minute later.
    worker.start();
    try {
      for (let i = 0; i < 300; i++) {
        const rows = await rowsOf(batch.map((o) => o.orderId));
        const left = await db().select().from(jobs).where(and(inArray(jobs.dedupeKey, batch.map((o) => `fulfil:${o.orderId}`))));
        if (rows.every((r) => r.status === 'completed') && left.every((j) => j.doneAt)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await worker.stop();
    }
    const rows = await rowsOf(batch.map((o) => o.orderId));
    expect(rows.map((r) => r.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(new Set(rows.map((r) => r.updatedAt.getTime())).size).toBe(1);
    const done = await db().select().from(jobs).where(inArray(jobs.dedupeKey, batch.map((o) => `fulfil:${o.orderId}`)));
    expect(done.map((j) => [j.attempts, !!j.doneAt, j.failedAt])).toEqual(batch.map(() => [1, true, null]));
    for (const o of batch) await expectFulfilledOnce(o);
  });
});
