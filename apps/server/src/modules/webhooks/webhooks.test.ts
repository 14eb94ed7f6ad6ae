import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { M_WEBHOOKS, WEBHOOK_EVENT_TYPES } from '@marquee/core';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { domainEvents, events, orders, outbox, paymentSettings, tickets, webhookEndpoints } from '../../db/schema/index.js';
import { isPublicAddress, OutboundRefused, postOutbound } from '../../platform/outbound-http.js';
import { givenEventOnSale, givenHeldOrder, givenTenantAdmin, givenTenantWithAdmin, givenTenantWithSettings, givenUser, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { PAYOUT_PATHS } from '@marquee/core';
import { syncPayoutLines } from '../payouts/sync-payout-lines.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_S } from './deliver.js';
import { assertEndpointUrl } from './endpoints.js';

// Outgoing webhooks (issue 25) through real HTTP: a local receiver gets the events, signed as the
// Standard Webhooks specification says, checked once by hand from docs/webhooks.md alone and once
// with the `standardwebhooks` library.

type Received = { headers: http.IncomingHttpHeaders; body: string };
let server: TestServer;
let acme: GivenTenant;
let admin: Client;
let other: { tenant: GivenTenant; admin: Client };
let receiver: http.Server;
let receiverUrl: string;
let received: Received[] = [];
let answer = 200;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'thanks' : 'receiver is down');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  server = await startServer({ webhooks: { allowPrivate: true, timeoutMs: 2000 } });
  ({ tenant: acme, admin } = await givenTenantWithAdmin(server));
  other = await givenTenantWithAdmin(server);
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(() => {
  received = [];
  answer = 200;
});

async function platformClient() {
  const operator = await givenUser(server, { platformRoles: ['platform_manager'] });
  const platform = server.client();
  await platform.login(operator.email, operator.password);
  return platform;
}

const base = (tenantId: string) => `/api/tenants/${tenantId}/webhooks/endpoints`;

async function addEndpoint(eventTypes: string[] = ['order.paid'], client = admin, tenantId = acme.id) {
  const res = await client.post(base(tenantId), { url: receiverUrl, description: 'CRM', eventTypes });
  expect(res.status).toBe(201);
  return { id: res.body.endpoint.id as string, secret: res.body.secret as string };
}

/** An order of acme paid through the test gateway's pay page, as a buyer pays it. */
async function payAnOrder() {
  const deps = server.app.deps;
  const order = await givenHeldOrder(server, acme.id, { lines: [{ name: 'Stalls', price: 6_000, quantity: 1 }] });
  const session = await deps.payments.createCheckout({
    orderId: order.orderId,
    orderUid: order.orderUid,
    tenantId: acme.id,
    amount: order.totalAmount,
    currency: 'usd',
    email: order.email,
    description: 'Stalls',
    successUrl: `http://${acme.url}.${server.config.baseDomain}:${server.port}/${order.urlName}/success`,
    cancelUrl: `http://${acme.url}.${server.config.baseDomain}:${server.port}/${order.urlName}/cart`,
    expiresAt: new Date(Date.now() + 15 * 60_000),
    idempotencyKey: `checkout:${order.orderId}`,
  });
  await deps.db.update(orders).set({ paymentProvider: 'test', paymentSessionId: session.sessionId }).where(eq(orders.id, order.orderId));
  const paid = await server
    .client(acme.url)
    .request('POST', new URL(session.url).pathname, Buffer.from(new URLSearchParams({ cardNumber: '4242424242424242' }).toString()), { 'content-type': 'application/x-www-form-urlencoded' });
  expect(paid.status).toBe(303);
  await deps.jobs.drain();
  return order;
}

