import { M } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, orderActions, orders, outbox, paymentEvents, subscribers, testCheckoutSessions, testRefunds, tickets, ticketTypes } from '../../db/schema/index.js';
import { signTestWebhook, TEST_SIGNATURE_HEADER } from '../../platform/payments/test-driver.js';
import {
  givenHeldOrder,
  givenTenant,
  inspectPdf,
  lastMailTo,
  startServer,
  type GivenHeldOrder,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { expireHold } from '../orders/holds.js';

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
const origin = (t: GivenTenant) => `http://${t.url}.${server.config.baseDomain}:${server.port}`;
const form = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString());
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function checkoutFor(order: GivenHeldOrder, opts: { expiresAt?: Date; idempotencyKey?: string } = {}) {
  const base = `${origin(tenant)}/${order.urlName}`;
  const input = {
    orderId: order.orderId,
    orderUid: order.orderUid,
    tenantId: tenant.id,
    amount: order.totalAmount,
    currency: 'usd' as const,
    email: order.email,
    description: `Tickets ${order.orderUid}`,
    successUrl: `${base}/success?orderID=${order.orderUid}`,
    cancelUrl: `${base}/account`,
    expiresAt: opts.expiresAt ?? new Date(Date.now() + 15 * 60_000),
    idempotencyKey: opts.idempotencyKey ?? `checkout:${order.orderId}`,
  };
  const session = await server.app.deps.payments.createCheckout(input);
  await db().update(orders).set({ paymentProvider: 'test', paymentSessionId: session.sessionId }).where(eq(orders.id, order.orderId));
  return { ...session, input, path: new URL(session.url).pathname };
}

const orderRow = async (orderId: string) => (await db().select().from(orders).where(eq(orders.id, orderId)))[0]!;
const remainingOf = async (ids: string[]) =>
  Promise.all(ids.map(async (id) => (await db().select({ r: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.id, id)))[0]!.r));
const eventsOf = (orderId: string) => db().select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId));
const pendingWebhookBody = async (sessionId: string, kind: 'completed' | 'expired') => {
  const [job] = await db().select().from(jobs).where(eq(jobs.dedupeKey, `test-webhook:${sessionId}:${kind}`));
  return (job!.payload as { body: string }).body;
};
const postWebhook = (body: string, signature = signTestWebhook(server.config.secret, body)) =>
  server.client().post('/api/payments/webhooks/test', Buffer.from(body), { 'content-type': 'application/json', [TEST_SIGNATURE_HEADER]: signature });

describe('test gateway: checkout sessions', () => {
  it('answers a pay page URL on the tenant host, and the same session for the same idempotency key', async () => {
    const order = await givenHeldOrder(server, tenant.id);
    const a = await checkoutFor(order);
    expect(a.url).toBe(`${origin(tenant)}/pay/${a.sessionId}`);
    expect(a.sessionId).toMatch(/^cs_test_[\w-]{24}$/);
    const b = await server.app.deps.payments.createCheckout(a.input);
    expect(b).toEqual({ sessionId: a.sessionId, url: a.url });
    const rows = await db().select().from(testCheckoutSessions).where(eq(testCheckoutSessions.orderId, order.orderId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: order.totalAmount, currency: 'usd', status: 'open', tenantId: tenant.id });
    const expiry = await db().select().from(jobs).where(eq(jobs.dedupeKey, `test-expire:${a.sessionId}`));
    expect(expiry).toHaveLength(1);
    expect(expiry[0]).toMatchObject({ name: 'payments.test-expire', payload: { tenantId: tenant.id, sessionId: a.sessionId } });
    expect(expiry[0]!.runAt.getTime()).toBe(a.input.expiresAt.getTime());
  });

  it('answers one session to concurrent requests with the same idempotency key', async () => {
    const order = await givenHeldOrder(server, tenant.id);
    const input = (await checkoutFor(order, { idempotencyKey: `race:${order.orderId}` })).input;
    const again = await Promise.all([1, 2, 3].map(() => server.app.deps.payments.createCheckout({ ...input, idempotencyKey: `race2:${order.orderId}` })));
    expect(new Set(again.map((s) => s.sessionId)).size).toBe(1);
    const rows = await db().select().from(testCheckoutSessions).where(eq(testCheckoutSessions.idempotencyKey, `race2:${order.orderId}`));
    expect(rows.map((r) => r.id)).toEqual([again[0]!.sessionId]);
    expect(await db().select().from(jobs).where(eq(jobs.dedupeKey, `test-expire:${again[0]!.sessionId}`))).toHaveLength(1);
  });

  it('refuses a checkout for a tenant that does not exist', async () => {
    const order = await givenHeldOrder(server, tenant.id);
    const { input } = await checkoutFor(order);
    await expect(
      server.app.deps.payments.createCheckout({ ...input, tenantId: '00000000-0000-4000-8000-000000000000', idempotencyKey: 'nobody' }),
    ).rejects.toThrow(/unknown tenant/);
  });
});

