import { formatMoney, M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, outbox, subscribers, testCheckoutSessions, testRefunds, tickets, ticketTypes } from '../../db/schema/index.js';
import {
  checkoutPayload,
  givenEventOnSale,
  givenTenantWithSettings,
  inspectPdf,
  lastMailTo,
  startServer,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';

// The whole attendee path over HTTP with the built-in gateway: PLACE ORDER (orders module), the
// hosted pay page, the signed webhook, fulfilment, the success page and the tickets mail.

let server: TestServer;
let tenant: GivenTenant;
let event: GivenEventOnSale;
beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  event = await givenEventOnSale(server, tenant.id, {
    ticketTypes: [
      { name: 'VIP', price: 12000, quantity: 10 },
      { name: 'General Admission', price: 4500, quantity: 50 },
    ],
  });
});
afterAll(async () => {
  await server.close();
});

const form = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString());
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const remaining = async (id: string) => (await server.app.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, id)))[0]!.remaining;

type Placed = { message: string; orderUID: string; orderToken: string };

async function placeOrder(email: string, optInEmail = false, opts: { c?: ReturnType<TestServer['client']>; draftOrderUID?: string } = {}) {
  const c = opts.c ?? server.client(tenant.url);
  const lines = [
    { ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 },
    { ticketTypeId: event.ticketTypeIds[1]!, quantity: 2 },
  ];
  const payload = { ...checkoutPayload(lines, { email, optInEmail }), ...(opts.draftOrderUID ? { draftOrderUID: opts.draftOrderUID } : {}) };
  const res = await c.post(`/api/p/tenants/${tenant.id}/events/${event.id}/orders`, payload);
  expect(res.status).toBe(201);
  return { c, answer: res.body as Placed };
}

const orderByUid = async (orderUid: string) => (await server.app.deps.db.select().from(orders).where(eq(orders.orderUid, orderUid)))[0]!;
const ticketMailsTo = async (email: string) =>
  (await server.app.deps.db.select().from(outbox).where(eq(outbox.to, email))).filter((m) => m.subject === `Your tickets for ${event.name}`);

