import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, orderLinks, orders, outbox, subscribers, tickets } from '../../db/schema/index.js';
import { givenHeldOrder, givenTenant, startServer, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { signTestWebhook } from '../../platform/payments/test-driver.js';
import { findPaySession, payTestSession, receiveWebhook } from '../payments/service.js';
import { fulfilOrder, fulfilOrders } from './service.js';

// Issue 26 "mail2": a paid order's fulfilment in as few statements as its rules allow (the main
// thread's CPU per order mailed was mostly building and answering statements; bench/fulfilment.ts).
// Counted on PostgreSQL, where every statement (begin and commit included) is one pg query.

let server: TestServer;
let tenant: GivenTenant;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('cost.pg.test.ts needs TEST_DATABASE_URL');
  server = await startServer();
  tenant = await givenTenant(server);
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.app.deps.db;

/** The statements this process's pg clients send while `run` runs, by text. */
async function statementsDuring<T>(run: () => Promise<T>): Promise<{ result: T; texts: string[] }> {
  const original = pg.Client.prototype.query;
  const texts: string[] = [];
  (pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }).query = function (this: pg.Client, ...a: unknown[]) {
    const q = a[0] as string | { text?: string };
    texts.push(String(typeof q === 'string' ? q : (q?.text ?? '?')).replace(/\s+/g, ' ').trim());
    return (original as unknown as (...b: unknown[]) => unknown).apply(this, a);
  };
  try {
    return { result: await run(), texts };
  } finally {
    pg.Client.prototype.query = original;
  }
}

describe('what a fulfilment costs (issue 26 "mail2")', () => {
  it('is begin, the order locked with all it needs, the tickets, commit, and the completion with its link, mail, mail job and opt-in in one statement', async () => {
    const order = await givenHeldOrder(server, tenant.id, {
      status: 'processing',
      optInEmail: true,
      lines: [
        { name: 'Balcony', price: 4000, quantity: 2 },
        { name: 'Floor', price: 2500, quantity: 1 },
      ],
    });
    const { result, texts } = await statementsDuring(() => fulfilOrder({ deps: server.app.deps, tenantId: tenant.id, orderId: order.orderId }));
    expect(result).toBe('completed');
    expect(texts.length, texts.join('\n')).toBe(5);
    expect(texts[0]).toBe('begin');
    expect(texts[3]).toBe('commit');

    // Everything the seventeen statements wrote before is there.
    expect((await db().select().from(orders).where(eq(orders.id, order.orderId)))[0]!.status).toBe('completed');
    const sold = await db().select().from(tickets).where(eq(tickets.orderId, order.orderId));
    expect(sold).toHaveLength(3);
    expect(await db().select().from(orderLinks).where(eq(orderLinks.orderId, order.orderId))).toHaveLength(1);
    const [mail] = await db().select().from(outbox).where(eq(outbox.to, order.email));
    expect(mail).toMatchObject({ tenantId: tenant.id, status: 'queued', replyTo: expect.any(String) });
    expect(mail!.text).toContain(order.orderUid);
    expect(mail!.text).toContain('Balcony × 2 @ $40.00');
    expect(mail!.attachments.map((a) => a.contentType)).toEqual(['application/pdf', 'text/calendar; charset=utf-8; method=PUBLISH']);
    const mailJobs = await db().select().from(jobs).where(eq(jobs.dedupeKey, `mail:${mail!.id}`));
    expect(mailJobs).toHaveLength(1);
    expect(await db().select().from(subscribers).where(and(eq(subscribers.tenantId, tenant.id), eq(subscribers.eventId, order.eventId)))).toHaveLength(1);
    // The PDF lists the tickets the statement wrote, each once.
    const pdf = (await server.app.deps.storage.get(mail!.attachments[0]!.key))!.bytes.toString('latin1');
    expect(pdf.startsWith('%PDF')).toBe(true);
  });

  it('three runs at once: one completes it, with one set of tickets, one mail and one order link', async () => {
    const order = await givenHeldOrder(server, tenant.id, { status: 'processing' });
    const runs = await Promise.all([1, 2, 3].map(() => fulfilOrder({ deps: server.app.deps, tenantId: tenant.id, orderId: order.orderId })));
    expect(runs.filter((r) => r === 'completed')).toHaveLength(1);
    expect(await db().select().from(tickets).where(eq(tickets.orderId, order.orderId))).toHaveLength(order.seats);
    expect(await db().select().from(outbox).where(eq(outbox.to, order.email))).toHaveLength(1);
    expect(await db().select().from(orderLinks).where(eq(orderLinks.orderId, order.orderId))).toHaveLength(1);
  });
});