/** docs/webhooks.md "Verifying a webhook", step by step, with nothing but node:crypto. */
function verifyByHand(secret: string, r: Received, toleranceS = 300): boolean {
  const id = String(r.headers['webhook-id']);
  const timestamp = String(r.headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${r.body}`).digest();
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, signature] = part.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

const pendingRetries = () => server.app.deps.db.execute(sql`update jobs set run_at = now() where name = 'webhooks.retry' and done_at is null and failed_at is null`);

describe('delivery', () => {
  it('a paid order reaches the receiver as order.paid, signed: verified by hand from the docs and with the library', async () => {
    const endpoint = await addEndpoint(['order.paid']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const order = await payAnOrder();
    expect(received).toHaveLength(1);
    const [hook] = received;
    const body = JSON.parse(hook!.body);
    expect(body).toMatchObject({ type: 'order.paid', version: 1, tenantId: acme.id, data: { order: { uid: order.orderUid, totalAmount: order.totalAmount, currency: 'usd', channel: 'ONLINE' } } });
    expect(hook!.headers['webhook-id']).toBe(body.id);
    expect(verifyByHand(endpoint.secret, hook!)).toBe(true);
    expect(new Webhook(endpoint.secret).verify(hook!.body, hook!.headers as Record<string, string>)).toMatchObject({ type: 'order.paid' });
    // A wrong secret or a changed body fails both ways.
    const wrong = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    expect(verifyByHand(wrong, hook!)).toBe(false);
    expect(verifyByHand(endpoint.secret, { ...hook!, body: hook!.body.replace('6000', '6001') })).toBe(false);
    expect(() => new Webhook(wrong).verify(hook!.body, hook!.headers as Record<string, string>)).toThrow();

    // The log shows it, and the secret is never answered again.
    const log = await admin.get(`${base(acme.id)}/${endpoint.id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.result[0].details).toMatchObject({ eventType: 'order.paid', status: 'succeeded', responseStatus: 200, responseBody: 'thanks', attempts: 1 });
    const read = await admin.get(`${base(acme.id)}/${endpoint.id}`);
    expect(JSON.stringify(read.body)).not.toContain(endpoint.secret.slice(6, 30));
    expect(read.body.details.secretHint).toBe(`…${endpoint.secret.slice(-4)}`);
    await admin.delete(`${base(acme.id)}/${endpoint.id}`);
  });

  it('only subscribed types are sent; a platform endpoint gets every tenant’s; a published event is event.published', async () => {
    const mine = await addEndpoint(['event.published']);
    const platform = await platformClient();
    const hook = await platform.post('/api/platform/webhooks/endpoints', { url: receiverUrl, eventTypes: ['event.published', 'order.paid'] });
    expect(hook.status).toBe(201);
    const event = await givenEventOnSale(server, acme.id, { status: 'draft' });
    expect((await admin.post(`/api/tenants/${acme.id}/events/${event.id}/publish`)).status).toBe(200);
    await server.app.deps.jobs.drain();
    const types = received.map((r) => JSON.parse(r.body).type);
    expect(types).toEqual(['event.published', 'event.published']);
    expect(JSON.parse(received[0]!.body).data.event).toMatchObject({ id: event.id });
    // Another tenant's endpoint and the platform's list stay apart.
    expect((await other.admin.get(base(other.tenant.id))).body.count).toBe(0);
    expect((await platform.get('/api/platform/webhooks/endpoints')).body.result.map((e: any) => e.id)).toEqual([hook.body.endpoint.id]);
    expect((await platform.delete(`/api/platform/webhooks/endpoints/${hook.body.endpoint.id}`)).status).toBe(200);
    await admin.delete(`${base(acme.id)}/${mine.id}`);
  });

  it('rotating the secret signs with both for a day, and the new secret alone verifies', async () => {
    const endpoint = await addEndpoint(['order.paid']);
    const rotated = await admin.post(`${base(acme.id)}/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.message).toBe(M_WEBHOOKS.rotated);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(rotated.body.endpoint.details.previousSecretUntil).not.toBeNull();
    await payAnOrder();
    const [hook] = received;
    expect(String(hook!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyByHand(rotated.body.secret, hook!)).toBe(true);
    expect(verifyByHand(endpoint.secret, hook!)).toBe(true);
    new Webhook(rotated.body.secret).verify(hook!.body, hook!.headers as Record<string, string>);
    new Webhook(endpoint.secret).verify(hook!.body, hook!.headers as Record<string, string>);
    await admin.delete(`${base(acme.id)}/${endpoint.id}`);
  });

  it('a failing receiver is retried with backoff, then the endpoint is turned off and the tenant told; redeliver by hand', async () => {
    expect(RETRY_DELAYS_S.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3600);
    const endpoint = await addEndpoint(['order.paid']);
    answer = 500;
    await payAnOrder();
    const log = async () => (await admin.get(`${base(acme.id)}/${endpoint.id}/deliveries`)).body.result[0].details;
    let d = await log();
    expect(d).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500, responseBody: 'receiver is down' });
    expect(new Date(d.nextAttemptAt).getTime() - new Date(d.lastAttemptAt).getTime()).toBe(RETRY_DELAYS_S[0] * 1000);
    // Each retry waits its turn; run them now, one by one.
    for (let i = 2; i <= MAX_ATTEMPTS; i++) {
      await pendingRetries();
      await server.app.deps.jobs.drain();
      d = await log();
      expect(d.attempts).toBe(i);
    }
    expect(d.status).toBe('failed');
    expect(received).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [row] = await server.app.deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: false, disabledReason: 'failing' });
    await server.app.deps.jobs.drain();
    const mails = await server.app.deps.db.select().from(outbox).where(eq(outbox.subject, M_WEBHOOKS.disabledMailSubject));
    expect(mails.map((m) => m.to)).toContain(`hello@${acme.url}.test`);

    // The receiver is back: a redelivery by hand goes through, with the same webhook-id.
    answer = 200;
    const again = await admin.post(`${base(acme.id)}/${endpoint.id}/deliveries/${(await admin.get(`${base(acme.id)}/${endpoint.id}/deliveries`)).body.result[0].id}/redeliver`);
    expect(again.status).toBe(200);
    expect(again.body.message).toBe(M_WEBHOOKS.redeliverQueued);
    await server.app.deps.jobs.drain();
    expect((await log()).status).toBe('succeeded');
    expect(received.at(-1)!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
    // Turned back on by hand.
    const on = await admin.patch(`${base(acme.id)}/${endpoint.id}`, { enabled: true });
    expect(on.body.endpoint.details).toMatchObject({ enabled: true, disabledReason: null });
    await admin.delete(`${base(acme.id)}/${endpoint.id}`);
  });

  it('a refund of a paid order is order.refunded', async () => {
    const endpoint = await addEndpoint(['order.refunded']);
    const order = await payAnOrder();
    expect(received).toHaveLength(0);
    const refunded = await admin.post(`/api/tenants/${acme.id}/events/${order.eventId}/orders/${order.orderUid}/refunds`, { mode: 'amount', amount: 1_500, reason: 'Seat moved' });
    expect(refunded.status).toBe(201);
    await server.app.deps.jobs.drain();
    expect(received.map((r) => JSON.parse(r.body))).toMatchObject([{ type: 'order.refunded', data: { order: { uid: order.orderUid, refundedAmount: 1_500 }, refund: { amount: 1_500 } } }]);
    await admin.delete(`${base(acme.id)}/${endpoint.id}`);
  });
});

describe('more events', () => {
  it('a check-in is ticket.checked_in and a void is order.voided, each committed with its change', async () => {
    const endpoint = await addEndpoint(['ticket.checked_in', 'order.voided']);
    const order = await payAnOrder();
    const [ticket] = await server.app.deps.db.select().from(tickets).where(eq(tickets.orderId, order.orderId));
    const scan = await admin.post(`/api/tenants/${acme.id}/events/${order.eventId}/checkin/scans`, { clientScanId: crypto.randomUUID(), deviceId: 'door-1', ticketId: ticket!.ticketUid });
    expect(scan.body.result).toBe('admitted');
    // The same ticket again is refused at the door and sends nothing more.
    const again = await admin.post(`/api/tenants/${acme.id}/events/${order.eventId}/checkin/scans`, { clientScanId: crypto.randomUUID(), deviceId: 'door-1', ticketId: ticket!.ticketUid });
    expect(again.body.result).toBe('already_used');
    const voided = await admin.post(`/api/tenants/${acme.id}/events/${order.eventId}/tickets/void`, { ticketId: ticket!.ticketUid, orderUID: order.orderUid, void: true, reason: 'Duplicate' });
    expect(voided.status).toBe(200);
    await server.app.deps.jobs.drain();
    expect(received.map((r) => JSON.parse(r.body))).toMatchObject([
      { type: 'ticket.checked_in', data: { ticket: { id: ticket!.id, uid: ticket!.ticketUid, orderId: order.orderId }, scan: { id: scan.body.scanId, deviceId: 'door-1' } } },
      { type: 'order.voided', data: { order: { uid: order.orderUid }, ticket: { uid: ticket!.ticketUid }, reason: 'Duplicate' } },
    ]);
    // A refused change (a void of another tenant's ticket) writes no event.
    const before = (await server.app.deps.db.select().from(domainEvents)).length;
    expect((await other.admin.post(`/api/tenants/${other.tenant.id}/events/${order.eventId}/tickets/void`, { ticketId: ticket!.ticketUid, orderUID: order.orderUid, void: false, reason: 'x' })).status).toBe(404);
    expect((await server.app.deps.db.select().from(domainEvents)).length).toBe(before);
    await admin.delete(`${base(acme.id)}/${endpoint.id}`);
  });
});

describe('issue 25: the last event types', () => {
  it('an unvoid is order.unvoided, after the void\'s order.voided, each signed', async () => {
    const endpoint = await addEndpoint(['order.voided', 'order.unvoided']);
    const order = await payAnOrder();
    const [ticket] = await server.app.deps.db.select().from(tickets).where(eq(tickets.orderId, order.orderId));
    const path = `/api/tenants/${acme.id}/events/${order.eventId}/tickets/void`;
    expect((await admin.post(path, { ticketId: ticket!.ticketUid, orderUID: order.orderUid, void: true, reason: 'Wrong seat' })).status).toBe(200);
    expect((await admin.post(path, { ticketId: ticket!.ticketUid, orderUID: order.orderUid, void: false, reason: 'Seat found' })).status).toBe(200);
    // Asking for the state it is already in changes nothing and tells nobody.
    expect((await admin.post(path, { ticketId: ticket!.ticketUid, orderUID: order.orderUid, void: false, reason: 'Again' })).status).toBe(200);
    await server.app.deps.jobs.drain();
    // This order's messages (a retry of an earlier test's delivery may arrive meanwhile).
    const mine = received.filter((r) => JSON.parse(r.body).data.order?.uid === order.orderUid);
    expect(mine.map((r) => JSON.parse(r.body))).toMatchObject([
      { type: 'order.voided', data: { order: { uid: order.orderUid }, ticket: { uid: ticket!.ticketUid }, reason: 'Wrong seat' } },
      { type: 'order.unvoided', version: 1, tenantId: acme.id, data: { order: { id: order.orderId, uid: order.orderUid, eventId: order.eventId }, ticket: { id: ticket!.id, uid: ticket!.ticketUid }, reason: 'Seat found' } },
    ]);
    expect(mine.every((r) => verifyByHand(endpoint.secret, r))).toBe(true);
    await admin.delete(`${base(acme.id)}/${endpoint.id}`);
  });

  it('cancelling an event is event.cancelled, sent to the tenant\'s endpoint and verified', async () => {
    const endpoint = await addEndpoint(['event.cancelled']);
    const event = await givenEventOnSale(server, acme.id, { name: 'Rained Out' });
    const cancelled = await admin.post(`/api/tenants/${acme.id}/events/${event.id}/cancel`, { message: 'The field is flooded.' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await server.app.deps.jobs.drain();
    const cancels = received.filter((r) => JSON.parse(r.body).type === 'event.cancelled');
    const sent = cancels.map((r) => JSON.parse(r.body));
    expect(sent).toMatchObject([{ type: 'event.cancelled', tenantId: acme.id, data: { event: { id: event.id, name: 'Rained Out', urlName: event.urlName } } }]);
    expect(String(cancels[0]!.headers['webhook-id'])).toBe(sent[0].id);
    expect(verifyByHand(endpoint.secret, cancels[0]!)).toBe(true);
    expect(() => new Webhook(endpoint.secret).verify(cancels[0]!.body, cancels[0]!.headers as Record<string, string>)).not.toThrow();
    // Another tenant's event cannot be cancelled from here, and tells nobody.
    const foreign = await givenEventOnSale(server, other.tenant.id);
    expect((await admin.post(`/api/tenants/${acme.id}/events/${foreign.id}/cancel`, {})).status).toBe(404);
    await server.app.deps.jobs.drain();
    expect(received.filter((r) => JSON.parse(r.body).type === 'event.cancelled')).toHaveLength(1);
    await admin.delete(`${base(acme.id)}/${endpoint.id}`);
  });

  it('a payout transferred to the tenant is payout.completed, with its amount and transfer', async () => {
    const payee = await givenTenantWithSettings(server);
    const payeeAdmin = await givenTenantAdmin(server, payee);
    const endpoint = await addEndpoint(['payout.completed'], payeeAdmin, payee.id);
    await server.app.deps.db.update(paymentSettings).set({ paymentRef: 'acct_test_hooks' }).where(eq(paymentSettings.tenantId, payee.id));
    // A card order paid three days ago, its funds available: what the operators transfer.
    const eventId = crypto.randomUUID();
    await server.app.deps.db.insert(events).values({ tenantId: payee.id, id: eventId, name: 'Paid Out Gala', urlName: `e${eventId.slice(0, 8)}`, status: 'published' });
    const id = crypto.randomUUID();
    const orderUid = `W${id.replace(/-/g, '').slice(0, 9).toUpperCase()}`;
    const paidAt = new Date(Date.now() - 3 * 86_400_000);
    await server.app.deps.db.insert(orders).values({
      tenantId: payee.id, id, orderUid, eventId, status: 'completed', email: 'buyer@example.test', ticketCount: 1, subtotal: 10_000, totalAmount: 10_000,
      tenantTotal: 9_000, platformTotal: 1_000, paymentProvider: 'test', chargeId: `pi_test_${id.slice(0, 8)}`, paymentMethod: 'card', paidAt, createdAt: paidAt,
    });
    await syncPayoutLines({ deps: server.app.deps });
    const operator = await platformClient();
    const res = await operator.post(PAYOUT_PATHS.transfer(), { orderUIDs: [orderUid] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [payout] = res.body.completedOrderPayouts;
    expect(payout).toBeTruthy();
    await server.app.deps.jobs.drain();
    const payouts = received.filter((r) => JSON.parse(r.body).type === 'payout.completed');
    const sent = payouts.map((r) => JSON.parse(r.body));
    expect(sent).toMatchObject([{ type: 'payout.completed', tenantId: payee.id, data: { payout: { id: payout.payoutId, amount: payout.amount, currency: 'usd', transferId: payout.transferId } } }]);
    expect(verifyByHand(endpoint.secret, payouts[0]!)).toBe(true);
    await payeeAdmin.delete(`${base(payee.id)}/${endpoint.id}`);
  });
});

describe('endpoints: input, access, tenants', () => {
  it('bad input is a 400 with the field, never a 500', async () => {
    const bad = async (body: unknown) => admin.post(base(acme.id), body);
    expect((await bad({ url: 'ftp://example.com/x', eventTypes: ['order.paid'] })).body.error.fields.url).toBe(M_WEBHOOKS.urlInvalid);
    expect((await bad({ url: 'not a url', eventTypes: ['order.paid'] })).status).toBe(400);
    expect((await bad({ eventTypes: ['order.paid'] })).body.error.fields.url).toBeDefined();
    expect((await bad({ url: 'https://example.com/x', eventTypes: [] })).body.error.fields.eventTypes).toBe(M_WEBHOOKS.eventTypesRequired);
    const unknown = await bad({ url: 'https://example.com/x', eventTypes: ['order.exploded'] });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.error.fields)).toContain(M_WEBHOOKS.eventTypeUnknown);
    expect((await bad({ url: 'https://user:pw@example.com/x', eventTypes: ['order.paid'] })).body.error.fields.url).toBe(M_WEBHOOKS.urlCredentials);
    expect((await bad({ url: 'https://example.com/x', eventTypes: ['order.paid'], description: 'x'.repeat(201) })).status).toBe(400);
    expect((await admin.patch(`${base(acme.id)}/not-an-id`, { enabled: false })).status).toBe(404);
    expect((await admin.get(`${base(acme.id)}/00000000-0000-0000-0000-000000000000/deliveries`)).status).toBe(404);
    expect((await admin.get(`${base(acme.id)}/00000000-0000-0000-0000-000000000000/deliveries?filters=details.nope=1`)).status).toBe(404);
  });

  it('https is required where the server is served over https, and private addresses are refused', () => {
    const deps = server.app.deps;
    const prod = { ...deps, config: { ...deps.config, publicScheme: 'https' as const, webhooks: { allowPrivate: false, timeoutMs: 1000 } } };
    expect(() => assertEndpointUrl(prod, 'http://example.com/hooks')).toThrow(M_WEBHOOKS.urlHttps);
    expect(() => assertEndpointUrl(prod, 'https://example.com/hooks')).not.toThrow();
    for (const url of ['https://127.0.0.1/x', 'https://localhost/x', 'https://10.0.0.5/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://[fd00::1]/x']) {
      expect(() => assertEndpointUrl(prod, url), url).toThrow(M_WEBHOOKS.urlPrivate);
    }
  });

  it('another tenant’s endpoint and delivery are 404 everywhere; tenant staff may not manage endpoints', async () => {
    const endpoint = await addEndpoint(['order.paid']);
    await payAnOrder();
    const deliveryId = (await admin.get(`${base(acme.id)}/${endpoint.id}/deliveries`)).body.result[0].id;
    const theirs = other.admin;
    const mine = `${base(other.tenant.id)}/${endpoint.id}`;
    expect((await theirs.get(mine)).status).toBe(404);
    expect((await theirs.patch(mine, { enabled: false })).status).toBe(404);
    expect((await theirs.post(`${mine}/rotate-secret`)).status).toBe(404);
    expect((await theirs.get(`${mine}/deliveries`)).status).toBe(404);
    expect((await theirs.post(`${mine}/deliveries/${deliveryId}/redeliver`)).status).toBe(404);
    expect((await theirs.delete(mine)).status).toBe(404);
    // Nor through the platform's routes: a tenant's endpoint is not the platform's.
    const platform = await platformClient();
    expect((await platform.get(`/api/platform/webhooks/endpoints/${endpoint.id}`)).status).toBe(404);
    // A tenant admin is no platform operator (on the tenant's host the platform's routes are not there).
    expect((await admin.get('/api/platform/webhooks/endpoints')).status).toBe(404);
    const staff = await givenUser(server, { tenant: { id: acme.id, roles: ['tenant_staff'] } });
    const staffClient = server.client(acme.url);
    await staffClient.login(staff.email, staff.password);
    expect((await staffClient.get(base(acme.id))).status).toBe(403);
    // Still there, untouched.
    expect((await admin.get(`${base(acme.id)}/${endpoint.id}`)).body.details.enabled).toBe(true);
    await admin.delete(`${base(acme.id)}/${endpoint.id}`);
  });

  it('lists every event type the console offers', () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual(['order.paid', 'order.refunded', 'order.voided', 'order.unvoided', 'ticket.checked_in', 'ticket.transferred', 'event.published', 'event.cancelled', 'payout.completed']);
  });
});

describe('outbound requests', () => {
  it('public addresses only: private, loopback, link-local, mapped and embedded IPv4 are refused', () => {
    for (const a of ['8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::', 'nonsense']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('a name that resolves to loopback is refused when it is connected, and so is a literal; the loopback switch lets tests through', async () => {
    const opts = { timeoutMs: 2000, maxBytes: 1024, allowPrivate: false };
    const port = (receiver.address() as AddressInfo).port;
    await expect(postOutbound(`http://localhost:${port}/hooks`, '{}', {}, opts)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(postOutbound(`http://127.0.0.1:${port}/hooks`, '{}', {}, opts)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(postOutbound(`http://[::ffff:127.0.0.1]:${port}/hooks`, '{}', {}, opts)).rejects.toBeInstanceOf(OutboundRefused);
    expect(received).toHaveLength(0);
    const ok = await postOutbound(`http://localhost:${port}/hooks`, '{}', {}, { ...opts, allowPrivate: true });
    expect(ok).toMatchObject({ status: 200, body: 'thanks' });
  });

  it('caps what it reads of an answer, and gives up on a receiver that does not answer', async () => {
    const slow = http.createServer((req, res) => {
      if (req.url === '/big') res.end('x'.repeat(100_000));
      // '/slow' never answers
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const port = (slow.address() as AddressInfo).port;
    try {
      const big = await postOutbound(`http://127.0.0.1:${port}/big`, '{}', {}, { timeoutMs: 2000, maxBytes: 1000, allowPrivate: true });
      expect(big).toMatchObject({ status: 200, truncated: true });
      expect(big.body).toHaveLength(1000);
      await expect(postOutbound(`http://127.0.0.1:${port}/slow`, '{}', {}, { timeoutMs: 200, maxBytes: 1000, allowPrivate: true })).rejects.toThrow(/No answer/);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
