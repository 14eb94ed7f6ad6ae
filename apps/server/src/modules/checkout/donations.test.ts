import { M, MAX_DONATION_CENTS } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, orders, outbox, ticketSettings, ticketTypes } from '../../db/schema/index.js';
import {
  checkoutPayload,
  givenCharity,
  givenEventOnSale,
  givenTenantWithSettings,
  startServer,
  type GivenCharity,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { deleteCharity } from '../charities/service.js';
import { markOrderPaid } from '../orders/payment.js';

// Donations at checkout (docs/decisions.md "Donations at checkout"): the price route and PLACE ORDER
// take an optional donation in cents to the event's charity; the server prices it with the tenant's
// donation fee, refuses it on an event without a charity, and the order records the charity.

let server: TestServer;
let tenant: GivenTenant;
let charity: GivenCharity;
let event: GivenEventOnSale;
let noCharity: GivenEventOnSale;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  // A 15% donation fee plus $0.30; the customer pays the service fee and card processing (option 2).
  await db()
    .update(ticketSettings)
    .set({ donationServiceFeeBp: 1500, donationCharge: 30, serviceFeePassAlongOptionOnline: 'SERVICE_FEE_OPTION_ONLINE_2' })
    .where(eq(ticketSettings.tenantId, tenant.id));
  charity = await givenCharity(server, { name: 'Riverside Music Fund', enabledFor: [tenant.id] });
  event = await givenEventOnSale(server, tenant.id, {
    capacity: 100,
    charityId: charity.id,
    ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 80 }],
    discounts: [{ code: 'HALF', kind: 'percent', value: 50 }],
  });
  noCharity = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 80 }] });
});
afterAll(async () => {
  await server.close();
});

function db() {
  return server.app.deps.db;
}
const site = () => server.client(tenant.url);
const pricePath = (e: GivenEventOnSale) => `/api/p/events/${e.urlName}/price`;
const ordersPath = (e: GivenEventOnSale) => `/api/p/tenants/${tenant.id}/events/${e.id}/orders`;
const lines = (e: GivenEventOnSale, quantity = 2) => [{ ticketTypeId: e.ticketTypeIds[0]!, quantity }];

type Lines = { subtotal: number; discount: number; surcharge: number; processingFee: number; vat: number; donation: number; donationFee: number; channelCharge: number };
/** What the attendee's Order Summary adds up: every line it shows (spec §3 breakdown, §5 Display). */
const sumOfLines = (b: Lines) => b.subtotal - b.discount + b.surcharge + b.processingFee + b.vat + b.donation + b.donationFee + b.channelCharge;

async function stockOf(e: GivenEventOnSale) {
  const [t] = await db().select({ remaining: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.id, e.ticketTypeIds[0]!));
  const [ev] = await db().select({ remainingCapacity: events.remainingCapacity }).from(events).where(eq(events.id, e.id));
  return { remaining: t!.remaining, capacity: ev!.remainingCapacity };
}
const ordersOf = async (e: GivenEventOnSale) => db().select().from(orders).where(eq(orders.eventId, e.id));
const orderRow = async (orderUid: string) => (await db().select().from(orders).where(eq(orders.orderUid, orderUid)))[0]!;