describe('test gateway: the hosted pay page', () => {
  it('shows the amount and a card form in a self-contained page (no scripts, strict CSP)', async () => {
    const order = await givenHeldOrder(server, tenant.id, { lines: [{ name: 'VIP', price: 123456, quantity: 1 }] });
    const { path, sessionId, input } = await checkoutFor(order);
    const page = await server.client(tenant.url).get(path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`form-action 'self' ${origin(tenant)}`);
    expect(csp).not.toMatch(/script-src/);
    expect(page.body).toContain('$1,234.56');
    expect(page.body).toContain(`action="/pay/${sessionId}"`);
    expect(page.body).toContain('name="cardNumber"');
    expect(page.body).toContain(`href="${input.cancelUrl}"`);
    expect(page.body).toContain(M.testPayNotice);
    expect(page.body).not.toMatch(/<script|<link|src=/i);
  });

  it('exists only on the host of the tenant that created it', async () => {
    const order = await givenHeldOrder(server, tenant.id);
    const { path } = await checkoutFor(order);
    const other = await givenTenant(server);
    const elsewhere = await server.client(other.url).get(path);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toContain(M.paymentSessionNotFound);
    expect((await server.client().get(path)).status).toBe(404);
    expect((await server.client(tenant.url).get('/pay/cs_test_doesnotexist')).status).toBe(404);
    // A cross-site form post is refused outright.
    const cross = await server.client(tenant.url).request('POST', path, form({ cardNumber: '4242424242424242' }), { ...FORM, origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    expect((await orderRow(order.orderId)).status).toBe('draft');
  });

  it('pays with 4242: a signed webhook job moves the order to processing, the fulfil job completes it and mails the PDF', async () => {
    const order = await givenHeldOrder(server, tenant.id, { optInEmail: true });
    const { path, input, sessionId } = await checkoutFor(order);
    const c = server.client(tenant.url);
    const paid = await c.request('POST', path, form({ cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' }), FORM);
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe(input.successUrl);

    // The pay page itself changes no order: the webhook does, and it is still queued.
    expect((await orderRow(order.orderId)).status).toBe('draft');
    const [webhookJob] = await db().select().from(jobs).where(eq(jobs.dedupeKey, `test-webhook:${sessionId}:completed`));
    expect(webhookJob?.name).toBe('payments.test-webhook');

    // One round runs the jobs due now: the webhook, not the fulfilment it enqueues.
    await server.app.deps.jobs.runDue();
    const processing = await orderRow(order.orderId);
    expect(processing.status).toBe('processing');
    expect(processing.paymentProvider).toBe('test');
    expect(processing.chargeId).toMatch(/^pi_test_/);
    expect(await eventsOf(order.orderId)).toHaveLength(1);

    await server.app.deps.jobs.drain();
    const done = await orderRow(order.orderId);
    expect(done.status).toBe('completed');
    const sold = await db().select().from(tickets).where(eq(tickets.orderId, order.orderId));
    expect(sold).toHaveLength(order.seats);
    expect(new Set(sold.map((t) => t.ticketUid)).size).toBe(order.seats);
    expect(sold.map((t) => t.ticketTypeName).sort()).toEqual(['General Admission', 'General Admission', 'VIP']);

    const mail = await lastMailTo(server, order.email);
    expect(mail?.subject).toContain('Concert');
    expect(mail?.text).toContain(M.printAtHome);
    expect(mail?.text).toContain('Doors open at 7 PM. Bring a photo ID.');
    // The tickets PDF, then the "Add to calendar" invite (issue 15).
    expect(mail?.attachments.map((a) => a.filename)).toEqual([expect.stringMatching(/^tickets_.*\.pdf$/), 'invite.ics']);
    const attachment = mail!.attachments[0]!;
    expect(attachment).toMatchObject({ filename: `tickets_${order.orderUid}.pdf`, contentType: 'application/pdf' });
    const stored = await server.app.deps.storage.get(attachment.key);
    const pdf = inspectPdf(stored!.bytes);
    expect(pdf.header.startsWith('%PDF-')).toBe(true);
    expect(pdf.pages).toHaveLength(order.seats);
    for (const t of sold) expect(pdf.pages.some((p) => p.text.includes(t.ticketUid))).toBe(true);

    const subs = await db().select().from(subscribers).where(and(eq(subscribers.tenantId, tenant.id), eq(subscribers.eventId, order.eventId)));
    expect(subs.map((s) => s.email)).toEqual([order.email]);

    // Back on the page after paying: it says so; paying again sends nothing more.
    expect((await c.get(path)).body).toContain(M.paymentComplete);
    const again = await c.request('POST', path, form({ cardNumber: '4242424242424242' }), FORM);
    expect(again.status).toBe(303);
    await server.app.deps.jobs.drain();
    expect(await eventsOf(order.orderId)).toHaveLength(1);
    expect(await db().select().from(tickets).where(eq(tickets.orderId, order.orderId))).toHaveLength(order.seats);
  });

  it('declines 4000 0000 0000 0002: the page says so, the order stays draft with its tickets held, and another try can pay', async () => {
    const order = await givenHeldOrder(server, tenant.id);
    const { path, input } = await checkoutFor(order);
    const before = await remainingOf(order.ticketTypeIds);
    const c = server.client(tenant.url);
    const declined = await c.request('POST', path, form({ cardNumber: '4000 0000 0000 0002', expiry: '12/40', cvc: '123' }), FORM);
    expect(declined.status).toBe(402);
    expect(declined.body).toContain(M.cardDeclined);
    expect(declined.body).toContain('name="cardNumber"');
    expect(declined.body).toContain(`href="${input.cancelUrl}"`);
    await server.app.deps.jobs.drain();
    const row = await orderRow(order.orderId);
    expect(row.status).toBe('draft');
    expect(row.holdExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await remainingOf(order.ticketTypeIds)).toEqual(before);
    expect(await eventsOf(order.orderId)).toHaveLength(0);

    const retry = await c.request('POST', path, form({ cardNumber: '4242424242424242' }), FORM);
    expect(retry.status).toBe(303);
    await server.app.deps.jobs.drain();
    expect((await orderRow(order.orderId)).status).toBe('completed');
  });

  it.each([
    [{ cardNumber: '' }, M.cardNumberRequired],
    [{ cardNumber: '5555 5555 5555 4444' }, M.testCardUnknown],
    [{ cardNumber: '4242424242424242', expiry: '13/40' }, M.cardExpiryInvalid],
    [{ cardNumber: '4242424242424242', expiry: '01/20' }, M.cardExpiryInvalid],
    [{ cardNumber: '4242424242424242', cvc: '12' }, M.cardCvcInvalid],
  ])('refuses %o with a clear message', async (fields, message) => {
    const order = await givenHeldOrder(server, tenant.id);
    const { path } = await checkoutFor(order);
    const res = await server.client(tenant.url).request('POST', path, form(fields), FORM);
    expect(res.status).toBe(400);
    expect(res.body).toContain(message.replace(/'/g, '&#39;'));
    await server.app.deps.jobs.drain();
    expect((await orderRow(order.orderId)).status).toBe('draft');
  });

  it('refuses payment once the session expired, and sends checkout.session.expired for the order', async () => {
    const order = await givenHeldOrder(server, tenant.id);
    const { path, sessionId } = await checkoutFor(order, { expiresAt: new Date(Date.now() - 1000) });
    const c = server.client(tenant.url);
    const page = await c.get(path);
    expect(page.status).toBe(410);
    expect(page.body).toContain(M.paymentSessionExpired);
    const pay = await c.request('POST', path, form({ cardNumber: '4242424242424242' }), FORM);
    expect(pay.status).toBe(410);
    await server.app.deps.jobs.drain();
    const [session] = await db().select().from(testCheckoutSessions).where(eq(testCheckoutSessions.id, sessionId));
    expect(session?.status).toBe('expired');
    expect((await eventsOf(order.orderId)).map((e) => e.type)).toEqual(['checkout.session.expired']);
    expect((await orderRow(order.orderId)).status).not.toBe('processing');
  });
});

describe('test gateway: webhooks', () => {
  async function paidButNotDelivered() {
    const order = await givenHeldOrder(server, tenant.id);
    const { path, sessionId } = await checkoutFor(order);
    const res = await server.client(tenant.url).request('POST', path, form({ cardNumber: '4242424242424242' }), FORM);
    expect(res.status).toBe(303);
    return { order, body: await pendingWebhookBody(sessionId, 'completed') };
  }

  it('does not mark an order paid by a signed event whose amount is not the order total (issue 14 §8)', async () => {
    const { order, body } = await paidButNotDelivered();
    const before = await orderRow(order.orderId);
    const event = JSON.parse(body) as { id: string; data: { object: { amount_total: number } } };
    event.id = `${event.id}_cheap`;
    event.data.object.amount_total = 1;
    const cheap = JSON.stringify(event);
    const res = await postWebhook(cheap);
    expect(res.status).toBe(200);
    const after = await orderRow(order.orderId);
    expect(after.status).toBe(before.status);
    expect(after.paidAt).toBeNull();
    const [action] = await db().select().from(orderActions).where(eq(orderActions.orderId, order.orderId));
    expect(action).toMatchObject({ action: 'payment_mismatch', tenantId: tenant.id, userId: null });
    expect(JSON.parse(action!.details!)).toMatchObject({ amountTotal: 1, orderTotal: order.totalAmount });
    // The real event for the full amount still pays it.
    expect((await postWebhook(body)).status).toBe(200);
    expect((await orderRow(order.orderId)).status).not.toBe(before.status);
  });

  it('does not mark an order paid by a signed event that does not say the amount or the currency (issue 21 §5)', async () => {
    const { order, body } = await paidButNotDelivered();
    const before = await orderRow(order.orderId);
    const variants: Array<[string, (o: Record<string, unknown>) => void, Record<string, unknown>]> = [
      ['no amount', (o) => delete o.amount_total, { amountTotal: null, currency: 'usd' }],
      ['null amount', (o) => (o.amount_total = null), { amountTotal: null }],
      ['no currency', (o) => delete o.currency, { amountTotal: order.totalAmount, currency: null }],
      ['another currency', (o) => (o.currency = 'jpy'), { amountTotal: order.totalAmount, currency: 'jpy' }],
    ];
    for (const [name, change] of variants) {
      const event = JSON.parse(body) as { id: string; data: { object: Record<string, unknown> } };
      event.id = `${event.id}_${name.replace(/ /g, '_')}`;
      change(event.data.object);
      const res = await postWebhook(JSON.stringify(event));
      expect(res.status, name).toBe(200);
      expect(res.body.outcome, name).toBe('mismatch');
      const after = await orderRow(order.orderId);
      expect(after.status, name).toBe(before.status);
      expect(after.paidAt, name).toBeNull();
      expect(after.chargeId, name).toBeNull();
    }
    const actions = await db().select().from(orderActions).where(eq(orderActions.orderId, order.orderId));
    expect(actions).toHaveLength(variants.length);
    expect(actions.every((a) => a.action === 'payment_mismatch')).toBe(true);
    for (const [, , details] of variants) expect(actions.some((a) => Object.entries(details).every(([k, v]) => JSON.parse(a.details!)[k] === v))).toBe(true);
    // The real event, with the amount and currency, still pays it.
    expect((await postWebhook(body)).body.outcome).toBe('paid');
  });

  it('refuses a missing, wrong, tampered or stale signature with 400 and changes nothing', async () => {
    const { order, body } = await paidButNotDelivered();
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, string | undefined]> = [
      ['none', undefined],
      ['garbage', 't=1,v1=zz'],
      ['wrong secret', signTestWebhook('another-secret-another-secret-another-secret', body)],
      // A minute past the 300 s tolerance either way, so a slow test run cannot bring one back inside.
      ['stale', signTestWebhook(server.config.secret, body, now - 360)],
      ['from the future', signTestWebhook(server.config.secret, body, now + 360)],
    ];
    for (const [, signature] of cases) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (signature) headers[TEST_SIGNATURE_HEADER] = signature;
      const res = await server.client().post('/api/payments/webhooks/test', Buffer.from(body), headers);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(M.webhookSignatureInvalid);
    }
    const tampered = body.replace('"paid"', '"unpaid"');
    const res = await postWebhook(tampered, signTestWebhook(server.config.secret, body));
    expect(res.status).toBe(400);
    expect((await orderRow(order.orderId)).status).toBe('draft');
    expect(await eventsOf(order.orderId)).toHaveLength(0);
  });

  it('the Stripe endpoint does not exist without a Stripe webhook secret', async () => {
    const res = await server.client().post('/api/payments/webhooks/stripe', Buffer.from('{}'), { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' });
    expect(res.status).toBe(404);
  });

  it('a signed but malformed payload is 400', async () => {
    const res = await postWebhook('{"not":"an event"}');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(M.webhookPayloadInvalid);
    expect((await postWebhook('not json')).status).toBe(400);
  });

  it('a duplicate or replayed event answers 200 and changes nothing', async () => {
    const { order, body } = await paidButNotDelivered();
    const first = await postWebhook(body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, outcome: 'paid' });
    await server.app.deps.jobs.drain();
    const completed = await orderRow(order.orderId);
    expect(completed.status).toBe('completed');

    const replay = await postWebhook(body);
    expect(replay.status).toBe(200);
    expect(replay.body.outcome).toBe('duplicate');
    await server.app.deps.jobs.drain();
    expect(await orderRow(order.orderId)).toEqual(completed);
    expect(await db().select().from(tickets).where(eq(tickets.orderId, order.orderId))).toHaveLength(order.seats);
    expect(await eventsOf(order.orderId)).toHaveLength(1);
  });

  it('twenty concurrent deliveries of one event pay the order once', async () => {
    const { order, body } = await paidButNotDelivered();
    const answers = await Promise.all(Array.from({ length: 20 }, () => postWebhook(body)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const outcomes = answers.map((a) => a.body.outcome).sort();
    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(19);
    expect(await eventsOf(order.orderId)).toHaveLength(1);
    const fulfilJobs = (await db().select().from(jobs).where(eq(jobs.name, 'orders.fulfil'))).filter(
      (j) => (j.payload as { orderId: string }).orderId === order.orderId,
    );
    expect(fulfilJobs).toHaveLength(1);
    await server.app.deps.jobs.drain();
    expect((await orderRow(order.orderId)).status).toBe('completed');
    expect(await db().select().from(tickets).where(eq(tickets.orderId, order.orderId))).toHaveLength(order.seats);
    expect(await db().select().from(outbox).where(eq(outbox.to, order.email))).toHaveLength(1);
  });

  it('a payment landing after the hold expired and the tickets sold is refunded through the test gateway', async () => {
    const order = await givenHeldOrder(server, tenant.id, { lines: [{ name: 'GA', price: 3000, quantity: 2, left: 0 }] });
    const { path, sessionId } = await checkoutFor(order);
    const paid = await server.client(tenant.url).request('POST', path, form({ cardNumber: '4242424242424242' }), FORM);
    expect(paid.status).toBe(303);
    // Before the webhook lands, the hold runs out and the tickets go to someone else.
    await db().update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, order.orderId));
    expect(await expireHold({ deps: server.app.deps, orderId: order.orderId })).toBe(true);
    await db().update(ticketTypes).set({ remaining: 0 }).where(eq(ticketTypes.id, order.ticketTypeIds[0]!));

    await server.app.deps.jobs.drain();
    const [session] = await db().select().from(testCheckoutSessions).where(eq(testCheckoutSessions.id, sessionId));
    const refunds = await db().select().from(testRefunds).where(eq(testRefunds.chargeId, session!.chargeId!));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: order.totalAmount, idempotencyKey: `refund:${order.orderId}:${session!.chargeId}` });
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'cancelled', refunded: true, refundedAmount: order.totalAmount, chargeId: session!.chargeId });
    expect(await db().select().from(tickets).where(eq(tickets.orderId, order.orderId))).toHaveLength(0);
    expect(await db().select().from(outbox).where(eq(outbox.to, order.email))).toHaveLength(0);
  });

  it('an event that is not about a checkout session is recorded and ignored', async () => {
    const body = JSON.stringify({ id: `evt_test_other_${Date.now()}`, object: 'event', type: 'charge.refunded', data: { object: { id: 'ch_1' } } });
    const res = await postWebhook(body);
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('ignored');
    expect((await postWebhook(body)).body.outcome).toBe('duplicate');
  });
});
