import { M, ORDER_UID_FORMAT } from '@marquee/core';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountCodes, events, jobs, orderLines, orders, ticketSettings, ticketTypes } from '../../db/schema/index.js';
import {
  checkoutPayload,
  givenEventOnSale,
  givenTenant,
  givenTenantWithSettings,
  givenUser,
  notFoundError,
  startServer,
  validationError,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { markCheckoutExpired, markOrderPaid } from '../orders/payment.js';

let server: TestServer;
let tenant: GivenTenant;
let event: GivenEventOnSale;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  event = await givenEventOnSale(server, tenant.id, {
    capacity: 100,
    ticketTypes: [
      { name: 'General Admission', price: 4500, quantity: 80 },
      { name: 'VIP', price: 12000, quantity: 20, maxPerOrder: 4 },
    ],
    discounts: [
      { code: 'WELCOME10', kind: 'percent', value: 10 },
      { code: 'ALLFREE', kind: 'percent', value: 100 },
      { code: 'ONCE', kind: 'amount', value: 500, usageLimit: 1 },
    ],
  });
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;
const site = () => server.client(tenant.url);
const ordersPath = (e: { id: string } = event, tenantId = tenant.id) => `/api/p/tenants/${tenantId}/events/${e.id}/orders`;
const [GA, VIP] = [0, 1];
const tt = (i: number, e: GivenEventOnSale = event) => e.ticketTypeIds[i]!;

async function remaining(e: GivenEventOnSale = event) {
  const rows = await db().select({ id: ticketTypes.id, remaining: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.eventId, e.id));
  const [ev] = await db().select({ remainingCapacity: events.remainingCapacity }).from(events).where(eq(events.id, e.id));
  return { byType: Object.fromEntries(rows.map((r) => [r.id, r.remaining])), capacity: ev?.remainingCapacity ?? null };
}

async function orderRow(orderUid: string) {
  const [row] = await db().select().from(orders).where(eq(orders.orderUid, orderUid));
  return row!;
}

describe('PLACE ORDER (spec §7 create order)', () => {
  it('holds the tickets in one transaction and answers the payment URL in message', async () => {
    const before = await remaining();
    const res = await site().post(
      ordersPath(),
      checkoutPayload(
        [
          { ticketTypeId: tt(GA), quantity: 2 },
          { ticketTypeId: tt(VIP), quantity: 1 },
        ],
        { discountCode: 'welcome10', email: 'Ada@Example.test' },
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body.message).toMatch(new RegExp(`^http://${tenant.url}\\.localhost:${server.port}/pay/cs_test_`));
    // The shape the success page accepts (spec §2 success?orderID=).
    expect(res.body.orderUID).toMatch(ORDER_UID_FORMAT);
    expect(res.body.draftOrderUID).toBe(res.body.orderUID);
    expect(res.body.orderToken.length).toBeGreaterThanOrEqual(32);
    expect(res.body.breakdown).toMatchObject({ ticketCount: 3, subtotal: 21000, discount: 2100, discountCode: 'WELCOME10' });

    const after = await remaining();
    expect(after.byType[tt(GA)]).toBe(before.byType[tt(GA)]! - 2);
    expect(after.byType[tt(VIP)]).toBe(before.byType[tt(VIP)]! - 1);
    expect(after.capacity).toBe(before.capacity! - 3);

    const order = await orderRow(res.body.orderUID);
    expect(order).toMatchObject({
      status: 'draft',
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+15551234567',
      state: 'NY',
      country: 'USA',
      discountCode: 'WELCOME10',
      ticketCount: 3,
      subtotal: 21000,
      discount: 2100,
      totalAmount: res.body.breakdown.totalAmount,
      paymentProvider: 'test',
      source: 'online',
    });
    const holdMs = order.holdExpiresAt!.getTime() - order.createdAt.getTime();
    expect(Math.abs(holdMs - server.config.holdMinutes * 60_000)).toBeLessThan(5_000);
    const lines = await db().select().from(orderLines).where(eq(orderLines.orderId, order.id));
    expect(lines.map((l) => [l.ticketName, l.unitPrice, l.quantity]).sort()).toEqual([
      ['General Admission', 4500, 2],
      ['VIP', 12000, 1],
    ]);
    const [job] = await db().select().from(jobs).where(eq(jobs.dedupeKey, `orders.expire-hold:${order.id}`));
    expect(job?.runAt.getTime()).toBe(order.holdExpiresAt!.getTime());
    const [code] = await db().select().from(discountCodes).where(and(eq(discountCodes.eventId, event.id), eq(discountCodes.code, 'WELCOME10')));
    expect(code?.usedCount).toBe(1);
  });

  it("never trusts the client's numbers", async () => {
    const body = { ...checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }]), totalAmount: 1, breakdown: { totalAmount: 1 }, price: 1 };
    (body.order as Record<string, unknown>).totalAmount = 1;
    const res = await site().post(ordersPath(), body);
    expect(res.status).toBe(201);
    expect((await orderRow(res.body.orderUID)).subtotal).toBe(4500);
  });

  it('sends the buyer back to this site only, with orderID on the success URL (spec §2)', async () => {
    const origin = `http://${tenant.url}.localhost:${server.port}`;
    const ok = await site().post(ordersPath(), {
      ...checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }]),
      successUrl: `${origin}/${event.urlName}/success`,
      cancelUrl: `${origin}/${event.urlName}/account`,
    });
    expect(ok.status).toBe(201);
    const sessionId = new URL(ok.body.message).pathname.split('/').pop()!;
    const rows = await db().execute(sql`select success_url, cancel_url from test_checkout_sessions where id = ${sessionId}`);
    const session = (rows as unknown as { rows: Array<{ success_url: string; cancel_url: string }> }).rows[0]!;
    expect(session.success_url).toBe(`${origin}/${event.urlName}/success?orderID=${ok.body.orderUID}`);
    expect(session.cancel_url).toBe(`${origin}/${event.urlName}/account`);
    for (const url of ['https://evil.example/steal', 'javascript:alert(1)', `http://other.localhost:${server.port}/x`]) {
      const bad = await site().post(ordersPath(), { ...checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }]), successUrl: url });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe(M.redirectUrlInvalid);
    }
  });

  it.each([
    [{ email: '' }, 'order.email', M.checkoutEmailRequired],
    [{ email: 'not-an-email' }, 'order.email', M.emailFormat],
    [{ phone: '+1555123' }, 'order.phone', M.mobileRequired],
    [{ phone: '+155512345678' }, 'order.phone', M.mobileRequired],
    [{ phone: '+1abc' }, 'order.phone', M.phoneWireFormat],
    [{ phone: '+1 (555) 123 4567' }, 'order.phone', M.phoneWireFormat],
    [{ phone: '15551234567' }, 'order.phone', M.phoneWireFormat],
    [{ phone: '+1555123456x' }, 'order.phone', M.phoneWireFormat],
    [{ address1: '' }, 'order.address1', M.addressRequired],
    [{ address2: '  ' }, 'order.address2', M.addressRequired],
    [{ city: '' }, 'order.city', M.cityRequired],
    [{ city: 'Springfield ' }, 'order.city', M.noTrailingSpaces],
    [{ state: '', country: 'Canada' }, 'order.state', M.stateRequired],
    [{ state: 'Narnia', country: 'USA' }, 'order.state', M.stateRequired],
    [{ zipCode: '' }, 'order.zipCode', M.zipRequired],
    [{ zipCode: '12a45' }, 'order.zipCode', M.zipDigits],
    [{ zipCode: '123456' }, 'order.zipCode', M.zipMax],
    [{ country: '' }, 'order.country', M.countryRequired],
    [{ firstName: '', lastName: '' }, 'order.firstName', M.firstNameRequired],
  ])('refuses checkout field %o with the spec message (§5)', async (patch, field, message) => {
    const res = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], patch));
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('refuses a phone that is not digits with a plus prefix with a 400 in our error shape, and holds nothing (spec §5)', async () => {
    const before = await remaining();
    for (const phone of ['+1abc', '+1 (555) 123 4567', '+1-555-123-4567', ' +15551234567', 'call me', '+']) {
      const res = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { phone }));
      expect({ phone, status: res.status, body: res.body }).toEqual({ phone, status: 400, body: validationError('order.phone', M.phoneWireFormat) });
    }
    const long = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { phone: `+1${'5'.repeat(60)}` }));
    expect({ status: long.status, body: long.body }).toEqual({ status: 400, body: validationError('order.phone', M.phoneWireFormat) });
    const number = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { phone: 15551234567 }));
    expect(number.status).toBe(400);
    expect(Object.keys(number.body.error.fields)).toEqual(['order.phone']);
    expect(await remaining()).toEqual(before);
    // What the browser sends: +1 and ten digits (stored as sent), or null for an empty field.
    const ok = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { phone: '+16175550123' }));
    expect(ok.status).toBe(201);
    expect((await orderRow(ok.body.orderUID)).phone).toBe('+16175550123');
    const none = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { phone: null }));
    expect(none.status).toBe(201);
    expect((await orderRow(none.body.orderUID)).phone).toBeNull();
  });

  it('accepts a blank optional phone, a full name, a US state by name, and a non-US address', async () => {
    const a = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { phone: '', firstName: undefined, lastName: undefined, name: 'Grace Brewster Hopper', state: 'new york' }));
    expect(a.status).toBe(201);
    expect(await orderRow(a.body.orderUID)).toMatchObject({ phone: null, firstName: 'Grace', lastName: 'Brewster Hopper', state: 'NY', country: 'USA' });
    const b = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { country: 'Canada', state: 'Ontario', zipCode: '12345' }));
    expect(b.status).toBe(201);
    expect(await orderRow(b.body.orderUID)).toMatchObject({ country: 'Canada', state: 'Ontario' });
  });

  it("answers 409 with the cart's problems when tickets ran out (Ticket Availability Issue)", async () => {
    const small = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'Last Few', price: 1000, quantity: 3 }] });
    const res = await site().post(ordersPath(small), checkoutPayload([{ ticketTypeId: tt(0, small), quantity: 4 }]));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: { code: 'CONFLICT', message: M.ticketsNoLongerAvailable, domainCode: 'CART_CONFLICT' },
      title: M.ticketAvailabilityIssue,
      blockReason: 'lineProblems',
      problems: [{ ticketTypeId: tt(0, small), ticketName: 'Last Few', kind: 'exceedsRemaining', requested: 4, available: 3, excess: 1, title: M.quantityLimitExceeded }],
    });
    expect((await remaining(small)).byType[tt(0, small)]).toBe(3);
    const capped = await givenEventOnSale(server, tenant.id, { capacity: 2, ticketTypes: [{ name: 'A', price: 1000, quantity: 10 }] });
    const over = await site().post(ordersPath(capped), checkoutPayload([{ ticketTypeId: tt(0, capped), quantity: 3 }]));
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ title: M.insufficientCapacity, blockReason: 'overCapacity', remainingCapacity: 2 });
  });

  it("refuses a discount code that is not usable with 'Invalid Input', and counts a limited code once", async () => {
    const bad = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { discountCode: 'NOPE' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ message: M.invalidInput, fields: { discountCode: M.invalidInputBody } });
    expect((await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { discountCode: 'ONCE' }))).status).toBe(201);
    const second = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { discountCode: 'ONCE' }));
    expect(second.status).toBe(400);
    expect(second.body.error.message).toBe(M.invalidInput);
  });

  it('is 404 on the platform host, for another tenant, for events never published; 409 for a cancelled event', async () => {
    const payload = checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }]);
    expect((await server.client().post(ordersPath(), payload)).status).toBe(404);
    const other = await givenTenant(server);
    const theirs = await givenEventOnSale(server, other.id);
    expect((await site().post(ordersPath(theirs, other.id), checkoutPayload([{ ticketTypeId: tt(0, theirs), quantity: 1 }]))).status).toBe(404);
    expect((await site().post(ordersPath(theirs), checkoutPayload([{ ticketTypeId: tt(0, theirs), quantity: 1 }]))).status).toBe(404);
    const draft = await givenEventOnSale(server, tenant.id, { status: 'draft' });
    expect((await site().post(ordersPath(draft), checkoutPayload([{ ticketTypeId: tt(0, draft), quantity: 1 }]))).status).toBe(404);
    const neverPublished = await givenEventOnSale(server, tenant.id, { status: 'cancelled' });
    expect((await site().post(ordersPath(neverPublished), checkoutPayload([{ ticketTypeId: tt(0, neverPublished), quantity: 1 }]))).status).toBe(404);
    // Published, then unpublished or cancelled while a buyer was at checkout: no longer on sale.
    for (const status of ['cancelled', 'draft']) {
      const stopped = await givenEventOnSale(server, tenant.id, { status, wasPublished: true });
      const res = await site().post(ordersPath(stopped), checkoutPayload([{ ticketTypeId: tt(0, stopped), quantity: 1 }]));
      expect({ status, code: res.status, body: res.body }).toEqual({ status, code: 409, body: { error: { code: 'CONFLICT', message: M.eventNotOnSale, domainCode: 'EVENT_NOT_ON_SALE' } } });
    }
  });

  it('replaces the draft this browser placed before: its tickets are given back, then held for the new order', async () => {
    const e = await givenEventOnSale(server, tenant.id, { capacity: 5, ticketTypes: [{ name: 'A', price: 1000, quantity: 3 }, { name: 'B', price: 2000, quantity: 3 }] });
    const first = await site().post(ordersPath(e), checkoutPayload([{ ticketTypeId: tt(0, e), quantity: 3 }], { email: 'same@example.test' }));
    expect(first.status).toBe(201);
    // All of A is held by this buyer; placing again for A + B works because the first draft gives A back.
    const second = await site().post(ordersPath(e), {
      ...checkoutPayload([{ ticketTypeId: tt(0, e), quantity: 2 }, { ticketTypeId: tt(1, e), quantity: 2 }], { email: 'same@example.test' }),
      draftOrderUID: first.body.orderUID,
    });
    expect(second.status).toBe(201);
    expect((await orderRow(first.body.orderUID)).status).toBe('replaced');
    expect(await remaining(e)).toEqual({ byType: { [tt(0, e)]: 1, [tt(1, e)]: 1 }, capacity: 1 });
    // Someone else's email cannot release a draft.
    const third = await site().post(ordersPath(e), {
      ...checkoutPayload([{ ticketTypeId: tt(0, e), quantity: 1 }], { email: 'other@example.test' }),
      draftOrderUID: second.body.orderUID,
    });
    expect(third.status).toBe(201);
    expect((await orderRow(second.body.orderUID)).status).toBe('draft');
    expect(await remaining(e)).toEqual({ byType: { [tt(0, e)]: 0, [tt(1, e)]: 1 }, capacity: 0 });
  });

  it('confirms a free order (100% discount) at once, without the gateway', async () => {
    const res = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { discountCode: 'ALLFREE' }));
    expect(res.status).toBe(201);
    expect(res.body.breakdown.totalAmount).toBe(0);
    expect(res.body.message).toBe(`http://${tenant.url}.localhost:${server.port}/${event.urlName}/success?orderID=${res.body.orderUID}`);
    const order = await orderRow(res.body.orderUID);
    expect(order).toMatchObject({ status: 'processing', paymentMethod: 'free' });
    const [job] = await db().select().from(jobs).where(eq(jobs.dedupeKey, `orders.fulfil:${order.id}`));
    expect(job?.payload).toEqual({ tenantId: tenant.id, orderId: order.id });
  });

  it('keeps the signed-in attendee on the order', async () => {
    const u = await givenUser(server);
    const c = site();
    await c.login(u.email);
    const res = await c.post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }], { email: u.email }));
    expect(res.status).toBe(201);
    expect((await orderRow(res.body.orderUID)).userId).toBe(u.id);
  });
});