describe('the price route with a donation', () => {
  it("adds the donation and the tenant's donation fee, and the lines add up to the total", async () => {
    const plain = await site().post(pricePath(event), { lines: lines(event) });
    const res = await site().post(pricePath(event), { lines: lines(event), donation: 1000 });
    expect(res.status).toBe(200);
    // 15% of $10.00 plus $0.30.
    expect(res.body).toMatchObject({ subtotal: 9000, donation: 1000, donationFee: 180 });
    expect(sumOfLines(res.body)).toBe(res.body.totalAmount);
    // Under option 2 the customer's card processing covers the donation and its fee too.
    expect(res.body.processingFee).toBeGreaterThan(plain.body.processingFee);
    expect(res.body.totalAmount - plain.body.totalAmount).toBe(1000 + 180 + res.body.processingFee - plain.body.processingFee);
    expect(plain.body).toMatchObject({ donation: 0, donationFee: 0 });
  });

  it('rounds the fee up to the cent, applies no discount to the donation, and accepts 0 and the maximum', async () => {
    const odd = await site().post(pricePath(event), { lines: lines(event), donation: 333, discountCode: 'half' });
    // 15% of $3.33 = 49.95 cents, up to 50, plus 30.
    expect(odd.body).toMatchObject({ subtotal: 9000, discount: 4500, donation: 333, donationFee: 80 });
    expect(sumOfLines(odd.body)).toBe(odd.body.totalAmount);
    const zero = await site().post(pricePath(event), { lines: lines(event), donation: 0 });
    expect(zero.body).toMatchObject({ donation: 0, donationFee: 0 });
    const max = await site().post(pricePath(event), { lines: lines(event), donation: MAX_DONATION_CENTS });
    expect(max.status).toBe(200);
    expect(max.body).toMatchObject({ donation: MAX_DONATION_CENTS, donationFee: 150_030 });
    expect(sumOfLines(max.body)).toBe(max.body.totalAmount);
  });

  it('refuses a donation on an event without a charity (400, our message); no donation is fine', async () => {
    const res = await site().post(pricePath(noCharity), { lines: lines(noCharity), donation: 500 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: M.donationNoCharity, fields: { donation: M.donationNoCharity }, domainCode: 'DONATION_NO_CHARITY' } });
    expect((await site().post(pricePath(noCharity), { lines: lines(noCharity), donation: 0 })).status).toBe(200);
    expect((await site().post(pricePath(noCharity), { lines: lines(noCharity) })).status).toBe(200);
  });

  it.each([
    ['negative', -100, M.donationInvalid],
    ['fractional', 10.5, M.donationInvalid],
    ['too large', MAX_DONATION_CENTS + 1, M.donationMax],
    ['a string', '1000', M.donationInvalid],
    ['null', null, M.donationInvalid],
    ['an object', { cents: 1000 }, M.donationInvalid],
  ])('refuses a %s donation with 400 and the message', async (_what, donation, message) => {
    const res = await site().post(pricePath(event), { lines: lines(event), donation });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ message, fields: { donation: message } });
  });
});

describe('PLACE ORDER with a donation', () => {
  it('prices it as the price route does, and the order records the donation and its charity', async () => {
    const priced = await site().post(pricePath(event), { lines: lines(event), donation: 1000 });
    const res = await site().post(ordersPath(event), checkoutPayload(lines(event), { donation: 1000, email: 'giver@example.test' }));
    expect(res.status).toBe(201);
    expect(res.body.breakdown).toEqual(priced.body);
    expect(sumOfLines(res.body.breakdown)).toBe(res.body.breakdown.totalAmount);
    const order = await orderRow(res.body.orderUID);
    expect(order).toMatchObject({ donation: 1000, charityId: charity.id, charityName: 'Riverside Music Fund', totalAmount: priced.body.totalAmount });
    expect(JSON.parse(order.breakdown!)).toMatchObject({ donation: 1000, donationFee: 180, donationNet: 1000 });
  });

  it('records no charity on an order without a donation', async () => {
    const res = await site().post(ordersPath(event), checkoutPayload(lines(event, 1), { email: 'nogift@example.test' }));
    expect(res.status).toBe(201);
    expect(await orderRow(res.body.orderUID)).toMatchObject({ donation: 0, charityId: null, charityName: null });
  });

  it('refuses a donation on an event without a charity: 400 with our message, nothing held or written', async () => {
    const before = await stockOf(noCharity);
    const res = await site().post(ordersPath(noCharity), checkoutPayload(lines(noCharity), { donation: 500 }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: M.donationNoCharity, fields: { 'order.donation': M.donationNoCharity }, domainCode: 'DONATION_NO_CHARITY' } });
    expect(await stockOf(noCharity)).toEqual(before);
    expect(await ordersOf(noCharity)).toHaveLength(0);
  });

  it.each([
    ['negative', -1, M.donationInvalid],
    ['fractional', 999.99, M.donationInvalid],
    ['too large', 50_000_000, M.donationMax],
    ['a string', '10', M.donationInvalid],
    ['a boolean', true, M.donationInvalid],
  ])('refuses a %s donation with 400 and the message, never 500, and writes nothing', async (_what, donation, message) => {
    const before = await stockOf(event);
    const count = (await ordersOf(event)).length;
    const res = await site().post(ordersPath(event), checkoutPayload(lines(event), { donation }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ message, fields: { 'order.donation': message } });
    expect(await stockOf(event)).toEqual(before);
    expect(await ordersOf(event)).toHaveLength(count);
  });

  it("refuses it when the event loses its charity between the checkout's read and the hold, and takes nothing", async () => {
    // The hold (mq_take_holds) checks the event's charity under the event's row lock.
    const e = await givenEventOnSale(server, tenant.id, { capacity: 10, charityId: charity.id, ticketTypes: [{ name: 'A', price: 2000, quantity: 10 }] });
    const other = await givenCharity(server, { name: 'Harbour Food Bank', enabledFor: [tenant.id] });
    const client = (db() as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const query = client.query;
    const placeWhile = async (change: string) => {
      client.query = async (...args: unknown[]) => {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
        if (text.includes('mq_take_holds')) await query.call(client, change);
        return query.apply(client, args);
      };
      try {
        return await site().post(ordersPath(e), checkoutPayload(lines(e), { donation: 2500 }));
      } finally {
        client.query = query;
      }
    };

    const cleared = await placeWhile(`update events set charity_id = null where id = '${e.id}'`);
    expect(cleared.status).toBe(400);
    expect(cleared.body.error).toMatchObject({ message: M.donationNoCharity, fields: { 'order.donation': M.donationNoCharity } });
    expect(await stockOf(e)).toEqual({ remaining: 10, capacity: 10 });
    expect(await ordersOf(e)).toHaveLength(0);

    await db().update(events).set({ charityId: charity.id }).where(eq(events.id, e.id));
    const replaced = await placeWhile(`update events set charity_id = '${other.id}' where id = '${e.id}'`);
    expect(replaced.status).toBe(400);
    expect(replaced.body.error).toMatchObject({ message: M.donationCharityChanged, fields: { 'order.donation': M.donationCharityChanged } });
    expect(await stockOf(e)).toEqual({ remaining: 10, capacity: 10 });
    expect(await ordersOf(e)).toHaveLength(0);

    // Without a donation the event's charity does not matter to the hold.
    const plain = await site().post(ordersPath(e), checkoutPayload(lines(e)));
    expect(plain.status).toBe(201);
  });
});