describe('fulfilment in batches (issue 26 "mail4")', () => {
  it('fulfils a batch of orders in the statements of one: begin, the orders locked, their tickets, commit, and one completion', async () => {
    const batch = await Promise.all(
      [1, 2, 3].map((i) => givenHeldOrder(server, tenant.id, { status: 'processing', optInEmail: i === 2, lines: [{ name: 'Floor', price: 2500, quantity: i }] })),
    );
    const { result, texts } = await statementsDuring(() => fulfilOrders(server.app.deps, batch.map((o) => ({ tenantId: tenant.id, orderId: o.orderId }))));
    expect(result).toEqual(['completed', 'completed', 'completed']);
    expect(texts.length, texts.join('\n')).toBe(5);
    expect(texts[0]).toBe('begin');
    expect(texts[3]).toBe('commit');
    for (const [i, o] of batch.entries()) {
      expect(await db().select().from(tickets).where(eq(tickets.orderId, o.orderId))).toHaveLength(i + 1);
      const mails = await db().select().from(outbox).where(eq(outbox.to, o.email));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(o.orderUid);
      expect(await db().select().from(jobs).where(eq(jobs.dedupeKey, `mail:${mails[0]!.id}`))).toHaveLength(1);
      expect(await db().select().from(orderLinks).where(eq(orderLinks.orderId, o.orderId))).toHaveLength(1);
    }
    expect(await db().select().from(subscribers).where(and(eq(subscribers.tenantId, tenant.id), eq(subscribers.eventId, batch[1]!.eventId)))).toHaveLength(1);
  });

  it('batches that share orders, run at once, neither deadlock nor fulfil an order twice (the orders locked by id in each)', async () => {
    for (let round = 0; round < 3; round++) {
      const o = await Promise.all([1, 2, 3, 4, 5].map(() => givenHeldOrder(server, tenant.id, { status: 'processing' })));
      const req = (...xs: number[]) => xs.map((i) => ({ tenantId: tenant.id, orderId: o[i]!.orderId }));
      const runs = await Promise.all([
        fulfilOrders(server.app.deps, req(0, 1, 2, 3)),
        fulfilOrders(server.app.deps, req(3, 2, 1, 0)),
        fulfilOrders(server.app.deps, req(4, 1)),
        fulfilOrders(server.app.deps, req(2, 4, 0)),
        fulfilOrder({ deps: server.app.deps, tenantId: tenant.id, orderId: o[2]!.orderId }).then((r) => [r]),
      ]);
      const all = runs.flat();
      expect(all.filter((r) => r instanceof Error)).toEqual([]);
      // Each order completed by exactly one of the runs that asked for it.
      const asked = [[0, 1, 2, 3], [3, 2, 1, 0], [4, 1], [2, 4, 0], [2]];
      for (let i = 0; i < 5; i++) {
        const completions = asked.flatMap((xs, r) => xs.map((x, j) => (x === i ? runs[r]![j] : null))).filter((r) => r === 'completed');
        expect(completions, `order ${i}, round ${round}`).toHaveLength(1);
        expect(await db().select().from(tickets).where(eq(tickets.orderId, o[i]!.orderId))).toHaveLength(o[i]!.seats);
        expect(await db().select().from(outbox).where(eq(outbox.to, o[i]!.email))).toHaveLength(1);
        expect(await db().select().from(orderLinks).where(eq(orderLinks.orderId, o[i]!.orderId))).toHaveLength(1);
        expect((await db().select().from(orders).where(eq(orders.id, o[i]!.orderId)))[0]!.status).toBe('completed');
      }
    }
  });
});

describe('what a payment costs (issue 26 "mail2")', () => {
  it("is two statements on the test gateway's pay page, and six for the webhook's confirmation (the order locked with its event's status, the update with its follow-ups in one)", async () => {
    const order = await givenHeldOrder(server, tenant.id);
    const deps = server.app.deps;
    const checkout = await deps.payments.createCheckout({
      orderId: order.orderId,
      orderUid: order.orderUid,
      tenantId: tenant.id,
      amount: order.totalAmount,
      currency: 'usd',
      email: order.email,
      description: `Tickets ${order.orderUid}`,
      successUrl: `http://${tenant.url}.${server.config.baseDomain}/s`,
      cancelUrl: `http://${tenant.url}.${server.config.baseDomain}/c`,
      expiresAt: new Date(Date.now() + 15 * 60_000),
      idempotencyKey: `checkout:${order.orderId}`,
    });
    const host = `${tenant.url}.${server.config.baseDomain}:${server.port}`;
    const pay = await statementsDuring(async () => {
      const session = await findPaySession({ deps, host, sessionId: checkout.sessionId });
      return payTestSession({ deps, session: session!, card: { number: '4242424242424242', expiry: '', cvc: '' } });
    });
    expect(pay.result.kind).toBe('paid');
    expect(pay.texts.length, pay.texts.join('\n')).toBe(2);
    const [job] = await db().select().from(jobs).where(eq(jobs.dedupeKey, `test-webhook:${checkout.sessionId}:completed`));
    const body = (job!.payload as { body: string }).body;

    const confirm = await statementsDuring(() => receiveWebhook({ deps, provider: 'test', rawBody: Buffer.from(body), signature: signTestWebhook(server.config.secret, body) }));
    expect(confirm.result).toEqual({ outcome: 'paid' });
    expect(confirm.texts.length, confirm.texts.join('\n')).toBe(6);
    const paid = (await db().select().from(orders).where(eq(orders.id, order.orderId)))[0]!;
    expect(paid).toMatchObject({ status: 'processing', paymentProvider: 'test', chargeId: expect.stringMatching(/^pi_test/), paymentMethod: 'card' });
    // The follow-ups were written with it: the fulfil job, the payout lines job, order.paid.
    const followUps = await db().select().from(jobs).where(and(eq(jobs.dedupeKey, `orders.fulfil:${order.orderId}`)));
    expect(followUps).toHaveLength(1);
    expect(await db().select().from(jobs).where(eq(jobs.dedupeKey, `payouts.lines:paid:${order.orderId}`))).toHaveLength(1);
  });
});