describe('the success page (GET /api/p/orders/:orderUID?token=)', () => {
  it("shows 'processing' until paid, then the order; only with the token", async () => {
    const res = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(VIP), quantity: 2 }]));
    const { orderUID, orderToken } = res.body as { orderUID: string; orderToken: string };
    const view = (token: string, c = site()) => c.get(`/api/p/orders/${orderUID}?token=${encodeURIComponent(token)}`);
    const pending = await view(orderToken);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({ orderUID, paymentStatus: 'processing', refund: 'none', eventName: event.name, details: null });
    expect((await view('wrong-token')).status).toBe(404);
    expect((await site().get(`/api/p/orders/${orderUID}`)).status).toBe(404);
    expect((await view(orderToken, server.client())).status).toBe(404);

    const order = await orderRow(orderUID);
    await db().transaction((tx) => markOrderPaid({ deps: server.app.deps, tx, orderId: order.id, provider: 'test', sessionId: 'cs_x', chargeId: 'pi_x', paymentMethod: 'card' }));
    const paid = await view(orderToken);
    expect(paid.body).toMatchObject({
      paymentStatus: 'paid',
      details: { email: 'buyer@example.test', fullName: 'Ada Lovelace', ticketCount: 2, subtotal: 24000, orderDetails: [{ order: { ticketId: tt(VIP) }, ticketName: 'VIP', price: 12000, quantity: 2 }] },
    });
    expect(pending.headers['cache-control']).toBe('no-store');
  });
});

