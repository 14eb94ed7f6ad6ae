import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, outbox, testCheckoutSessions, tickets } from '../../db/schema/index.js';
import { checkoutPayload, givenEventOnSale, givenHeldOrder, givenTenantAdmin, givenTenantWithSettings, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { signTicketCode } from '../checkin/ticket-code.js';
import { markOrderPaid } from '../orders/payment.js';
import { TICKET_QR_OPTIONS } from './pdf.js';
import { FULFIL_JOB } from './service.js';

// Issue 21.6 and 21.8: a refund or a void reaches the buyer by mail, and the private order page
// shows the refunds, the voids, what each ticket sold for after the discount, and the QR codes.

let server: TestServer, tenant: GivenTenant, admin: Client;
beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  admin = await givenTenantAdmin(server, tenant);
});
afterAll(() => server.close());

const db = () => server.app.deps.db;
const site = () => server.client(tenant.url);
const mailsTo = async (to: string) => {
  await server.app.deps.jobs.drain();
  return (await db().select().from(outbox).where(eq(outbox.to, to))).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
};
const tokenIn = (text: string) => /\/orders\/([A-Za-z0-9_-]{43})/.exec(text)![1]!;
const orderPage = async (token: string) => {
  const res = await site().get(`/api/p/order-links/${token}`);
  expect(res.status).toBe(200);
  return res.body;
};

type Paid = Awaited<ReturnType<typeof givenHeldOrder>> & { ticketIds: string[]; token: string };

/** A completed $100 order (three tickets) paid through the test gateway, its tickets mailed. */
async function givenPaidOrder(): Promise<Paid> {
  const order = await givenHeldOrder(server, tenant.id, { status: 'processing' });
  const chargeId = `pi_test_${randomUUID().replace(/-/g, '')}`;
  await db().insert(testCheckoutSessions).values({
    tenantId: tenant.id,
    id: `cs_test_${randomUUID()}`,
    orderId: order.orderId,
    orderUid: order.orderUid,
    amount: order.totalAmount,
    currency: 'usd',
    successUrl: 'http://x.test/s',
    cancelUrl: 'http://x.test/c',
    idempotencyKey: `checkout:${order.orderId}`,
    status: 'complete',
    chargeId,
    expiresAt: new Date(Date.now() + 60_000),
  });
  await db()
    .update(orders)
    .set({ chargeId, paymentProvider: 'test', paymentMethod: 'card', paidAt: new Date(), platformTotal: 957, tenantTotal: order.totalAmount - 957 })
    .where(eq(orders.id, order.orderId));
  await server.app.deps.jobs.enqueue(db(), FULFIL_JOB, { tenantId: tenant.id, orderId: order.orderId }, { dedupeKey: `fulfil:${order.orderId}` });
  const [mail] = await mailsTo(order.email);
  const ticketIds = (await db().select({ id: tickets.id }).from(tickets).where(eq(tickets.orderId, order.orderId))).map((t) => t.id);
  return { ...order, ticketIds, token: tokenIn(mail!.text) };
}

const orderUrl = (o: { eventId: string; orderUid: string }) => `/api/tenants/${tenant.id}/events/${o.eventId}/orders/${o.orderUid}`;
const refund = (o: Paid, body: Record<string, unknown>) => admin.post(`${orderUrl(o)}/refunds`, body);
const voidTicket = (o: Paid, ticketId: string, voided: boolean, reason: string) =>
  admin.post(`/api/tenants/${tenant.id}/events/${o.eventId}/tickets/void`, { ticketId, orderUID: o.orderUid, void: voided, reason });
/** The mails after the tickets mail. */
const noticesTo = async (o: Paid) => (await mailsTo(o.email)).slice(1);

