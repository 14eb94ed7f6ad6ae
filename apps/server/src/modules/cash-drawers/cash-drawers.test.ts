import { randomUUID } from 'node:crypto';
import { DRAWER_PATHS, M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cashDrawerMovements, cashDrawers, events, orders, ticketTypes } from '../../db/schema/index.js';
import { givenEventOnSale, givenTenant, givenTenantWithSettings, givenUser, notFoundError, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { givenActors, signedIn, statusesOf, type Actors } from '../../../test/actors.js';
import { giveCashFromDrawer, takeCashIntoDrawer } from './cash-movements.js';

// Issue 23 part B: a cash drawer per staff member and shift.

let server: TestServer;
let acme: GivenTenant;
let bolt: GivenTenant;
let admin: Client;
let boltAdmin: Client;
let seller: { id: string; email: string };
let sellerClient: Client;
let actors: Actors;

async function givenSeller(tenant: GivenTenant) {
  const user = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_box_office'] } });
  return { user, client: await signedIn(server, user, tenant.url) };
}

/** A paid cash order of the tenant (as the box office's cash sale writes it) taken into the seller's drawer. */
async function givenCashSale(tenantId: string, userId: string, total: number) {
  const db = server.app.deps.db;
  const eventId = randomUUID();
  await db.insert(events).values({ tenantId, id: eventId, name: 'Door sale', urlName: `e${eventId.slice(0, 8)}`, status: 'published' });
  const id = randomUUID();
  const orderUid = `C${id.replace(/-/g, '').slice(0, 9).toUpperCase()}`;
  await db.transaction(async (tx) => {
    await tx.insert(orders).values({ tenantId, id, orderUid, eventId, status: 'completed', channel: 'BACKEND', paymentMethod: 'cash', totalAmount: total, tenantTotal: total, paidAt: new Date() });
    await takeCashIntoDrawer(tx, { tenantId, userId, orderId: id, amount: total });
  });
  return { id, orderUid, eventId };
}

beforeAll(async () => {
  server = await startServer();
  acme = await givenTenant(server);
  bolt = await givenTenant(server);
  actors = await givenActors(server, acme, bolt);
  admin = actors.tenant_admin.tenant;
  boltAdmin = actors.other_tenant_admin.tenant;
  const s = await givenSeller(acme);
  seller = s.user;
  sellerClient = s.client;
});
afterAll(async () => {
  await server.close();
});

describe('a staff member opens a drawer, takes cash and closes it', () => {
  it('keeps float, cash sales, cash refunds, expected cash, the counted amount and the difference', async () => {
    const none = await sellerClient.get(DRAWER_PATHS.current(acme.id));
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ drawer: null });

    const opened = await sellerClient.post(DRAWER_PATHS.list(acme.id), { details: { openingFloat: 10_000 } });
    expect(opened.status).toBe(200);
    const drawerId = opened.body.id as string;
    expect(opened.body.details).toMatchObject({ status: 'open', openingFloat: 10_000, cashSales: 0, expectedCash: 10_000, countedAmount: null, difference: null, staffEmail: seller.email });

    const a = await givenCashSale(acme.id, seller.id, 4_500);
    const b = await givenCashSale(acme.id, seller.id, 2_000);
    await server.app.deps.db.transaction((tx) => giveCashFromDrawer(tx, { tenantId: acme.id, userId: seller.id, orderId: b.id, refundId: randomUUID(), amount: 500 }));

    const current = await sellerClient.get(DRAWER_PATHS.current(acme.id));
    expect(current.body.drawer.details).toMatchObject({ cashSales: 6_500, cashRefunds: 500, expectedCash: 16_000, salesCount: 2, refundsCount: 1 });
    expect(current.body.drawer.details.movements.map((m: { orderUID: string; amount: number }) => [m.orderUID, m.amount])).toEqual([
      [a.orderUid, 4_500],
      [b.orderUid, 2_000],
      [b.orderUid, -500],
    ]);

    const closed = await sellerClient.post(DRAWER_PATHS.close(acme.id, drawerId), { details: { countedAmount: 15_900, note: 'one $1 short' } });
    expect(closed.status).toBe(200);
    expect(closed.body.details).toMatchObject({ status: 'closed', expectedCash: 16_000, countedAmount: 15_900, difference: -100, note: 'one $1 short' });
    expect(closed.body.details.closedAt).not.toBeNull();

    // Closed for good: a cash sale now needs a new drawer, and closing twice is refused.
    await expect(givenCashSale(acme.id, seller.id, 1_000)).rejects.toMatchObject({ domainCode: 'DRAWER_NOT_OPEN', message: M.drawerNotOpen });
    const again = await sellerClient.post(DRAWER_PATHS.close(acme.id, drawerId), { details: { countedAmount: 0 } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ domainCode: 'DRAWER_CLOSED', message: M.drawerClosed });
    // Nothing moved after the close.
    const detail = await admin.get(DRAWER_PATHS.drawer(acme.id, drawerId));
    expect(detail.body.details).toMatchObject({ expectedCash: 16_000, countedAmount: 15_900, difference: -100, salesCount: 2 });
    expect((await sellerClient.get(DRAWER_PATHS.current(acme.id))).body).toEqual({ drawer: null });
  });

  it('refuses a second open drawer for the same person, even two at once', async () => {
    const { client } = await givenSeller(acme);
    const [x, y] = await Promise.all([
      client.post(DRAWER_PATHS.list(acme.id), { details: { openingFloat: 0 } }),
      client.post(DRAWER_PATHS.list(acme.id), { details: { openingFloat: 0 } }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const refused = x.status === 409 ? x : y;
    expect(refused.body.error).toMatchObject({ domainCode: 'DRAWER_ALREADY_OPEN', message: M.drawerAlreadyOpen });
  });

  it('closes with a zero difference when the count matches', async () => {
    const { user, client } = await givenSeller(acme);
    const opened = await client.post(DRAWER_PATHS.list(acme.id), { details: { openingFloat: 5_000 } });
    await givenCashSale(acme.id, user.id, 3_250);
    const closed = await client.post(DRAWER_PATHS.close(acme.id, opened.body.id), { details: { countedAmount: 8_250 } });
    expect(closed.body.details).toMatchObject({ expectedCash: 8_250, countedAmount: 8_250, difference: 0, note: '' });
  });
});

describe('bad input: a clear 4xx and nothing written', () => {
  it.each([
    [{}, 'details'],
    [{ details: {} }, 'details.openingFloat'],
    [{ details: { openingFloat: -1 } }, 'details.openingFloat'],
    [{ details: { openingFloat: 1.5 } }, 'details.openingFloat'],
    [{ details: { openingFloat: '100' } }, 'details.openingFloat'],
    [{ details: { openingFloat: 100_000_001 } }, 'details.openingFloat'],
  ])('opening with %j', async (body, field) => {
    const { user, client } = await givenSeller(acme);
    const res = await client.post(DRAWER_PATHS.list(acme.id), body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION');
    expect(Object.keys(res.body.error.fields ?? {})).toContain(field);
    expect(await server.app.deps.db.select().from(cashDrawers).where(eq(cashDrawers.userId, user.id))).toEqual([]);
  });

  it.each([
    [{ details: {} }, 'details.countedAmount'],
    [{ details: { countedAmount: -5 } }, 'details.countedAmount'],
    [{ details: { countedAmount: 10, note: 'x'.repeat(501) } }, 'details.note'],
  ])('closing with %j', async (body, field) => {
    const { client } = await givenSeller(acme);
    const opened = await client.post(DRAWER_PATHS.list(acme.id), { details: { openingFloat: 0 } });
    const res = await client.post(DRAWER_PATHS.close(acme.id, opened.body.id), body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields ?? {})).toContain(field);
    expect((await client.get(DRAWER_PATHS.current(acme.id))).body.drawer.details.status).toBe('open');
  });

  it('an unknown or malformed drawer id is 404', async () => {
    expect((await admin.get(DRAWER_PATHS.drawer(acme.id, randomUUID()))).body).toEqual(notFoundError);
    expect((await admin.get(DRAWER_PATHS.drawer(acme.id, 'not-an-id'))).status).toBe(404);
    expect((await sellerClient.post(DRAWER_PATHS.close(acme.id, 'not-an-id'), { details: { countedAmount: 0 } })).status).toBe(404);
  });

  it('a bad list filter is a 400', async () => {
    const res = await admin.get(`${DRAWER_PATHS.list(acme.id)}?filters=${encodeURIComponent('details.nope=1')}`);
    expect(res.status).toBe(400);
  });
});

describe('who sees and closes which drawer', () => {
  let drawerId: string;
  beforeAll(async () => {
    const { client } = await givenSeller(acme);
    drawerId = (await client.post(DRAWER_PATHS.list(acme.id), { details: { openingFloat: 1_234 } })).body.id;
  });

  it('the tenant admin lists every drawer, filters them and reads one; another staff member does not', async () => {
    const list = await admin.get(`${DRAWER_PATHS.list(acme.id)}?limit=100&filters=${encodeURIComponent('details.status=open')}`);
    expect(list.status).toBe(200);
    expect(list.body.result.map((d: { id: string }) => d.id)).toContain(drawerId);
    expect(list.body.result.every((d: { details: { status: string } }) => d.details.status === 'open')).toBe(true);
    expect((await admin.get(DRAWER_PATHS.drawer(acme.id, drawerId))).body.details.openingFloat).toBe(1_234);
    expect((await sellerClient.get(DRAWER_PATHS.drawer(acme.id, drawerId))).body).toEqual(notFoundError);
    expect((await sellerClient.get(DRAWER_PATHS.list(acme.id))).status).toBe(403);
  });

  it('only its owner closes it: the admin is told so and nothing changes', async () => {
    const res = await admin.post(DRAWER_PATHS.close(acme.id, drawerId), { details: { countedAmount: 1_234 } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(M.drawerNotYours);
    expect((await admin.get(DRAWER_PATHS.drawer(acme.id, drawerId))).body.details.status).toBe('open');
  });

  it("another tenant's admin gets 404 for this tenant's drawer, in its own tenant too", async () => {
    expect((await boltAdmin.get(DRAWER_PATHS.drawer(bolt.id, drawerId))).body).toEqual(notFoundError);
    expect((await boltAdmin.post(DRAWER_PATHS.close(bolt.id, drawerId), { details: { countedAmount: 0 } })).body).toEqual(notFoundError);
    expect((await boltAdmin.get(`${DRAWER_PATHS.list(bolt.id)}?limit=100`)).body.result.map((d: { id: string }) => d.id)).not.toContain(drawerId);
  });

  it('the role matrix of the list', async () => {
    expect(await statusesOf(actors, 'tenant', (c) => c.get(DRAWER_PATHS.list(acme.id)))).toEqual({
      super_user: 200,
      platform_manager: 200,
      platform_report: 200,
      platform_user: 200,
      tenant_admin: 200,
      tenant_staff: 403,
      other_tenant_admin: 404,
      attendee: 404,
      anonymous: 401,
    });
  });
});

describe('CSV', () => {
  it('lists every drawer with its money as plain dollars and text made inert against formulas', async () => {
    const user = await givenUser(server, { tenant: { id: acme.id, roles: ['tenant_box_office'] } });
    await server.app.deps.db.update((await import('../../db/schema/index.js')).users).set({ firstName: '=HYPERLINK("http://x")', lastName: '' }).where(eq((await import('../../db/schema/index.js')).users.id, user.id));
    const client = await signedIn(server, user, acme.url);
    const opened = await client.post(DRAWER_PATHS.list(acme.id), { details: { openingFloat: 2_000 } });
    await givenCashSale(acme.id, user.id, 1_050);
    await client.post(DRAWER_PATHS.close(acme.id, opened.body.id), { details: { countedAmount: 3_000, note: '-2+3' } });

    const res = await admin.get(DRAWER_PATHS.csv(acme.id));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="cash-drawers-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = res.raw.toString('utf8');
    expect(text.startsWith('\uFEFFDrawer ID,Staff,Staff Email,Status,')).toBe(true);
    const line = text.split('\r\n').find((l) => l.startsWith(opened.body.id))!;
    expect(line).toContain(`"'=HYPERLINK(""http://x"")",${user.email},Closed,`);
    expect(line.endsWith(",20.00,10.50,1,0.00,0,30.50,30.00,-0.50,'-2+3")).toBe(true);
    expect((await sellerClient.get(DRAWER_PATHS.csv(acme.id))).status).toBe(403);
    expect((await boltAdmin.get(DRAWER_PATHS.csv(acme.id))).status).toBe(404);
  });
});

describe('a cash movement never lands in a closed drawer', () => {
  it('a sale and a close racing on one drawer: the sale is counted or refused, never lost', async () => {
    const { user, client } = await givenSeller(acme);
    const opened = await client.post(DRAWER_PATHS.list(acme.id), { details: { openingFloat: 0 } });
    const [sale, close] = await Promise.allSettled([
      givenCashSale(acme.id, user.id, 700),
      client.post(DRAWER_PATHS.close(acme.id, opened.body.id), { details: { countedAmount: 700 } }),
    ]);
    const drawer = (await client.get(DRAWER_PATHS.drawer(acme.id, opened.body.id))).body.details;
    const moved = await server.app.deps.db.select().from(cashDrawerMovements).where(eq(cashDrawerMovements.drawerId, opened.body.id));
    expect(close.status).toBe('fulfilled');
    if (sale.status === 'fulfilled') expect(drawer).toMatchObject({ expectedCash: 700, salesCount: 1 });
    else expect(drawer).toMatchObject({ expectedCash: 0, salesCount: 0, difference: 700 });
    expect(moved.length).toBe(drawer.salesCount);
  });
});

describe("the box office's cash sale needs the seller's open drawer", () => {
  it('refused with DRAWER_NOT_OPEN and nothing written without one; counted in it with one; card and comps need none', async () => {
    const door = await givenTenantWithSettings(server);
    const event = await givenEventOnSale(server, door.id, { ticketTypes: [{ name: 'General', price: 2_500, quantity: 10 }] });
    const user = await givenUser(server, { tenant: { id: door.id, roles: ['tenant_box_office'] } });
    const client = await signedIn(server, user, door.url);
    const sell = (body: Record<string, unknown>) =>
      client.post(`/api/tenants/${door.id}/events/${event.id}/box-office/sales`, {
        idempotencyKey: randomUUID(),
        lines: [{ ticketTypeId: event.ticketTypeIds[0], quantity: 2 }],
        paymentMethod: 'cash',
        cashTendered: 10_000,
        ...body,
      });
    const left = async () => (await server.app.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, event.ticketTypeIds[0]!)))[0]!.remaining;

    const refused = await sell({});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ domainCode: 'DRAWER_NOT_OPEN', message: M.drawerNotOpen });
    expect(await server.app.deps.db.select().from(orders).where(eq(orders.eventId, event.id))).toEqual([]);
    expect(await left()).toBe(10);
    // A card-terminal sale takes no cash: no drawer needed.
    expect((await sell({ paymentMethod: 'card_terminal', cashTendered: null, terminalReference: 'T-1' })).status).toBe(200);

    const opened = await client.post(DRAWER_PATHS.list(door.id), { details: { openingFloat: 2_000 } });
    const sold = await sell({});
    expect(sold.status).toBe(200);
    const total = sold.body.totalAmount as number;
    const drawer = (await client.get(DRAWER_PATHS.current(door.id))).body.drawer;
    expect(drawer.details).toMatchObject({ cashSales: total, expectedCash: 2_000 + total, salesCount: 1 });
    expect(drawer.details.movements[0]).toMatchObject({ kind: 'sale', orderUID: sold.body.orderUID, amount: total });
    const closed = await client.post(DRAWER_PATHS.close(door.id, opened.body.id), { details: { countedAmount: 2_000 + total } });
    expect(closed.body.details.difference).toBe(0);
  });
});