describe('the success page from another host', () => {
  it("is 404 on another tenant's host even with the right token, paid or not; malformed ids are a 400", async () => {
    const res = await site().post(ordersPath(), checkoutPayload([{ ticketTypeId: tt(GA), quantity: 1 }]));
    expect(res.status).toBe(201);
    const { orderUID, orderToken } = res.body as { orderUID: string; orderToken: string };
    const otherTenant = await givenTenant(server);
    const path = `/api/p/orders/${orderUID}?token=${encodeURIComponent(orderToken)}`;
    const elsewhere = async () => {
      for (const c of [server.client(otherTenant.url), server.client('no-such-tenant')]) {
        const got = await c.get(path);
        expect({ host: c.host, status: got.status, body: got.body }).toEqual({ host: c.host, status: 404, body: notFoundError });
      }
    };
    await elsewhere();
    const order = await orderRow(orderUID);
    await db().transaction((tx) => markOrderPaid({ deps: server.app.deps, tx, orderId: order.id, provider: 'test', sessionId: 'cs_y', chargeId: 'pi_y', paymentMethod: 'card' }));
    await elsewhere();
    // On its own host the token still shows it.
    expect((await site().get(path)).body).toMatchObject({ orderUID, paymentStatus: 'paid' });

    const tooLong = await site().get(`/api/p/orders/${'T'.repeat(41)}?token=${encodeURIComponent(orderToken)}`);
    expect({ status: tooLong.status, body: tooLong.body }).toEqual({ status: 400, body: validationError('orderUID', 'Too big: expected string to have <=40 characters') });
    const nul = await site().get(`/api/p/orders/${orderUID}%00?token=${encodeURIComponent(orderToken)}`);
    expect({ status: nul.status, body: nul.body }).toEqual({ status: 400, body: validationError('orderUID', M.invalidValue) });
    const nulToken = await site().get(`/api/p/orders/${orderUID}?token=%00`);
    expect({ status: nulToken.status, body: nulToken.body }).toEqual({ status: 400, body: validationError('token', M.invalidValue) });
  });
});