describe('refunds reach the buyer (issue 21.6)', () => {
  it('a partial amount: the mail gives the amount and says the tickets still hold; the order page lists it and still reads paid', async () => {
    const o = await givenPaidOrder();
    expect((await refund(o, { mode: 'amount', amount: 2000, reason: 'Goodwill for the late start' })).status).toBe(201);
    const [mail, ...more] = await noticesTo(o);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toMatch(/^Refund of \$20\.00 for your order for Concert /);
    expect(mail!.text).toContain(`has refunded $20.00 of your order ${o.orderUid} for Concert`);
    expect(mail!.text).toContain('In all, $20.00 of the $100.00 you paid has been refunded.');
    expect(mail!.text).toContain('The money goes back to the card you paid with.');
    expect(mail!.text).toContain('Your 3 tickets are still valid.');
    // The organiser's reason is for the audit trail, not the buyer.
    expect(mail!.text).not.toContain('Goodwill');
    expect(mail!.html).toContain('View your order');

    const page = await orderPage(tokenIn(mail!.text));
    expect(page.order.paymentStatus).toBe('paid');
    expect(page.refundState).toBe('partial');
    expect(page.refundedAmount).toBe(2000);
    expect(page.refunds).toEqual([{ amount: 2000, status: 'succeeded', date: expect.any(String) }]);
    expect(page.tickets.map((t: { status: string }) => t.status)).toEqual(['valid', 'valid', 'valid']);
    // The link in the tickets mail shows the same.
    expect((await orderPage(o.token)).refunds).toHaveLength(1);
  });

  it('chosen tickets: the mail names the ticket that is no longer valid; the order page shows it refunded', async () => {
    const o = await givenPaidOrder();
    const [ga] = (await db().select().from(tickets).where(eq(tickets.orderId, o.orderId))).filter((t) => t.price === 2500);
    expect((await refund(o, { mode: 'tickets', ticketIds: [ga!.id], reason: 'Cannot come' })).status).toBe(201);
    const [mail] = await noticesTo(o);
    expect(mail!.text).toContain('$25.00');
    expect(mail!.text).toContain('This ticket is no longer valid and will not admit anyone:');
    expect(mail!.text).toContain(`- General Admission, Ada Lovelace (ticket ID ${ga!.ticketUid})`);
    expect(mail!.text).toContain('Your other 2 tickets are still valid.');
    const page = await orderPage(o.token);
    expect(page.refundState).toBe('partial');
    const statuses = page.tickets.map((t: { status: string; ticketUID: string | null; qrSvg: string | null; voidedAt: string | null }) => [t.status, !!t.ticketUID, !!t.qrSvg, !!t.voidedAt]);
    expect(statuses.filter(([s]: [string]) => s === 'refunded')).toEqual([['refunded', false, false, true]]);
    expect(statuses.filter(([s]: [string]) => s === 'valid')).toHaveLength(2);
  });

  it('the rest of the order: the mail says everything is refunded and no ticket is valid; the order page reads refunded, newest refund first', async () => {
    const o = await givenPaidOrder();
    expect((await refund(o, { mode: 'amount', amount: 2000, reason: 'first' })).status).toBe(201);
    expect((await refund(o, { mode: 'full', reason: 'Event moved' })).status).toBe(201);
    const [, full] = await noticesTo(o);
    expect(full!.subject).toMatch(/^Your order for Concert .* has been refunded$/);
    expect(full!.text).toContain(`has refunded $80.00 of your order ${o.orderUid}`);
    expect(full!.text).toContain('With this refund, everything you paid ($100.00) has been refunded.');
    expect(full!.text).toContain('These tickets are no longer valid and will not admit anyone:');
    expect(full!.text).toContain('No ticket of this order is valid any more.');
    const page = await orderPage(o.token);
    expect(page.refundState).toBe('full');
    expect(page.refundedAmount).toBe(10000);
    expect(page.refunds.map((r: { amount: number }) => r.amount)).toEqual([8000, 2000]);
    expect(page.tickets.every((t: { status: string; qrSvg: string | null }) => t.status === 'refunded' && t.qrSvg === null)).toBe(true);
    expect(page.canDownload).toBe(false);
  });

  it('a whole order refunded at once says so in one sentence', async () => {
    const o = await givenPaidOrder();
    expect((await refund(o, { mode: 'full', reason: 'x' })).status).toBe(201);
    const [mail] = await noticesTo(o);
    expect(mail!.text).toContain(`has refunded your order ${o.orderUid} for Concert`);
    expect(mail!.text).toMatch(/in full: \$100\.00\./);
  });

  it('a refund the gateway refuses gave nothing back and is not announced', async () => {
    const o = await givenPaidOrder();
    // The charge the gateway knows is smaller than the refund asked for: it refuses it.
    await db().update(testCheckoutSessions).set({ amount: 500 }).where(eq(testCheckoutSessions.orderId, o.orderId));
    const res = await refund(o, { mode: 'amount', amount: 2000, reason: 'x' });
    expect(res.status).toBe(201);
    expect(res.body.refund.details.status).toBe('failed');
    expect(await noticesTo(o)).toEqual([]);
    const page = await orderPage(o.token);
    expect(page.refunds).toEqual([]);
    expect(page.refundState).toBe('none');
  });
});

