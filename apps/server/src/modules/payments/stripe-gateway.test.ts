import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import { and, eq, isNull } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobs, orderActions, orders, outbox, paymentEvents, refunds as refundRows, tickets, ticketTypes } from '../../db/schema/index.js';
import type { CheckoutInput } from '../../platform/payments/gateway.js';
import { clampStripeExpiry } from '../../platform/payments/stripe-driver.js';
import {
  checkoutPayload,
  givenEventOnSale,
  givenHeldOrder,
  givenTenant,
  givenTenantWithSettings,
  givenUser,
  startServer,
  type GivenHeldOrder,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { startStripeStandIn, type StripeStandIn } from '../../../test/stripe-stand-in.js';
import { expireHold } from '../orders/holds.js';

const WEBHOOK_SECRET = 'whsec_test_secret_for_marquee_tests';
let stripe: StripeStandIn;
let server: TestServer;
let tenant: GivenTenant;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  server = await startServer({
    paymentDriver: 'stripe',
    stripeSecretKey: 'sk_test_marquee',
    stripeWebhookSecret: WEBHOOK_SECRET,
    stripeApiBase: stripe.url,
  });
  tenant = await givenTenant(server);
});
afterAll(async () => {
  await server?.close();
  await stripe?.close();
});
beforeEach(() => {
  stripe.requests.length = 0;
});

const db = () => server.app.deps.db;
const orderRow = async (orderId: string) => (await db().select().from(orders).where(eq(orders.id, orderId)))[0]!;
const remainingOf = async (id: string) => (await db().select({ r: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.id, id)))[0]!.r;

function inputFor(order: GivenHeldOrder, over: Partial<CheckoutInput> = {}): CheckoutInput {
  return {
    orderId: order.orderId,
    orderUid: order.orderUid,
    tenantId: tenant.id,
    amount: order.totalAmount,
    currency: 'usd',
    email: order.email,
    description: `Concert: ${order.seats} tickets`,
    successUrl: `http://${tenant.url}.localhost/${order.urlName}/success?orderID=${order.orderUid}`,
    cancelUrl: `http://${tenant.url}.localhost/${order.urlName}/cart`,
    expiresAt: new Date(Date.now() + 15 * 60_000),
    idempotencyKey: `checkout:${order.orderId}`,
    ...over,
  };
}

/** A Checkout Session event as Stripe sends it, for a session of the stand-in. */
function sessionEvent(
  type: string,
  order: Pick<GivenHeldOrder, 'orderId' | 'orderUid' | 'totalAmount'>,
  session: { id: string; paymentIntent?: string | null; paymentStatus?: string },
  eventId = `evt_${Math.random().toString(36).slice(2)}`,
  tenantId = tenant.id,
) {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: Stripe.API_VERSION,
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        amount_total: order.totalAmount,
        currency: 'usd',
        client_reference_id: order.orderId,
        metadata: { orderId: order.orderId, tenantId, orderUid: order.orderUid },
        payment_intent: session.paymentIntent === undefined ? `pi_${order.orderId.slice(0, 8)}` : session.paymentIntent,
        payment_status: session.paymentStatus ?? 'paid',
        payment_method_types: ['card'],
        status: type === 'checkout.session.expired' ? 'expired' : 'complete',
      },
    },
  });
}

const send = (payload: string, header?: string) =>
  server
    .client()
    .post('/api/payments/webhooks/stripe', Buffer.from(payload), {
      'content-type': 'application/json; charset=utf-8',
      ...(header === undefined ? { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) } : header ? { 'stripe-signature': header } : {}),
    });

async function orderWithSession(opts: Parameters<typeof givenHeldOrder>[2] = {}) {
  const order = await givenHeldOrder(server, tenant.id, opts);
  const session = await server.app.deps.payments.createCheckout(inputFor(order));
  await db().update(orders).set({ paymentProvider: 'stripe', paymentSessionId: session.sessionId }).where(eq(orders.id, order.orderId));
  return { order, session };
}