describe('payment outcomes (called by the payments webhook)', () => {
  const place = async (e: GivenEventOnSale, quantity: number) => {
    const res = await site().post(ordersPath(e), checkoutPayload([{ ticketTypeId: tt(0, e), quantity }]));
    expect(res.status).toBe(201);
    return orderRow(res.body.orderUID);
  };
  const paid = (orderId: string, chargeId = 'pi_1') =>
    db().transaction((tx) => markOrderPaid({ deps: server.app.deps, tx, orderId, provider: 'test', sessionId: 'cs_1', chargeId, paymentMethod: 'card' }));
  const expireNow = (orderId: string) => db().transaction((tx) => markCheckoutExpired({ deps: server.app.deps, tx, orderId }));

  it('moves a draft to processing once, queues the tickets, and answers already after', async () => {
    const e = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'A', price: 1000, quantity: 5 }] });
    const order = await place(e, 2);
    expect(await paid(order.id)).toEqual({ outcome: 'paid' });
    expect(await orderRow(order.orderUid)).toMatchObject({ status: 'processing', chargeId: 'pi_1', paymentSessionId: 'cs_1', paymentMethod: 'card', paymentProvider: 'test' });
    expect(await paid(order.id)).toEqual({ outcome: 'already' });
    const fulfil = await db().select().from(jobs).where(eq(jobs.dedupeKey, `orders.fulfil:${order.id}`));
    expect(fulfil).toHaveLength(1);
    // A paid order is not released by its expiry or a late expiry webhook.
    expect(await expireNow(order.id)).toEqual({ outcome: 'unchanged' });
    expect((await remaining(e)).byType[tt(0, e)]).toBe(3);
  });

  it('releases a hold when the checkout expires; a late payment holds the tickets again if they are there', async () => {
    const e = await givenEventOnSale(server, tenant.id, { capacity: 5, ticketTypes: [{ name: 'A', price: 1000, quantity: 5 }], discounts: [{ code: 'LIMITED', kind: 'amount', value: 100, usageLimit: 1 }] });
    const res = await site().post(ordersPath(e), checkoutPayload([{ ticketTypeId: tt(0, e), quantity: 2 }], { discountCode: 'LIMITED' }));
    const order = await orderRow(res.body.orderUID);
    expect(await expireNow(order.id)).toEqual({ outcome: 'expired' });
    expect(await expireNow(order.id)).toEqual({ outcome: 'unchanged' });
    expect(await remaining(e)).toEqual({ byType: { [tt(0, e)]: 5 }, capacity: 5 });
    const [code] = await db().select().from(discountCodes).where(eq(discountCodes.eventId, e.id));
    expect(code?.usedCount).toBe(0);

    expect(await paid(order.id)).toEqual({ outcome: 'paid' });
    expect((await orderRow(order.orderUid)).status).toBe('processing');
    expect(await remaining(e)).toEqual({ byType: { [tt(0, e)]: 3 }, capacity: 3 });
    const [after] = await db().select().from(discountCodes).where(eq(discountCodes.eventId, e.id));
    expect(after?.usedCount).toBe(1);
  });

  it('answers refund for a late payment whose tickets were sold meanwhile, and changes nothing', async () => {
    const e = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'A', price: 1000, quantity: 2 }] });
    const late = await place(e, 2);
    await expireNow(late.id);
    const other = await place(e, 1);
    expect(await paid(late.id)).toEqual({ outcome: 'refund' });
    expect((await orderRow(late.orderUid)).status).toBe('expired');
    expect((await remaining(e)).byType[tt(0, e)]).toBe(1);
    expect((await orderRow(other.orderUid)).status).toBe('draft');
  });

  it('answers refund for a payment on a cancelled event and gives the tickets back', async () => {
    const e = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'A', price: 1000, quantity: 4 }] });
    const order = await place(e, 2);
    await db().update(events).set({ status: 'cancelled' }).where(eq(events.id, e.id));
    expect(await paid(order.id)).toEqual({ outcome: 'refund' });
    expect((await orderRow(order.orderUid)).status).toBe('expired');
    expect((await remaining(e)).byType[tt(0, e)]).toBe(4);
  });
});

