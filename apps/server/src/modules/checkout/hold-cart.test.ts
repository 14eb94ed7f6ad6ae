import { M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, orders, ticketTypes } from '../../db/schema/index.js';
import {
  checkoutPayload,
  givenEventOnSale,
  givenTenantWithSettings,
  givenUser,
  notFoundError,
  startServer,
  type Client,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { expireHold } from '../orders/holds.js';

// Issue 21.8: the checkout holds the cart when it opens (POST …/holds), so its timer counts down on
// the first visit; PLACE ORDER takes the hold's place; the hold runs out like any other.

let server: TestServer, tenant: GivenTenant, other: GivenTenant;
beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  other = await givenTenantWithSettings(server);
});
afterAll(() => server.close());

const db = () => server.app.deps.db;
const site = (): Client => server.client(tenant.url);
const holdsPath = (e: { id: string }, tenantId = tenant.id) => `/api/p/tenants/${tenantId}/events/${e.id}/holds`;
const ordersPath = (e: { id: string }) => `/api/p/tenants/${tenant.id}/events/${e.id}/orders`;
const remaining = async (e: GivenEventOnSale) => (await db().select({ r: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.id, e.ticketTypeIds[0]!)))[0]!.r;
const orderRow = async (orderUid: string) => (await db().select().from(orders).where(eq(orders.orderUid, orderUid)))[0]!;
const event = (quantity = 10) => givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'General Admission', price: 4500, quantity }] });
const lines = (e: GivenEventOnSale, quantity = 2) => [{ ticketTypeId: e.ticketTypeIds[0]!, quantity }];