describe('after payment', () => {
  it('the success page shows the donation and its charity, the mail thanks the buyer, and both survive the charity being deleted', async () => {
    const doomed = await givenCharity(server, { name: 'Lantern Arts Trust', enabledFor: [tenant.id] });
    const e = await givenEventOnSale(server, tenant.id, { charityId: doomed.id, ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 10 }] });
    const placed = await site().post(ordersPath(e), checkoutPayload(lines(e), { donation: 1000, email: 'thanks@example.test' }));
    expect(placed.status).toBe(201);
    const order = await orderRow(placed.body.orderUID);
    await db().transaction((tx) => markOrderPaid({ deps: server.app.deps, tx, orderId: order.id, provider: 'test', sessionId: 'cs_d', chargeId: 'pi_d', paymentMethod: 'card' }));
    await server.app.deps.jobs.drain();

    const view = () => site().get(`/api/p/orders/${placed.body.orderUID}?token=${encodeURIComponent(placed.body.orderToken)}`);
    const paid = await view();
    expect(paid.body.paymentStatus).toBe('paid');
    expect(paid.body.details).toMatchObject({ donation: 1000, donationFee: 180, charityName: 'Lantern Arts Trust', totalAmount: placed.body.breakdown.totalAmount });
    expect(sumOfLines(paid.body.details)).toBe(paid.body.details.totalAmount);

    const [mail] = await db().select().from(outbox).where(eq(outbox.to, 'thanks@example.test'));
    expect(mail!.text).toContain('Thank you also for your donation of $10.00 to Lantern Arts Trust.');
    expect(mail!.text).toContain('Donation: $10.00 to Lantern Arts Trust');
    expect(mail!.html).toContain('Thank you also for your donation of $10.00 to Lantern Arts Trust.');

    // The platform deletes the charity: the event loses it, the order keeps what it was for.
    await deleteCharity({ deps: server.app.deps, charityId: doomed.id });
    expect((await db().select().from(events).where(eq(events.id, e.id)))[0]!.charityId).toBeNull();
    expect(await orderRow(placed.body.orderUID)).toMatchObject({ donation: 1000, charityId: doomed.id, charityName: 'Lantern Arts Trust' });
    expect((await view()).body.details).toMatchObject({ donation: 1000, charityName: 'Lantern Arts Trust' });
  });

  it('a mail without a donation says nothing about one', async () => {
    const placed = await site().post(ordersPath(event), checkoutPayload(lines(event, 1), { email: 'plain@example.test' }));
    const order = await orderRow(placed.body.orderUID);
    await db().transaction((tx) => markOrderPaid({ deps: server.app.deps, tx, orderId: order.id, provider: 'test', sessionId: 'cs_p', chargeId: 'pi_p', paymentMethod: 'card' }));
    await server.app.deps.jobs.drain();
    const [mail] = await db().select().from(outbox).where(eq(outbox.to, 'plain@example.test'));
    expect(mail!.text).not.toMatch(/donation/i);
    const view = await site().get(`/api/p/orders/${placed.body.orderUID}?token=${encodeURIComponent(placed.body.orderToken)}`);
    expect(view.body.details).toMatchObject({ donation: 0, donationFee: 0, charityName: null });
  });
});