type Lines = { subtotal: number; discount: number; surcharge: number; processingFee: number; vat: number; donation: number; donationFee: number; channelCharge: number };
/** What the attendee's Order Summary adds up: every line it shows (spec §3 breakdown, §5 Display). */
const sumOfLines = (b: Lines) => b.subtotal - b.discount + b.surcharge + b.processingFee + b.vat + b.donation + b.donationFee + b.channelCharge;

describe('the breakdown with an online charge (ticket settings chargeOnline)', () => {
  it('answers the charge on the price route, PLACE ORDER and the success page, and the lines add up to the total', async () => {
    const t = await givenTenantWithSettings(server);
    // The customer pays the service fee and card processing (option 2), 8.25% tax and a $1.50 online charge.
    await db()
      .update(ticketSettings)
      .set({ serviceFeePassAlongOptionOnline: 'SERVICE_FEE_OPTION_ONLINE_2', chargeTax: true, taxRateBp: 825, chargeOnline: true, chargeOnlineValue: 150 })
      .where(eq(ticketSettings.tenantId, t.id));
    const e = await givenEventOnSale(server, t.id, {
      ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 50 }],
      discounts: [
        { code: 'TEN', kind: 'percent', value: 10 },
        { code: 'FREE', kind: 'percent', value: 100 },
      ],
    });
    const c = server.client(t.url);
    const lines = [{ ticketTypeId: tt(0, e), quantity: 2 }];

    const priced = await c.post(`/api/p/events/${e.urlName}/price`, { lines, discountCode: 'TEN' });
    expect(priced.status).toBe(200);
    // 2 x $45.00 less 10% = $81.00; service fee 2.5% + $0.99 of $40.50 = $2.01 a ticket; tax 8.25% of
    // $81.00 = $6.68; online charge $1.50; card processing 2.9% grossed up on $93.20 = $2.79.
    expect(priced.body).toMatchObject({ subtotal: 9000, discount: 900, surcharge: 402, vat: 668, channelCharge: 150, donation: 0, donationFee: 0, processingFee: 279, totalAmount: 9599 });
    expect(sumOfLines(priced.body)).toBe(priced.body.totalAmount);

    const placed = await c.post(ordersPath(e, t.id), checkoutPayload(lines, { discountCode: 'TEN' }));
    expect(placed.status).toBe(201);
    expect(placed.body.breakdown).toEqual(priced.body);
    const order = await orderRow(placed.body.orderUID);
    expect(order.totalAmount).toBe(9599);

    await db().transaction((tx) => markOrderPaid({ deps: server.app.deps, tx, orderId: order.id, provider: 'test', sessionId: 'cs_c', chargeId: 'pi_c', paymentMethod: 'card' }));
    const view = await c.get(`/api/p/orders/${placed.body.orderUID}?token=${encodeURIComponent(placed.body.orderToken)}`);
    expect(view.body.details).toMatchObject({ subtotal: 9000, discount: 900, channelCharge: 150, donation: 0, donationFee: 0, totalAmount: 9599 });
    expect(sumOfLines(view.body.details)).toBe(view.body.details.totalAmount);

    // No online charge on an order that sells nothing (docs/pricing.md decision 8).
    const free = await c.post(`/api/p/events/${e.urlName}/price`, { lines, discountCode: 'FREE' });
    expect(free.body).toMatchObject({ channelCharge: 0, totalAmount: 0 });
  });
});