describe('POST …/events/:eventId/holds (issue 21.8)', () => {
  it('holds the tickets for the hold time, as a draft with no buyer yet, priced by the server', async () => {
    const e = await event();
    const before = Date.now();
    const res = await site().post(holdsPath(e), { lines: lines(e) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ orderUID: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{12}$/), orderToken: expect.any(String), breakdown: { ticketCount: 2, subtotal: 9000 } });
    const ends = Date.parse(res.body.holdExpiresAt);
    expect(ends).toBeGreaterThanOrEqual(before + server.app.deps.config.holdMinutes * 60_000 - 1000);
    expect(ends).toBeLessThanOrEqual(Date.now() + server.app.deps.config.holdMinutes * 60_000 + 1000);
    expect(await remaining(e)).toBe(8);
    expect(await orderRow(res.body.orderUID)).toMatchObject({ status: 'draft', email: '', firstName: '', paymentProvider: null, paymentSessionId: null, ticketCount: 2 });
  });

  it('PLACE ORDER takes its place: the tickets are counted once, and the hold is replaced', async () => {
    const e = await event();
    const held = await site().post(holdsPath(e), { lines: lines(e) });
    const placed = await site().post(ordersPath(e), { ...checkoutPayload(lines(e)), draftOrderUID: held.body.orderUID });
    expect(placed.status).toBe(201);
    expect(await remaining(e)).toBe(8);
    expect((await orderRow(held.body.orderUID)).status).toBe('replaced');
    expect(await orderRow(placed.body.orderUID)).toMatchObject({ status: 'draft', email: 'buyer@example.test' });
  });

  it('PLACE ORDER keeps the last tickets its hold has: they are the buyer\'s, even with none left for anyone else', async () => {
    const e = await event(2);
    const held = await site().post(holdsPath(e), { lines: lines(e, 2) });
    expect(await remaining(e)).toBe(0);
    // Someone else finds none.
    expect((await site().post(holdsPath(e), { lines: lines(e, 1) })).status).toBe(409);
    const placed = await site().post(ordersPath(e), { ...checkoutPayload(lines(e, 2)), draftOrderUID: held.body.orderUID });
    expect(placed.status).toBe(201);
    expect(await remaining(e)).toBe(0);
    expect((await orderRow(held.body.orderUID)).status).toBe('replaced');
    // Its expiry job finds nothing to give back; the order's own hold runs out as usual.
    const hold = await orderRow(held.body.orderUID);
    await db().update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, hold.id));
    expect(await expireHold({ deps: server.app.deps, orderId: hold.id })).toBe(false);
    expect(await remaining(e)).toBe(0);
    const order = await orderRow(placed.body.orderUID);
    await db().update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, order.id));
    expect(await expireHold({ deps: server.app.deps, orderId: order.id })).toBe(true);
    expect(await remaining(e)).toBe(2);
  });

  it('PLACE ORDER in place of a hold takes the discount code\'s use, and refuses a code with none left, keeping the hold', async () => {
    const e = await givenEventOnSale(server, tenant.id, {
      ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 10 }],
      discounts: [{ code: 'ONCE', kind: 'percent', value: 10, usageLimit: 1 }],
    });
    const first = await site().post(holdsPath(e), { lines: lines(e) });
    const placed = await site().post(ordersPath(e), { ...checkoutPayload(lines(e), { discountCode: 'once' }), draftOrderUID: first.body.orderUID });
    expect(placed.status).toBe(201);
    expect(placed.body.breakdown).toMatchObject({ discount: 900, discountCode: 'ONCE' });
    expect(await orderRow(placed.body.orderUID)).toMatchObject({ discountCode: 'ONCE', discount: 900 });

    const second = await site().post(holdsPath(e), { lines: lines(e) });
    const refused = await site().post(ordersPath(e), { ...checkoutPayload(lines(e), { discountCode: 'ONCE' }), draftOrderUID: second.body.orderUID });
    expect(refused.status).toBe(400);
    expect(refused.body.error.domainCode).toBe('DISCOUNT_INVALID');
    expect((await orderRow(second.body.orderUID)).status).toBe('draft');
    expect(await remaining(e)).toBe(6);
  });

  it('a hold that ran out is not taken over: PLACE ORDER takes the tickets afresh', async () => {
    const e = await event();
    const held = await site().post(holdsPath(e), { lines: lines(e) });
    const hold = await orderRow(held.body.orderUID);
    await db().update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, hold.id));
    await expireHold({ deps: server.app.deps, orderId: hold.id });
    const placed = await site().post(ordersPath(e), { ...checkoutPayload(lines(e)), draftOrderUID: held.body.orderUID });
    expect(placed.status).toBe(201);
    expect((await orderRow(held.body.orderUID)).status).toBe('expired');
    expect(await remaining(e)).toBe(8);
  });

  it('a changed cart holds again in place of the earlier hold, with its token; without the token the earlier hold stays', async () => {
    const e = await event();
    const first = await site().post(holdsPath(e), { lines: lines(e, 2) });
    const second = await site().post(holdsPath(e), { lines: lines(e, 3), draft: { orderUID: first.body.orderUID, token: first.body.orderToken } });
    expect(second.status).toBe(201);
    expect((await orderRow(first.body.orderUID)).status).toBe('replaced');
    expect(await remaining(e)).toBe(7);
    // Someone else's hold id with a wrong token releases nothing.
    const third = await site().post(holdsPath(e), { lines: lines(e, 1), draft: { orderUID: second.body.orderUID, token: 'not-the-token' } });
    expect(third.status).toBe(201);
    expect((await orderRow(second.body.orderUID)).status).toBe('draft');
    expect(await remaining(e)).toBe(6);
  });

  it('runs out like any hold: the expiry gives the tickets back', async () => {
    const e = await event();
    const held = await site().post(holdsPath(e), { lines: lines(e) });
    const row = await orderRow(held.body.orderUID);
    await db().update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, row.id));
    expect(await expireHold({ deps: server.app.deps, orderId: row.id })).toBe(true);
    expect(await remaining(e)).toBe(10);
    expect((await orderRow(held.body.orderUID)).status).toBe('expired');
  });

  it('refuses what PLACE ORDER refuses: too few tickets (409 with the problems), an event off sale, bad input; takes nothing', async () => {
    const e = await event(2);
    const short = await site().post(holdsPath(e), { lines: lines(e, 3) });
    expect(short.status).toBe(409);
    expect(short.body.error.domainCode).toBe('CART_CONFLICT');
    expect(short.body.problems).toEqual([expect.objectContaining({ ticketTypeId: e.ticketTypeIds[0], requested: 3, available: 2 })]);
    expect(await remaining(e)).toBe(2);

    const off = await event();
    await db().update(events).set({ status: 'cancelled' }).where(eq(events.id, off.id));
    const cancelled = await site().post(holdsPath(off), { lines: lines(off) });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.error.domainCode).toBe('EVENT_NOT_ON_SALE');

    for (const body of [{}, { lines: [] }, { lines: [{ ticketTypeId: e.ticketTypeIds[0], quantity: -1 }] }, { lines: [{ ticketTypeId: 'nope', quantity: 1 }] }, { lines: lines(e), draft: { orderUID: 'x', token: 'y' } }, { lines: 'all' }]) {
      const res = await site().post(holdsPath(e), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await remaining(e)).toBe(2);
    expect(await db().select().from(orders).where(eq(orders.eventId, e.id))).toEqual([]);
  });

  it("another tenant's event is not found on this host, nor this tenant's on another's; the platform host has no site", async () => {
    const theirs = await givenEventOnSale(server, other.id);
    expect((await site().post(holdsPath(theirs), { lines: lines(theirs) })).body).toEqual(notFoundError);
    expect((await site().post(holdsPath(theirs, other.id), { lines: lines(theirs) })).status).toBe(404);
    const e = await event();
    expect((await server.client(other.url).post(holdsPath(e), { lines: lines(e) })).status).toBe(404);
    expect((await server.client().post(holdsPath(e), { lines: lines(e) })).status).toBe(404);
    expect(await remaining(e)).toBe(10);
  });

  it('is behind the waiting room, as PLACE ORDER is', async () => {
    const e = await event();
    const u = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
    const organiser = server.client(tenant.url);
    await organiser.login(u.email);
    const on = await organiser.put(`/api/tenants/${tenant.id}/events/${e.id}/waiting-room`, { enabled: true, opensAt: new Date(Date.now() + 3600_000).toISOString(), admitPerMinute: 10 });
    expect(on.status).toBe(200);
    const res = await site().post(holdsPath(e), { lines: lines(e) });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(M.waitingRoomRequired);
    expect(await remaining(e)).toBe(10);
  });
});