describe('checkout with the test gateway, over HTTP', () => {
  it('PLACE ORDER -> pay page -> 4242 -> success page paid -> tickets mailed as a PDF', async () => {
    const before = await Promise.all(event.ticketTypeIds.map(remaining));
    const { c, answer } = await placeOrder('fan@example.test', true);
    const payUrl = new URL(answer.message);
    expect(payUrl.host).toBe(`${tenant.url}.${server.config.baseDomain}:${server.port}`);
    expect(payUrl.pathname).toMatch(/^\/pay\/cs_test_/);
    expect(await Promise.all(event.ticketTypeIds.map(remaining))).toEqual([before[0]! - 1, before[1]! - 2]);

    const page = await c.get(payUrl.pathname);
    expect(page.status).toBe(200);
    const [order] = await server.app.deps.db.select().from(orders).where(eq(orders.orderUid, answer.orderUID));
    expect(page.body).toContain(formatMoney(order!.totalAmount));

    const paid = await c.request('POST', payUrl.pathname, form({ cardNumber: '4242424242424242', expiry: '11/39', cvc: '999' }), FORM);
    expect(paid.status).toBe(303);
    const success = new URL(String(paid.headers.location));
    expect(success.pathname).toBe(`/${event.urlName}/success`);
    expect(success.searchParams.get('orderID')).toBe(answer.orderUID);

    const view = () => c.get(`/api/p/orders/${answer.orderUID}?token=${answer.orderToken}`);
    expect((await view()).body.paymentStatus).toBe('processing');
    await server.app.deps.jobs.drain();
    const shown = await view();
    expect(shown.body.paymentStatus).toBe('paid');
    expect(shown.body.details.ticketCount).toBe(3);

    const [done] = await server.app.deps.db.select().from(orders).where(eq(orders.orderUid, answer.orderUID));
    expect(done).toMatchObject({ status: 'completed', paymentProvider: 'test', paymentMethod: 'card' });
    const sold = await server.app.deps.db.select().from(tickets).where(eq(tickets.orderId, done!.id));
    expect(sold.map((t) => t.ticketTypeName).sort()).toEqual(['General Admission', 'General Admission', 'VIP']);
    expect(await Promise.all(event.ticketTypeIds.map(remaining))).toEqual([before[0]! - 1, before[1]! - 2]);

    const mail = await lastMailTo(server, 'fan@example.test');
    expect(mail?.subject).toBe(`Your tickets for ${event.name}`);
    expect(mail?.text).toContain('Print your tickets at home.');
    expect(mail?.attachments[0]?.filename).toBe(`tickets_${answer.orderUID}.pdf`);
    const pdf = inspectPdf((await server.app.deps.storage.get(mail!.attachments[0]!.key))!.bytes);
    expect(pdf.pages).toHaveLength(3);
    expect(pdf.pages.some((p) => p.text.includes('$120.00'))).toBe(true);

    const subs = await server.app.deps.db.select().from(subscribers).where(eq(subscribers.eventId, event.id));
    expect(subs.map((s) => s.email)).toContain('fan@example.test');
  });

  it('a declined card leaves the order draft and its tickets held', async () => {
    const before = await Promise.all(event.ticketTypeIds.map(remaining));
    const { c, answer } = await placeOrder('declined@example.test');
    const path = new URL(answer.message).pathname;
    const declined = await c.request('POST', path, form({ cardNumber: '4000000000000002' }), FORM);
    expect(declined.status).toBe(402);
    expect(declined.body).toContain(M.cardDeclined);
    await server.app.deps.jobs.drain();
    const [order] = await server.app.deps.db.select().from(orders).where(eq(orders.orderUid, answer.orderUID));
    expect(order?.status).toBe('draft');
    expect(await Promise.all(event.ticketTypeIds.map(remaining))).toEqual([before[0]! - 1, before[1]! - 2]);
    expect((await c.get(`/api/p/orders/${answer.orderUID}?token=${answer.orderToken}`)).body.paymentStatus).toBe('processing');
  });

  it('placing the order again closes the first pay page: it takes no payment, and only the new order holds tickets', async () => {
    const before = await Promise.all(event.ticketTypeIds.map(remaining));
    const { c, answer: first } = await placeOrder('again@example.test');
    const firstPay = new URL(first.message).pathname;
    const { answer: second } = await placeOrder('again@example.test', false, { c, draftOrderUID: first.orderUID });
    expect(second.orderUID).not.toBe(first.orderUID);

    expect(await orderByUid(first.orderUID)).toMatchObject({ status: 'replaced' });
    expect(await orderByUid(second.orderUID)).toMatchObject({ status: 'draft' });
    expect((await c.get(`/api/p/orders/${first.orderUID}?token=${first.orderToken}`)).body).toMatchObject({ paymentStatus: 'cancelled', refund: 'none' });
    expect(await Promise.all(event.ticketTypeIds.map(remaining))).toEqual([before[0]! - 1, before[1]! - 2]);

    // The first pay page now says the checkout expired and refuses the card.
    expect((await c.get(firstPay)).status).toBe(410);
    const refused = await c.request('POST', firstPay, form({ cardNumber: '4242424242424242' }), FORM);
    expect(refused.status).toBe(410);
    const [session] = await server.app.deps.db.select().from(testCheckoutSessions).where(eq(testCheckoutSessions.orderId, (await orderByUid(first.orderUID)).id));
    expect(session).toMatchObject({ status: 'open', chargeId: null });

    const paid = await c.request('POST', new URL(second.message).pathname, form({ cardNumber: '4242424242424242' }), FORM);
    expect(paid.status).toBe(303);
    await server.app.deps.jobs.drain();
    expect(await orderByUid(second.orderUID)).toMatchObject({ status: 'completed' });
    expect(await ticketMailsTo('again@example.test')).toHaveLength(1);
  });

  it('a payment of the first draft that lands after it was replaced is refunded in full, and the buyer gets one set of tickets', async () => {
    const before = await Promise.all(event.ticketTypeIds.map(remaining));
    const { c, answer: first } = await placeOrder('raced@example.test');
    // Paid, but the webhook has not been handled yet when the buyer places the order again.
    const paidFirst = await c.request('POST', new URL(first.message).pathname, form({ cardNumber: '4242424242424242' }), FORM);
    expect(paidFirst.status).toBe(303);
    const { answer: second } = await placeOrder('raced@example.test', false, { c, draftOrderUID: first.orderUID });
    const paidSecond = await c.request('POST', new URL(second.message).pathname, form({ cardNumber: '4242424242424242' }), FORM);
    expect(paidSecond.status).toBe(303);
    await server.app.deps.jobs.drain();

    const a = await orderByUid(first.orderUID);
    expect(a).toMatchObject({ status: 'cancelled', refundedAmount: a.totalAmount });
    // Its success page says the payment was given back, not that none was taken.
    const seen = await c.get(`/api/p/orders/${first.orderUID}?token=${first.orderToken}`);
    expect(seen.body).toMatchObject({ paymentStatus: 'cancelled', refund: 'refunded', details: null });
    expect(await server.app.deps.db.select().from(tickets).where(eq(tickets.orderId, a.id))).toHaveLength(0);
    const [chargedA] = await server.app.deps.db.select().from(testCheckoutSessions).where(eq(testCheckoutSessions.orderId, a.id));
    expect(await server.app.deps.db.select({ amount: testRefunds.amount }).from(testRefunds).where(eq(testRefunds.chargeId, chargedA!.chargeId!))).toEqual([
      { amount: a.totalAmount },
    ]);

    const b = await orderByUid(second.orderUID);
    expect(b.status).toBe('completed');
    expect(await server.app.deps.db.select().from(tickets).where(eq(tickets.orderId, b.id))).toHaveLength(3);
    expect(await Promise.all(event.ticketTypeIds.map(remaining))).toEqual([before[0]! - 1, before[1]! - 2]);
    expect(await ticketMailsTo('raced@example.test')).toHaveLength(1);
  });
});