describe('discount code rules at PLACE ORDER (spec §8 Checkout)', () => {
  const HOUR = 3600_000;
  let e: GivenEventOnSale;
  const [EARLY, LAPSED, OFF, VIP_ONLY, LAPSING] = [0, 1, 2, 3, 4];
  const codeId = (i: number) => e.discountCodeIds[i]!;
  const place = (lines: Array<{ ticketTypeId: string; quantity: number }>, discountCode: string) =>
    site().post(ordersPath(e), checkoutPayload(lines, { discountCode, email: `code-${discountCode.toLowerCase()}@example.test` }));
  const usedCount = async (i: number) => (await db().select().from(discountCodes).where(eq(discountCodes.id, codeId(i))))[0]!.usedCount;

  beforeAll(async () => {
    e = await givenEventOnSale(server, tenant.id, {
      capacity: 100,
      ticketTypes: [
        { name: 'General Admission', price: 4500, quantity: 50 },
        { name: 'VIP', price: 12000, quantity: 10 },
      ],
      discounts: [
        { code: 'EARLY', kind: 'percent', value: 10 },
        { code: 'LAPSED', kind: 'percent', value: 10 },
        { code: 'OFF', kind: 'percent', value: 10 },
        { code: 'VIPONLY', kind: 'percent', value: 10, ticketTypeIndexes: [1] },
        { code: 'LAPSING', kind: 'percent', value: 10 },
      ],
    });
    await db().update(discountCodes).set({ startsAt: new Date(Date.now() + HOUR) }).where(eq(discountCodes.id, codeId(EARLY)));
    await db().update(discountCodes).set({ endsAt: new Date(Date.now() - HOUR) }).where(eq(discountCodes.id, codeId(LAPSED)));
    await db().update(discountCodes).set({ active: false }).where(eq(discountCodes.id, codeId(OFF)));
  });

  it.each([
    ['EARLY', 'before its startsAt'],
    ['LAPSED', 'after its endsAt'],
    ['OFF', 'switched off'],
  ])("refuses %s (%s) with 'Invalid Input' and takes nothing", async (code) => {
    const before = await remaining(e);
    const res = await place([{ ticketTypeId: tt(GA, e), quantity: 1 }], code);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: M.invalidInput, fields: { discountCode: M.invalidInputBody }, domainCode: 'DISCOUNT_INVALID' } });
    expect(await remaining(e)).toEqual(before);
    expect(await db().select().from(orders).where(eq(orders.email, `code-${code.toLowerCase()}@example.test`))).toHaveLength(0);
  });

  it('takes a code limited to some ticket types off those lines only', async () => {
    const res = await place(
      [
        { ticketTypeId: tt(GA, e), quantity: 2 },
        { ticketTypeId: tt(VIP, e), quantity: 1 },
      ],
      'viponly',
    );
    expect(res.status).toBe(201);
    expect(res.body.breakdown).toMatchObject({ subtotal: 21000, discount: 1200, discountCode: 'VIPONLY' });
    expect(await orderRow(res.body.orderUID)).toMatchObject({ discount: 1200, discountCode: 'VIPONLY' });
  });

  it("refuses a code limited to ticket types the cart does not have with 'Invalid Input': nothing held, no use spent", async () => {
    // docs/decisions.md "A discount code must apply to the cart": such a code would take nothing off.
    const before = await remaining(e);
    const uses = await usedCount(VIP_ONLY);
    const ordersOfEvent = async () => (await db().select().from(orders).where(eq(orders.eventId, e.id))).length;
    const placed = await ordersOfEvent();
    const res = await place([{ ticketTypeId: tt(GA, e), quantity: 2 }], 'VIPONLY');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: M.invalidInput, fields: { discountCode: M.invalidInputBody }, domainCode: 'DISCOUNT_INVALID' } });
    expect(await remaining(e)).toEqual(before);
    expect(await usedCount(VIP_ONLY)).toBe(uses);
    expect(await ordersOfEvent()).toBe(placed);
    // A zero quantity of the code's ticket type is not in the cart either.
    const zero = await place(
      [
        { ticketTypeId: tt(GA, e), quantity: 1 },
        { ticketTypeId: tt(VIP, e), quantity: 0 },
      ],
      'VIPONLY',
    );
    expect(zero.status).toBe(400);
    expect(await usedCount(VIP_ONLY)).toBe(uses);
    expect(await ordersOfEvent()).toBe(placed);
  });

  it("refuses a code that lapses between the checkout's read and the hold with 'Invalid Input', and takes nothing", async () => {
    // The code ends after createOrder has read and checked it but before mq_take_holds runs: the
    // hold's own check (verdict 'changed') refuses it and the answer is the wrong-code answer.
    const client = (db() as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const query = client.query;
    client.query = async (...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      if (text.includes('mq_take_holds')) await query.call(client, `update discount_codes set ends_at = now() - interval '1 second' where id = '${codeId(LAPSING)}'`);
      return query.apply(client, args);
    };
    const before = await remaining(e);
    let res;
    try {
      res = await place([{ ticketTypeId: tt(GA, e), quantity: 1 }], 'LAPSING');
    } finally {
      client.query = query;
    }
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ message: M.invalidInput, fields: { discountCode: M.invalidInputBody } });
    expect(await remaining(e)).toEqual(before);
    expect(await usedCount(LAPSING)).toBe(0);
    expect(await db().select().from(orders).where(eq(orders.email, 'code-lapsing@example.test'))).toHaveLength(0);
  });
});