describe('voids reach the buyer (issue 21.6)', () => {
  it('a void mails that the ticket no longer admits, an unvoid that it does again; the order page shows the void and its date', async () => {
    const o = await givenPaidOrder();
    const [t] = await db().select().from(tickets).where(eq(tickets.id, o.ticketIds[0]!));
    expect((await voidTicket(o, t!.id, true, 'Chargeback')).status).toBe(200);
    const [voided] = await noticesTo(o);
    expect(voided!.subject).toMatch(/^A ticket for Concert .* is no longer valid$/);
    expect(voided!.text).toContain(`has voided a ticket of your order ${o.orderUid}`);
    expect(voided!.text).toContain(`(ticket ID ${t!.ticketUid})`);
    expect(voided!.text).toContain('Your other 2 tickets are still valid.');
    expect(voided!.text).not.toContain('Chargeback');
    const page = await orderPage(o.token);
    const shown = page.tickets.find((x: { status: string }) => x.status === 'voided');
    expect(shown).toMatchObject({ ticketTypeName: t!.ticketTypeName, ticketUID: null, qrSvg: null });
    expect(Date.parse(shown.voidedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(page.refundState).toBe('none');

    expect((await voidTicket(o, t!.id, false, 'Found the payment')).status).toBe(200);
    const [, restored] = await noticesTo(o);
    expect(restored!.subject).toMatch(/^Your ticket for Concert .* is valid again$/);
    expect(restored!.text).toContain('It is valid again:');
    expect((await orderPage(o.token)).tickets.every((x: { status: string }) => x.status === 'valid')).toBe(true);

    // Asking for the state a ticket is already in changes nothing and mails nothing.
    expect((await voidTicket(o, t!.id, false, 'again')).status).toBe(200);
    expect(await noticesTo(o)).toHaveLength(2);
  });
});

describe('the order page shows what was paid and the tickets themselves (issue 21.8)', () => {
  it('each line and ticket at its price after the discount, and each valid ticket with the QR code the PDF prints', async () => {
    const e = await givenEventOnSale(server, tenant.id, {
      ticketTypes: [
        { name: 'General Admission', price: 4500, quantity: 20 },
        { name: 'VIP', price: 12000, quantity: 20 },
      ],
      discounts: [{ code: 'GA10', kind: 'amount', value: 1001, ticketTypeIndexes: [0] }],
    });
    const lines = [
      { ticketTypeId: e.ticketTypeIds[0]!, quantity: 3 },
      { ticketTypeId: e.ticketTypeIds[1]!, quantity: 1 },
    ];
    const email = `paid-${randomUUID().slice(0, 8)}@example.test`;
    const placed = await site().post(`/api/p/tenants/${tenant.id}/events/${e.id}/orders`, checkoutPayload(lines, { email, discountCode: 'ga10' }));
    expect(placed.status).toBe(201);
    expect(placed.body.breakdown.discount).toBe(1001);
    const [row] = await db().select().from(orders).where(eq(orders.orderUid, placed.body.orderUID));
    await db().transaction((tx) => markOrderPaid({ deps: server.app.deps, tx, orderId: row!.id, provider: 'test', sessionId: 'cs_x', chargeId: `pi_${row!.id}`, paymentMethod: 'card' }));
    const [mail] = await mailsTo(email);
    const page = await orderPage(tokenIn(mail!.text));

    // The discount took $10.01 off the three General Admission tickets only.
    const byName = Object.fromEntries(page.order.details.orderDetails.map((l: { ticketName: string }) => [l.ticketName, l]));
    expect(byName['General Admission']).toMatchObject({ price: 4500, quantity: 3, discount: 1001 });
    expect(byName.VIP).toMatchObject({ price: 12000, quantity: 1, discount: 0 });
    const paid = (name: string) => page.tickets.filter((t: { ticketTypeName: string }) => t.ticketTypeName === name).map((t: { paid: number }) => t.paid);
    expect(paid('General Admission').sort()).toEqual([4166, 4166, 4167]);
    expect(paid('General Admission').reduce((a: number, b: number) => a + b, 0)).toBe(4500 * 3 - 1001);
    expect(paid('VIP')).toEqual([12000]);

    // The QR code is the signed code printed on the PDF, drawn as an SVG.
    const ticketRows = await db().select().from(tickets).where(eq(tickets.orderId, row!.id));
    for (const t of page.tickets as Array<{ ticketUID: string; qrSvg: string; status: string }>) {
      expect(t.status).toBe('valid');
      expect(ticketRows.map((r) => r.ticketUid)).toContain(t.ticketUID);
      const expected = await QRCode.toString(signTicketCode(server.app.deps.config.secret, e.id, t.ticketUID), { ...TICKET_QR_OPTIONS, type: 'svg', margin: 4 });
      expect(t.qrSvg).toBe(expected);
      expect(t.qrSvg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(t.qrSvg).not.toMatch(/<script|on\w+=/i);
    }
  });

  it('an order placed before the pricing kept each line’s discount shares the order’s discount over its lines', async () => {
    const o = await givenHeldOrder(server, tenant.id, { status: 'processing' });
    // $10 off the $100 order, kept only as a total (no per-line breakdown stored).
    await db().update(orders).set({ discount: 1000, totalAmount: 9000, breakdown: null }).where(eq(orders.id, o.orderId));
    await server.app.deps.jobs.enqueue(db(), FULFIL_JOB, { tenantId: tenant.id, orderId: o.orderId }, { dedupeKey: `fulfil:${o.orderId}` });
    const [mail] = await mailsTo(o.email);
    const page = await orderPage(tokenIn(mail!.text));
    const discounts = Object.fromEntries(page.order.details.orderDetails.map((l: { ticketName: string; discount: number }) => [l.ticketName, l.discount]));
    expect(discounts).toEqual({ VIP: 500, 'General Admission': 500 });
    expect(page.tickets.map((t: { paid: number }) => t.paid).sort()).toEqual([2250, 2250, 4500]);
  });
});