describe('stripe driver: Checkout Sessions', () => {
  it('sends the amount, expiry, metadata and idempotency key, and answers the hosted URL', async () => {
    const order = await givenHeldOrder(server, tenant.id);
    const input = inputFor(order, { expiresAt: new Date(Date.now() + 2 * 3600_000) });
    const session = await server.app.deps.payments.createCheckout(input);
    expect(session.sessionId).toMatch(/^cs_test_/);
    expect(session.url).toBe(`https://checkout.stripe.com/c/pay/${session.sessionId}`);

    const [req] = stripe.requests;
    expect(stripe.requests).toHaveLength(1);
    expect(req).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', idempotencyKey: `checkout:${order.orderId}` });
    expect(req!.headers.authorization).toBe('Bearer sk_test_marquee');
    expect(req!.body).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': String(order.totalAmount),
      'line_items[0][price_data][product_data][name]': input.description,
      customer_email: order.email,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      client_reference_id: order.orderId,
      expires_at: String(Math.floor(input.expiresAt.getTime() / 1000)),
      'metadata[orderId]': order.orderId,
      'metadata[tenantId]': tenant.id,
      'metadata[orderUid]': order.orderUid,
      'payment_intent_data[metadata][orderId]': order.orderId,
    });

    // The same idempotency key is the same session, as Stripe answers it.
    const again = await server.app.deps.payments.createCheckout(input);
    expect(again).toEqual(session);
    expect(stripe.requests[1]).toMatchObject({ idempotencyKey: `checkout:${order.orderId}`, replayed: true });
    expect(stripe.sessions.size).toBe(1);
  });

  it("clamps expires_at into Stripe's 30 minutes to 24 hours", async () => {
    const order = await givenHeldOrder(server, tenant.id);
    const now = Math.floor(Date.now() / 1000);
    await server.app.deps.payments.createCheckout(inputFor(order, { idempotencyKey: 'short', expiresAt: new Date(Date.now() + 15 * 60_000) }));
    await server.app.deps.payments.createCheckout(inputFor(order, { idempotencyKey: 'long', expiresAt: new Date(Date.now() + 3 * 24 * 3600_000) }));
    const [short, long] = stripe.requests.map((r) => Number(r.body.expires_at));
    expect(short! - now).toBeGreaterThanOrEqual(30 * 60);
    expect(short! - now).toBeLessThanOrEqual(32 * 60);
    expect(long! - now).toBeLessThanOrEqual(24 * 3600);
    expect(long! - now).toBeGreaterThanOrEqual(24 * 3600 - 120);

    const t = Date.UTC(2030, 0, 1);
    expect(clampStripeExpiry(new Date(t + 60 * 60_000), t)).toBe((t + 60 * 60_000) / 1000);
    expect(clampStripeExpiry(new Date(t - 60_000), t)).toBe((t + 31 * 60_000) / 1000);
  });

  it('retries a failed call with the same idempotency key and creates one session', async () => {
    const order = await givenHeldOrder(server, tenant.id);
    stripe.failNext('/v1/checkout/sessions', 500, { type: 'api_error', message: 'Something went wrong' });
    const session = await server.app.deps.payments.createCheckout(inputFor(order));
    expect(stripe.requests.map((r) => r.idempotencyKey)).toEqual([`checkout:${order.orderId}`, `checkout:${order.orderId}`]);
    expect(stripe.sessions.has(session.sessionId)).toBe(true);
  });

  it('surfaces a refused call as an error', async () => {
    const order = await givenHeldOrder(server, tenant.id);
    stripe.failNext('/v1/checkout/sessions', 400, { type: 'invalid_request_error', message: 'expires_at must be less than 24 hours' });
    await expect(server.app.deps.payments.createCheckout(inputFor(order, { idempotencyKey: 'refused' }))).rejects.toThrow(/24 hours/);
  });
});

