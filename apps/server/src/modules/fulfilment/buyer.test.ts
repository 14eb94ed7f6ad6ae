import { M, ORDER_LINK_TOKEN_RE } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderLinks, orders, outbox, tickets } from '../../db/schema/index.js';
import { givenHeldOrder, givenTenant, inspectPdf, notFoundError, startServer, validationError, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { FULFIL_JOB } from './service.js';

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server);
  other = await givenTenant(server);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;
const mailsTo = async (to: string) => {
  await server.app.deps.jobs.drain();
  return (await db().select().from(outbox).where(eq(outbox.to, to))).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
};
const tokenIn = (text: string) => {
  const m = /\/orders\/([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`no order link in: ${text}`);
  return m[1]!;
};

async function givenCompletedOrder(opts: Parameters<typeof givenHeldOrder>[2] = {}, t: GivenTenant = tenant) {
  const order = await givenHeldOrder(server, t.id, { ...opts, status: 'processing' });
  await server.app.deps.jobs.enqueue(db(), FULFIL_JOB, { tenantId: t.id, orderId: order.orderId }, { dedupeKey: `fulfil:${order.orderId}` });
  await server.app.deps.jobs.drain();
  const [mail] = await mailsTo(order.email);
  return { ...order, mail: mail!, token: tokenIn(mail!.text) };
}

describe('private order links', () => {
  it('the ticket mail links to the order page on the tenant host; the link opens the order in any client without signing in', async () => {
    const order = await givenCompletedOrder();
    expect(order.token).toMatch(ORDER_LINK_TOKEN_RE);
    expect(order.mail.text).toContain(`http://${tenant.url}.`);
    expect(order.mail.html).toContain(`/orders/${order.token}`);
    // Only the hash is stored, and nothing about the token comes from the order.
    const links = await db().select().from(orderLinks).where(eq(orderLinks.orderId, order.orderId));
    expect(links).toHaveLength(1);
    expect(links[0]!.tokenHash).not.toContain(order.token);
    expect(order.token).not.toContain(order.orderUid);
    expect(order.token).not.toContain(order.orderId.replace(/-/g, ''));

    const res = await server.client(tenant.url).get(`/api/p/order-links/${order.token}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body.order).toMatchObject({ orderUID: order.orderUid, paymentStatus: 'paid', details: { email: order.email, totalAmount: order.totalAmount } });
    expect(res.body.event).toMatchObject({ name: expect.stringMatching(/^Concert /), urlName: order.urlName, timeZone: 'America/New_York', startDateTime: '2030-06-01T00:30:00.000Z' });
    expect(res.body.tickets).toHaveLength(order.seats);
    expect(res.body.tickets.every((t: { status: string }) => t.status === 'valid')).toBe(true);
    expect(res.body.canDownload).toBe(true);
  });

  it('a guessed, altered or malformed token, or the order id, is 404; so is the right token on another tenant host', async () => {
    const order = await givenCompletedOrder();
    const c = server.client(tenant.url);
    const flipped = order.token.slice(0, -1) + (order.token.endsWith('A') ? 'B' : 'A');
    for (const bad of [flipped, 'A'.repeat(43), order.orderUid, order.orderId, 'x', `${order.token}x`]) {
      const res = await c.get(`/api/p/order-links/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(res.body).toEqual(notFoundError);
      expect((await c.post(`/api/p/order-links/${bad}/download`)).status).toBe(404);
      expect((await c.post(`/api/p/order-links/${bad}/resend`)).status).toBe(404);
    }
    const elsewhere = server.client(other.url);
    expect((await elsewhere.get(`/api/p/order-links/${order.token}`)).status).toBe(404);
    expect((await elsewhere.post(`/api/p/order-links/${order.token}/download`)).status).toBe(404);
    expect((await elsewhere.post(`/api/p/order-links/${order.token}/resend`)).status).toBe(404);
    // The platform host has no event site.
    expect((await server.client().get(`/api/p/order-links/${order.token}`)).status).toBe(404);
  });

  it('Download answers the PDF of the valid tickets', async () => {
    const order = await givenCompletedOrder();
    const res = await server.client(tenant.url).post(`/api/p/order-links/${order.token}/download`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="tickets_${order.orderUid}.pdf"`);
    expect(inspectPdf(res.raw).pages).toHaveLength(order.seats);
  });

  it('Resend mails the tickets to the order’s own address with a fresh link; a fourth resend within 10 minutes is 429', async () => {
    const order = await givenCompletedOrder();
    const c = server.client(tenant.url);
    for (let i = 0; i < 3; i++) {
      const res = await c.post(`/api/p/order-links/${order.token}/resend`, { email: 'attacker@example.test' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: M.orderLinkResent });
    }
    const mails = await mailsTo(order.email);
    expect(mails).toHaveLength(4);
    expect(await mailsTo('attacker@example.test')).toHaveLength(0);
    const tokens = new Set(mails.map((m) => tokenIn(m.text)));
    expect(tokens.size).toBe(4);
    for (const t of tokens) expect((await c.get(`/api/p/order-links/${t}`)).body.order.orderUID).toBe(order.orderUid);
    const limited = await c.post(`/api/p/order-links/${order.token}/resend`);
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toBe(M.tooManyRequests);
    expect(await mailsTo(order.email)).toHaveLength(4);
  });

  it('an order whose tickets are all voided has nothing to download or resend: 409, not a 500', async () => {
    // On the other tenant's host: this file's other resends have used up this client's allowance on the first.
    const order = await givenCompletedOrder({}, other);
    await db().update(tickets).set({ voided: true }).where(eq(tickets.orderId, order.orderId));
    const c = server.client(other.url);
    for (const action of ['download', 'resend'] as const) {
      const res = await c.post(`/api/p/order-links/${order.token}/${action}`);
      expect(res.status, action).toBe(409);
      expect(res.body.error).toEqual({ code: 'CONFLICT', message: M.noValidTickets });
    }
    expect(await mailsTo(order.email)).toHaveLength(1);
    expect((await c.get(`/api/p/order-links/${order.token}`)).body.canDownload).toBe(false);
  });

  it('an order that is not completed has no download (409, the fulfilment message)', async () => {
    const order = await givenCompletedOrder();
    await db().update(orders).set({ status: 'cancelled' }).where(eq(orders.id, order.orderId));
    const res = await server.client(tenant.url).post(`/api/p/order-links/${order.token}/download`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(M.ticketsOnlyForCompletedOrders);
    const page = await server.client(tenant.url).get(`/api/p/order-links/${order.token}`);
    expect(page.body.canDownload).toBe(false);
  });
});

describe('the ticket mail', () => {
  it('carries the brand, the itemised receipt, the time with its zone, the order link and an .ics in both parts', async () => {
    const order = await givenCompletedOrder();
    const { mail } = order;
    for (const part of [mail.text, mail.html!]) {
      expect(part).toContain('VIP × 1 @ $50.00');
      expect(part).toContain('General Admission × 2 @ $25.00');
      expect(part).toContain('Subtotal (3 tickets)');
      expect(part).toContain(`/orders/${order.token}`);
      expect(part).toContain('America/New York time');
      expect(part).toContain(tenant.name);
    }
    expect(mail.text.replace(/\u202f/g, ' ')).toContain('Friday, May 31, 2030 at 8:30 PM EDT (America/New York time)');
    expect(mail.text).toContain('Total: $100.00');
    expect(mail.html).toContain('#5b3cc4');
    const ics = mail.attachments.find((a) => a.filename === 'invite.ics')!;
    expect(ics.contentType).toMatch(/^text\/calendar/);
    const body = (await server.app.deps.storage.get(ics.key))!.bytes.toString('utf8');
    expect(body).toContain('DTSTART:20300601T003000Z');
    expect(body).toContain(`UID:${order.orderUid}@${tenant.url}.`);
    expect(body.replace(/\r\n /g, '')).toContain(`/orders/${order.token}`);
  });
});

describe('Find my tickets', () => {
  it('answers the same for an address with orders and one without; mails one list of links to the buyer only', async () => {
    const email = `finder-${Date.now()}@example.test`;
    const a = await givenCompletedOrder({ email });
    const b = await givenCompletedOrder({ email });
    await givenCompletedOrder({ email }, other);
    const c = server.client(tenant.url);
    const known = await c.post('/api/p/find-tickets', { email: email.toUpperCase() });
    const unknown = await c.post('/api/p/find-tickets', { email: 'nobody-here@example.test' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({ success: true, message: M.findTicketsSent });
    expect(unknown.body).toEqual(known.body);
    expect(await mailsTo('nobody-here@example.test')).toHaveLength(0);

    const mails = (await mailsTo(email)).filter((m) => m.subject.startsWith('Your tickets from'));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.tenantId).toBe(tenant.id);
    expect(mail.text).toContain(a.orderUid);
    expect(mail.text).toContain(b.orderUid);
    const tokens = [...mail.text.matchAll(/\/orders\/([A-Za-z0-9_-]+)/g)].map((m) => m[1]!);
    expect(tokens).toHaveLength(2);
    const uids = await Promise.all(tokens.map(async (t) => (await c.get(`/api/p/order-links/${t}`)).body.order.orderUID));
    expect(uids.sort()).toEqual([a.orderUid, b.orderUid].sort());
  });

  it('refuses a bad address with the checkout’s messages', async () => {
    const c = server.client(tenant.url);
    expect((await c.post('/api/p/find-tickets', { email: 'not-an-email' })).body).toEqual(validationError('email', M.emailFormat));
    expect((await c.post('/api/p/find-tickets', { email: '' })).body).toEqual(validationError('email', M.checkoutEmailRequired));
    expect((await c.post('/api/p/find-tickets', {})).status).toBe(400);
  });

  it('is limited per address (3 an hour) whatever the address, and per client address', async () => {
    const c = server.client(tenant.url);
    const email = `limited-${Date.now()}@example.test`;
    for (let i = 0; i < 3; i++) expect((await c.post('/api/p/find-tickets', { email })).status).toBe(200);
    const limited = await c.post('/api/p/find-tickets', { email });
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toBe(M.tooManyRequests);
    // Per client address: 10 in 10 minutes on this host, counted across addresses.
    const d = server.client(other.url);
    for (let i = 0; i < 10; i++) expect((await d.post('/api/p/find-tickets', { email: `walk-${i}@example.test` })).status).toBe(200);
    expect((await d.post('/api/p/find-tickets', { email: 'walk-10@example.test' })).status).toBe(429);
  });
});