describe('stripe driver: webhooks', () => {
  it('a signed checkout.session.completed pays the order once; fulfilment completes it', async () => {
    const { order, session } = await orderWithSession();
    const payload = sessionEvent('checkout.session.completed', order, { id: session.sessionId });
    const res = await send(payload);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'paid' });
    const paid = await orderRow(order.orderId);
    expect(paid).toMatchObject({ status: 'processing', paymentProvider: 'stripe', paymentSessionId: session.sessionId, chargeId: `pi_${order.orderId.slice(0, 8)}` });

    await server.app.deps.jobs.drain();
    expect((await orderRow(order.orderId)).status).toBe('completed');
    expect(await db().select().from(tickets).where(eq(tickets.orderId, order.orderId))).toHaveLength(order.seats);
    expect(await db().select().from(outbox).where(eq(outbox.to, order.email))).toHaveLength(1);

    // A replay of the same event is a no-op.
    const replay = await send(payload);
    expect(replay.status).toBe(200);
    expect(replay.body.outcome).toBe('duplicate');
    await server.app.deps.jobs.drain();
    expect(await db().select().from(tickets).where(eq(tickets.orderId, order.orderId))).toHaveLength(order.seats);
    expect(await db().select().from(outbox).where(eq(outbox.to, order.email))).toHaveLength(1);
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.orderId, order.orderId))).toHaveLength(1);
  });

  it('a signed checkout.session.completed without amount_total pays nothing (issue 21 §5)', async () => {
    const { order, session } = await orderWithSession();
    const event = JSON.parse(sessionEvent('checkout.session.completed', order, { id: session.sessionId })) as { data: { object: Record<string, unknown> } };
    delete event.data.object.amount_total;
    const res = await send(JSON.stringify(event));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'mismatch' });
    await server.app.deps.jobs.drain();
    const after = await orderRow(order.orderId);
    expect(after).toMatchObject({ status: 'draft', paidAt: null, chargeId: null });
    expect(await db().select().from(tickets).where(eq(tickets.orderId, order.orderId))).toHaveLength(0);
    const [action] = await db().select().from(orderActions).where(eq(orderActions.orderId, order.orderId));
    expect(action).toMatchObject({ action: 'payment_mismatch', userId: null });
    expect(JSON.parse(action!.details!)).toMatchObject({ provider: 'stripe', amountTotal: null, orderTotal: order.totalAmount });
    // The same payment, reported with its amount, pays the order.
    expect((await send(sessionEvent('checkout.session.completed', order, { id: session.sessionId }))).body.outcome).toBe('paid');
  });

  it('refuses a bad, missing or foreign signature and a tampered body with 400', async () => {
    const { order, session } = await orderWithSession();
    const payload = sessionEvent('checkout.session.completed', order, { id: session.sessionId });
    const wrong = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 600 });
    const signedOther = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    for (const [body, header] of [
      [payload, wrong],
      [payload, stale],
      [payload, ''],
      [payload, 't=1,v1=deadbeef'],
      [payload.replace('"paid"', '"unpaid"'), signedOther],
    ] as const) {
      const res = await send(body, header);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(M.webhookSignatureInvalid);
    }
    expect((await orderRow(order.orderId)).status).toBe('draft');
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.orderId, order.orderId))).toHaveLength(0);
  });

  it('a completed session still awaiting a delayed payment waits for async_payment_succeeded', async () => {
    const { order, session } = await orderWithSession();
    const pending = await send(sessionEvent('checkout.session.completed', order, { id: session.sessionId, paymentStatus: 'unpaid' }));
    expect(pending.body.outcome).toBe('ignored');
    expect((await orderRow(order.orderId)).status).toBe('draft');
    const later = await send(sessionEvent('checkout.session.async_payment_succeeded', order, { id: session.sessionId }));
    expect(later.body.outcome).toBe('paid');
    expect((await orderRow(order.orderId)).status).toBe('processing');
  });

  it('checkout.session.expired gives the held tickets back', async () => {
    const { order, session } = await orderWithSession({ lines: [{ name: 'GA', price: 2000, quantity: 2, left: 3 }] });
    const res = await send(sessionEvent('checkout.session.expired', order, { id: session.sessionId, paymentIntent: null, paymentStatus: 'unpaid' }));
    expect(res.body.outcome).toBe('expired');
    expect((await orderRow(order.orderId)).status).toBe('expired');
    expect(await remainingOf(order.ticketTypeIds[0]!)).toBe(5);
  });

  it('a payment after the hold expired re-holds the tickets when they are still there', async () => {
    const { order, session } = await orderWithSession({ lines: [{ name: 'GA', price: 2000, quantity: 2, left: 3 }], holdMinutes: -1 });
    expect(await expireHold({ deps: server.app.deps, orderId: order.orderId })).toBe(true);
    expect(await remainingOf(order.ticketTypeIds[0]!)).toBe(5);

    const res = await send(sessionEvent('checkout.session.completed', order, { id: session.sessionId }));
    expect(res.body.outcome).toBe('paid');
    expect((await orderRow(order.orderId)).status).toBe('processing');
    expect(await remainingOf(order.ticketTypeIds[0]!)).toBe(3);
    await server.app.deps.jobs.drain();
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(0);
    expect((await orderRow(order.orderId)).status).toBe('completed');
  });

  it('a payment after the hold expired and the tickets sold is refunded through Stripe, once', async () => {
    const { order, session } = await orderWithSession({ lines: [{ name: 'GA', price: 2000, quantity: 2, left: 0 }], holdMinutes: -1 });
    await expireHold({ deps: server.app.deps, orderId: order.orderId });
    // Someone else bought them meanwhile.
    await db().update(ticketTypes).set({ remaining: 0 }).where(eq(ticketTypes.id, order.ticketTypeIds[0]!));

    const paymentIntent = `pi_late_${order.orderId.slice(0, 8)}`;
    const res = await send(sessionEvent('checkout.session.completed', order, { id: session.sessionId, paymentIntent }));
    expect(res.body.outcome).toBe('refund');
    const cancelled = await orderRow(order.orderId);
    expect(cancelled).toMatchObject({ status: 'cancelled', chargeId: paymentIntent, paymentProvider: 'stripe', refunded: false });

    await server.app.deps.jobs.drain();
    const refunds = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      idempotencyKey: `refund:${order.orderId}:${paymentIntent}`,
      body: { payment_intent: paymentIntent, amount: String(order.totalAmount) },
    });
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'cancelled', refunded: true, refundedAmount: order.totalAmount });
    expect(await remainingOf(order.ticketTypeIds[0]!)).toBe(0);
    expect(await db().select().from(refundRows).where(eq(refundRows.orderId, order.orderId))).toEqual([
      expect.objectContaining({ kind: 'hold_expired', status: 'succeeded', amount: order.totalAmount, provider: 'stripe', chargeId: paymentIntent }),
    ]);
    expect(await db().select().from(tickets).where(eq(tickets.orderId, order.orderId))).toHaveLength(0);

    // The same event again refunds nothing more.
    stripe.requests.length = 0;
    const payload = sessionEvent('checkout.session.completed', order, { id: session.sessionId, paymentIntent }, 'evt_late_replay');
    await send(payload);
    expect((await send(payload)).body.outcome).toBe('duplicate');
    await server.app.deps.jobs.drain();
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(0);
  });

  it('a refund the gateway refuses is retried by the job with the same idempotency key', async () => {
    const { order, session } = await orderWithSession({ lines: [{ name: 'GA', price: 1500, quantity: 1, left: 0 }], holdMinutes: -1 });
    await expireHold({ deps: server.app.deps, orderId: order.orderId });
    await db().update(ticketTypes).set({ remaining: 0 }).where(eq(ticketTypes.id, order.ticketTypeIds[0]!));
    stripe.failNext('/v1/refunds', 402, { type: 'invalid_request_error', message: 'Charge is still pending', code: 'charge_pending' });
    await send(sessionEvent('checkout.session.completed', order, { id: session.sessionId }));
    await server.app.deps.jobs.runDue();
    expect((await orderRow(order.orderId)).refunded).toBe(false);
    // The job backs off; run it again as the worker would later.
    await db()
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(and(eq(jobs.name, 'payments.refund'), isNull(jobs.doneAt)));
    await server.app.deps.jobs.drain();
    const refunds = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(refunds).toHaveLength(2);
    expect(new Set(refunds.map((r) => r.idempotencyKey)).size).toBe(1);
    expect((await orderRow(order.orderId)).refunded).toBe(true);
  });

  it('a second checkout paid for an order already paid is given back', async () => {
    const { order, session } = await orderWithSession();
    await send(sessionEvent('checkout.session.completed', order, { id: session.sessionId, paymentIntent: 'pi_first' }));
    const second = await send(sessionEvent('checkout.session.completed', order, { id: 'cs_test_second', paymentIntent: 'pi_second' }));
    expect(second.body.outcome).toBe('already');
    await server.app.deps.jobs.drain();
    const refunds = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(refunds.map((r) => r.body.payment_intent)).toEqual(['pi_second']);
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'completed', chargeId: 'pi_first', refunded: false });
    // The second charge's refund is a row too, but never counts against the order's own payment.
    expect(await db().select().from(refundRows).where(eq(refundRows.orderId, order.orderId))).toEqual([
      expect.objectContaining({ kind: 'duplicate_payment', status: 'succeeded', chargeId: 'pi_second' }),
    ]);
  });

  it('placing the order again expires the first Checkout Session; a payment that still reaches the replaced draft is refunded', async () => {
    const shop = await givenTenantWithSettings(server);
    const e = await givenEventOnSale(server, shop.id, { ticketTypes: [{ name: 'GA', price: 3000, quantity: 10 }] });
    const c = server.client(shop.url);
    const path = `/api/p/tenants/${shop.id}/events/${e.id}/orders`;
    const lines = [{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 2 }];
    const first = await c.post(path, checkoutPayload(lines, { email: 'again@example.test' }));
    expect(first.status).toBe(201);
    const firstOrder = (await db().select().from(orders).where(eq(orders.orderUid, first.body.orderUID)))[0]!;
    const firstSession = String(firstOrder.paymentSessionId);
    expect(first.body.message).toBe(`https://checkout.stripe.com/c/pay/${firstSession}`);

    stripe.requests.length = 0;
    const second = await c.post(path, { ...checkoutPayload(lines, { email: 'again@example.test' }), draftOrderUID: first.body.orderUID });
    expect(second.status).toBe(201);
    expect(stripe.requests.map((r) => r.path)).toEqual([`/v1/checkout/sessions/${firstSession}/expire`, '/v1/checkout/sessions']);
    expect(stripe.sessions.get(firstSession)).toMatchObject({ status: 'expired' });
    expect((await orderRow(firstOrder.id)).status).toBe('replaced');
    expect(await remainingOf(e.ticketTypeIds[0]!)).toBe(8);

    // Stripe had already taken the first payment: it is given back, and the new order is untouched.
    const held = { orderId: firstOrder.id, orderUid: firstOrder.orderUid, totalAmount: firstOrder.totalAmount };
    const late = await send(sessionEvent('checkout.session.completed', held, { id: firstSession, paymentIntent: 'pi_replaced' }, undefined, shop.id));
    expect(late.body.outcome).toBe('refund');
    await server.app.deps.jobs.drain();
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.body)).toMatchObject([{ payment_intent: 'pi_replaced', amount: String(firstOrder.totalAmount) }]);
    expect(await orderRow(firstOrder.id)).toMatchObject({ status: 'cancelled', refunded: true, refundedAmount: firstOrder.totalAmount });
    expect(await db().select().from(tickets).where(eq(tickets.orderId, firstOrder.id))).toHaveLength(0);
    expect(await remainingOf(e.ticketTypeIds[0]!)).toBe(8);
    expect((await db().select().from(orders).where(eq(orders.orderUid, second.body.orderUID)))[0]!.status).toBe('draft');
  });

  it("an organiser's refund that Stripe leaves pending is settled by its refund webhook, once", async () => {
    const { order, session } = await orderWithSession();
    await send(sessionEvent('checkout.session.completed', order, { id: session.sessionId, paymentIntent: `pi_org_${order.orderId.slice(0, 8)}` }));
    await server.app.deps.jobs.drain();
    const u = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
    const c = server.client(tenant.url);
    await c.login(u.email, u.password);
    stripe.refundStatus = 'pending';
    try {
      const res = await c.post(`/api/tenants/${tenant.id}/events/${order.eventId}/orders/${order.orderUid}/refunds`, { mode: 'amount', amount: 1000, reason: 'Goodwill' });
      expect(res.status).toBe(201);
      expect(res.body.refund.details.status).toBe('pending');
      const [call] = stripe.requests.filter((r) => r.path === '/v1/refunds');
      expect(call).toMatchObject({ idempotencyKey: `refund:${res.body.refund.id}`, body: { amount: '1000', 'metadata[refundId]': res.body.refund.id } });
      const [row] = await db().select().from(refundRows).where(eq(refundRows.id, res.body.refund.id));
      expect(row!.providerRefundId).toMatch(/^re_/);
      expect(await orderRow(order.orderId)).toMatchObject({ refunded: false, refundedAmount: 0 });

      const payload = JSON.stringify({
        id: `evt_refund_${row!.id.slice(0, 8)}`,
        object: 'event',
        type: 'refund.updated',
        data: { object: { id: row!.providerRefundId, object: 'refund', status: 'succeeded', metadata: { refundId: row!.id } } },
      });
      expect((await send(payload)).body.outcome).toBe('refund_updated');
      expect((await send(payload)).body.outcome).toBe('duplicate');
      expect((await db().select().from(refundRows).where(eq(refundRows.id, row!.id)))[0]!.status).toBe('succeeded');
      expect(await orderRow(order.orderId)).toMatchObject({ refunded: true, refundedAmount: 1000 });

      // charge.refund.updated found by Stripe's refund id alone, and a refund that is not ours is ignored.
      const failed = JSON.stringify({
        id: `evt_refund_failed_${row!.id.slice(0, 8)}`,
        object: 'event',
        type: 'charge.refund.updated',
        data: { object: { id: row!.providerRefundId, object: 'refund', status: 'failed', failure_reason: 'expired_or_canceled_card' } },
      });
      expect((await send(failed)).body.outcome).toBe('refund_updated');
      expect((await db().select().from(refundRows).where(eq(refundRows.id, row!.id)))[0]).toMatchObject({ status: 'failed', failureReason: 'expired_or_canceled_card' });
      expect(await orderRow(order.orderId)).toMatchObject({ refunded: false, refundedAmount: 0 });
      const stranger = JSON.stringify({ id: 'evt_refund_stranger', object: 'event', type: 'refund.updated', data: { object: { id: 're_not_ours', status: 'succeeded' } } });
      expect((await send(stranger)).body.outcome).toBe('ignored');
      const broken = JSON.stringify({ id: 'evt_refund_broken', object: 'event', type: 'refund.updated', data: { object: { status: 'succeeded' } } });
      expect((await send(broken)).status).toBe(400);
    } finally {
      stripe.refundStatus = 'succeeded';
    }
  });

  it('expiring a session that is no longer open is not an error', async () => {
    const { session } = await orderWithSession();
    await server.app.deps.payments.expireCheckout({ tenantId: tenant.id, orderId: randomUUID(), sessionId: session.sessionId });
    expect(stripe.sessions.get(session.sessionId)).toMatchObject({ status: 'expired' });
    await expect(server.app.deps.payments.expireCheckout({ tenantId: tenant.id, orderId: randomUUID(), sessionId: session.sessionId })).resolves.toBeUndefined();
    expect(stripe.requests.filter((r) => r.path.endsWith('/expire')).map((r) => r.idempotencyKey)).toEqual([`expire:${session.sessionId}`, `expire:${session.sessionId}`]);
  });

  it('the test gateway endpoints do not exist while Stripe is the driver', async () => {
    expect((await server.client().post('/api/payments/webhooks/test', Buffer.from('{}'), { 'content-type': 'application/json' })).status).toBe(404);
  });
});
