import { randomUUID } from 'node:crypto';
import { M, PAYOUT_PATHS } from '@marquee/core';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, orders, outbox, paymentSettings, payoutHolds, payoutLines, payouts, refunds, testTransfers } from '../../db/schema/index.js';
import { givenHeldOrder, givenTenantWithSettings, notFoundError, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { givenActors, statusesOf, type Actors } from '../../../test/actors.js';
import { runAutomaticPayouts } from './automatic-payouts.js';
import { syncPayoutLines } from './sync-payout-lines.js';
import { reconcilePayouts, SENDING_STALE_MS } from './transfer-payouts.js';

let server: TestServer;
let actors: Actors;
let admin: Client;
let acme: GivenTenant;
let bolt: GivenTenant;
const DAY = 86_400_000;

/**
 * A paid order as the payment webhook leaves it (status processing, paid_at, charge id), and its
 * payout line as the minute tick writes it (unless `synced: false`).
 */
async function givenPaidOrder(tenantId: string, opts: { total: number; platform: number; paidDaysAgo: number; eventName?: string; tickets?: number; synced?: boolean }) {
  const db = server.app.deps.db;
  const eventId = randomUUID();
  await db.insert(events).values({ tenantId, id: eventId, name: opts.eventName ?? `Gala ${eventId.slice(0, 4)}`, urlName: `e${eventId.slice(0, 8)}`, status: 'published' });
  const id = randomUUID();
  const orderUid = `P${id.replace(/-/g, '').slice(0, 9).toUpperCase()}`;
  const paidAt = new Date(Date.now() - opts.paidDaysAgo * DAY);
  await db.insert(orders).values({
    tenantId,
    id,
    orderUid,
    eventId,
    status: 'completed',
    email: 'buyer@example.test',
    ticketCount: opts.tickets ?? 2,
    subtotal: opts.total,
    totalAmount: opts.total,
    tenantTotal: opts.total - opts.platform,
    platformTotal: opts.platform,
    paymentProvider: 'test',
    chargeId: `pi_test_${id.slice(0, 8)}`,
    paymentMethod: 'card',
    paidAt,
    createdAt: paidAt,
  });
  if (opts.synced !== false) await syncPayoutLines({ deps: server.app.deps });
  return { id, orderUid, eventId, paidAt };
}

const linesOf = (orderId: string) => server.app.deps.db.select().from(payoutLines).where(eq(payoutLines.orderId, orderId));

async function connect(tenantId: string, account: string | null) {
  await server.app.deps.db.update(paymentSettings).set({ paymentRef: account }).where(eq(paymentSettings.tenantId, tenantId));
}

const pending = async (filters: string) => (await admin.get(`${PAYOUT_PATHS.pending()}?limit=100&filters=${encodeURIComponent(filters)}`)).body.result;

beforeAll(async () => {
  server = await startServer();
  acme = await givenTenantWithSettings(server);
  bolt = await givenTenantWithSettings(server);
  actors = await givenActors(server, acme, bolt);
  admin = actors.super_user.platform;
});
afterAll(async () => {
  await server.close();
});

describe('payout lines', () => {
  it('a paid order becomes a line: fee 2.9% + 30c out of the tenant share, Pending until PAYOUT_DELAY_DAYS passed, then Ready For Payout', async () => {
    const fresh = await givenPaidOrder(acme.id, { total: 10_000, platform: 1_000, paidDaysAgo: 0, eventName: 'Fresh Gala' });
    const old = await givenPaidOrder(acme.id, { total: 10_000, platform: 1_000, paidDaysAgo: 3 });
    const [row] = await pending(`details.orderUID=${fresh.orderUid}`);
    expect(row).toEqual({
      id: expect.any(String),
      details: {
        orderUID: fresh.orderUid,
        orderId: fresh.id,
        kind: 'sale',
        paymentMethod: 'card',
        channel: 'ONLINE',
        balanceAvailableOn: new Date(fresh.paidAt.getTime() + 2 * DAY).toISOString(),
        dateCreated: fresh.paidAt.toISOString(),
        tenantURL: acme.url,
        tenantName: acme.name,
        tenantId: acme.id,
        eventName: 'Fresh Gala',
        eventId: fresh.eventId,
        chargeId: `pi_test_${fresh.id.slice(0, 8)}`,
        status: 'Pending',
        facilitator: 'platform',
        grossAmount: 10_000,
        tenantTotal: 8_680,
        platformTotal: 1_000,
        gatewayFee: 320,
        netAmount: 9_680,
        payoutCompleted: false,
        onHold: false,
        payoutId: null,
        lastFailure: null,
      },
    });
    expect((await pending(`details.orderUID=${old.orderUid}`))[0].details.status).toBe('Ready For Payout');
    // spec §5: pending = available later than now; ready = not later than now, platform-facilitated.
    const now = new Date().toISOString();
    const ready = (await pending(`details.balanceAvailableOn<=${now};details.facilitator=platform;details.tenantId=${acme.id}`)).map((r: any) => r.details.orderUID);
    expect(ready).toContain(old.orderUid);
    expect(ready).not.toContain(fresh.orderUid);
    const later = (await pending(`details.balanceAvailableOn>${now};details.tenantId=${acme.id}`)).map((r: any) => r.details.orderUID);
    expect(later).toEqual([fresh.orderUid]);
    // The status column's own filter: 'Ready For Payout' rows are exactly the transferable ones.
    const readyRows = (await pending(`details.ready=true;details.tenantId=${acme.id}`)).map((r: any) => r.details.orderUID);
    expect(readyRows).toContain(old.orderUid);
    expect(readyRows).not.toContain(fresh.orderUid);
    expect((await pending(`details.ready=false;details.tenantId=${acme.id}`)).map((r: any) => r.details.orderUID)).toContain(fresh.orderUid);
  });

  it('Pending Payouts is a read: a paid order whose line no job has written yet is not written by the list (issue 21, left from the last notes)', async () => {
    const o = await givenPaidOrder(acme.id, { total: 4_000, platform: 400, paidDaysAgo: 3, synced: false });
    const before = await server.app.deps.db.select({ n: sql<number>`count(*)::int` }).from(payoutLines);
    expect(await pending(`details.orderUID=${o.orderUid}`)).toEqual([]);
    expect(await admin.get(`${PAYOUT_PATHS.pending()}?limit=100`)).toMatchObject({ status: 200 });
    expect(await linesOf(o.id)).toEqual([]);
    expect(await server.app.deps.db.select({ n: sql<number>`count(*)::int` }).from(payoutLines)).toEqual(before);
    // The minute tick writes it.
    await syncPayoutLines({ deps: server.app.deps });
    expect((await pending(`details.orderUID=${o.orderUid}`)).map((r: any) => r.details.status)).toEqual(['Ready For Payout']);
  });

  it('the job keeps lines current: a payment and a refund each queue their order’s lines, with no read', async () => {
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
    expect(await linesOf(order.orderId)).toEqual([]);
    await deps.jobs.drain(); // the signed webhook, then the jobs it queued
    expect((await linesOf(order.orderId)).map((l) => [l.kind, l.grossAmount])).toEqual([['sale', 6_000]]);

    const refunded = await admin.post(`/api/tenants/${acme.id}/events/${order.eventId}/orders/${order.orderUid}/refunds`, { mode: 'amount', amount: 1_500, reason: 'Seat moved' });
    expect(refunded.status).toBe(201);
    await deps.jobs.drain();
    const lines = await linesOf(order.orderId);
    expect(lines.map((l) => [l.kind, l.grossAmount]).sort()).toEqual([
      ['refund', -1_500],
      ['sale', 6_000],
    ]);
    // A refund line is taken from the next payout, never sent on its own: Pending, not selectable.
    const rows = await pending(`details.orderUID=${order.orderUid}`);
    expect(rows.find((r: any) => r.details.kind === 'refund').details.status).toBe('Pending');
  });

  it('bad filters are a 400, not a 500', async () => {
    expect((await admin.get(`${PAYOUT_PATHS.pending()}?filters=details.secret=1`)).status).toBe(400);
    expect((await admin.get(`${PAYOUT_PATHS.pending()}?filters=details.onHold=maybe`)).status).toBe(400);
  });
});

describe('hold and release', () => {
  it('holds and releases an order, records who, when and why; answers the spec toast', async () => {
    const o = await givenPaidOrder(acme.id, { total: 5_000, platform: 500, paidDaysAgo: 3 });
    const held = await admin.post(PAYOUT_PATHS.hold(acme.id), { orderId: o.orderUid, eventId: o.eventId, message: 'Chargeback risk', hold: true });
    expect(held.status).toBe(200);
    expect(held.body).toEqual({ success: true, message: `Payout for order: ${o.orderUid} has been held`, onHold: true, orderUID: o.orderUid });
    expect((await pending(`details.orderUID=${o.orderUid}`))[0].details.onHold).toBe(true);
    expect((await pending(`details.onHold=true;details.tenantId=${acme.id}`)).map((r: any) => r.details.orderUID)).toEqual([o.orderUid]);
    const released = await admin.post(PAYOUT_PATHS.hold(acme.id), { orderId: o.id, eventId: o.eventId, message: 'Cleared', hold: false });
    expect(released.body.message).toBe(`Payout for order: ${o.orderUid} has been released`);
    const history = await server.app.deps.db.select().from(payoutHolds).where(eq(payoutHolds.orderId, o.id));
    expect(history.map((h) => [h.hold, h.message, h.userEmail])).toEqual(
      expect.arrayContaining([
        [true, 'Chargeback risk', actors.super_user.email],
        [false, 'Cleared', actors.super_user.email],
      ]),
    );
    expect(history).toHaveLength(2);
  });

  it('refuses tenant-facilitated orders, unknown orders (404) and another tenant’s order (404); bad input is a 400', async () => {
    const other = await givenPaidOrder(bolt.id, { total: 5_000, platform: 500, paidDaysAgo: 3 });
    expect(await admin.post(PAYOUT_PATHS.hold(acme.id), { orderId: other.orderUid, eventId: other.eventId, hold: true })).toMatchObject({ status: 404, body: notFoundError });
    expect((await admin.post(PAYOUT_PATHS.hold(acme.id), { orderId: 'NOPE', eventId: randomUUID(), hold: true })).status).toBe(404);
    expect((await admin.post(PAYOUT_PATHS.hold(acme.id), { orderId: other.orderUid, eventId: 'x', hold: true })).status).toBe(404);
    expect((await admin.post(PAYOUT_PATHS.hold(acme.id), { orderId: other.orderUid, hold: 'yes' })).status).toBe(400);

    const tenantOwned = await givenTenantWithSettings(server);
    await server.app.deps.db.update(paymentSettings).set({ paymentType: 'tenant', payoutAutomatic: true }).where(eq(paymentSettings.tenantId, tenantOwned.id));
    const t = await givenPaidOrder(tenantOwned.id, { total: 5_000, platform: 500, paidDaysAgo: 3 });
    const res = await admin.post(PAYOUT_PATHS.hold(tenantOwned.id), { orderId: t.orderUid, eventId: t.eventId, hold: true });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(M.payoutTenantFacilitated);
    expect((await pending(`details.orderUID=${t.orderUid}`))[0].details.facilitator).toBe('tenant');
  });

  it('only super users and platform managers hold (spec §6)', async () => {
    const o = await givenPaidOrder(acme.id, { total: 5_000, platform: 500, paidDaysAgo: 3 });
    const statuses = await statusesOf(actors, 'platform', (c) => c.post(PAYOUT_PATHS.hold(acme.id), { orderId: o.orderUid, eventId: o.eventId, hold: false }));
    // A tenant route refuses whoever may not use it with the guard's 404 (architecture rule 1).
    expect(statuses).toEqual({
      super_user: 200, platform_manager: 200, platform_report: 404, platform_user: 404, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401,
    });
  });
});

describe('transfers', () => {
  it('one transfer per tenant; a tenant without an account fails with the gateway message and keeps its orders pending', async () => {
    const a = await givenTenantWithSettings(server);
    const b = await givenTenantWithSettings(server);
    await connect(a.id, 'acct_test_a');
    await connect(b.id, null);
    const a1 = await givenPaidOrder(a.id, { total: 10_000, platform: 1_000, paidDaysAgo: 3, tickets: 2 });
    const a2 = await givenPaidOrder(a.id, { total: 2_000, platform: 200, paidDaysAgo: 3, tickets: 1 });
    const b1 = await givenPaidOrder(b.id, { total: 3_000, platform: 300, paidDaysAgo: 3 });

    const res = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [a1.orderUid, a2.orderUid, b1.orderUid] });
    expect(res.status).toBe(200);
    const payoutId = res.body.completedOrderPayouts[0]?.payoutId;
    // a: 10000 - 1000 - 320 = 8680; 2000 - 200 - 88 = 1712.
    expect(res.body).toEqual({
      success: true,
      message: 'Payout transferred for 1 of 2 tenants.',
      completedOrderPayouts: [{ payoutId: expect.any(String), tenantId: a.id, tenantURL: a.url, tenantName: a.name, orderUIDs: [a1.orderUid, a2.orderUid].sort(), amount: 10_392, transferId: expect.stringMatching(/^tr_test_/) }].map((c) => ({ ...c, orderUIDs: expect.arrayContaining(c.orderUIDs) })),
      failedOrderPayouts: [
        { tenantId: b.id, tenantURL: b.url, tenantName: b.name, orderUIDs: [b1.orderUid], message: expect.stringContaining(M.gatewayDestinationNotFound), domainCode: 'TRANSFER_DESTINATION_MISSING' },
      ],
    });
    const [transfer] = await server.app.deps.db.select().from(testTransfers).where(eq(testTransfers.idempotencyKey, payoutId));
    expect(transfer).toMatchObject({ amount: 10_392, destination: 'acct_test_a', transferGroup: payoutId });

    // b's order is still pending, with the reason.
    const [bRow] = await pending(`details.orderUID=${b1.orderUid}`);
    expect(bRow.details).toMatchObject({ payoutId: null, payoutCompleted: false, lastFailure: expect.stringContaining(M.gatewayDestinationNotFound) });
    expect(await server.app.deps.db.select().from(payouts).where(eq(payouts.tenantId, b.id))).toMatchObject([{ status: 'failed' }]);

    // The completed payout: list, detail, order list; its lines add up to the transfer.
    const list = await admin.get(`${PAYOUT_PATHS.completed()}?filters=details.tenantId=${a.id}`);
    expect(list.body).toEqual({
      result: [
        {
          id: payoutId,
          details: {
            payoutId,
            tenantURL: a.url,
            tenantName: a.name,
            tenantId: a.id,
            eventName: expect.any(String),
            orderUIDs: [a1.orderUid, a2.orderUid].sort(),
            ticketCount: 3,
            facilitator: 'platform',
            chargeGatewayFeesToPlatform: false,
            grossAmount: 12_000,
            creditCardProcessingFee: 408,
            netAmount: 11_592,
            tenantTotal: 10_392,
            platformTotal: 1_200,
            dateCreated: expect.any(String),
          },
        },
      ],
      count: 1,
      cursor: null,
    });
    const detail = await admin.get(PAYOUT_PATHS.payout(payoutId));
    expect(detail.body.details).toMatchObject({ payoutId, grossAmount: 12_000, creditCardProcessingFee: 408, netAmount: 11_592, tenantTotal: 10_392, platformTotal: 1_200, transferId: transfer!.id });
    const lines = await admin.get(PAYOUT_PATHS.payoutOrders(payoutId));
    expect(lines.body).toMatchObject({ id: payoutId, count: 2, cursor: null });
    expect(lines.body.result.reduce((s: number, l: any) => s + l.details.tenantTotal, 0)).toBe(transfer!.amount);
    const searched = await admin.get(`${PAYOUT_PATHS.payoutOrders(payoutId)}?filters=details.orderUID=${a2.orderUid.slice(2, 7)}`);
    expect(searched.body.result.map((r: any) => r.details.orderUID)).toEqual([a2.orderUid]);

    // The tenant sees its payout in its console; another tenant gets a 404.
    const tenantAdmin = await import('../../../test/harness.js').then((h) => h.givenUser(server, { tenant: { id: a.id, roles: ['tenant_admin'] } }));
    const console = server.client(a.url);
    await console.login(tenantAdmin.email);
    expect((await console.get(PAYOUT_PATHS.tenantCompleted(a.id))).body.result.map((r: any) => r.id)).toEqual([payoutId]);
    expect((await console.get(PAYOUT_PATHS.tenantPayout(a.id, payoutId))).status).toBe(200);
    const otherAdmin = actors.other_tenant_admin.tenant;
    expect(await otherAdmin.get(PAYOUT_PATHS.tenantPayout(bolt.id, payoutId))).toMatchObject({ status: 404 });
    expect((await otherAdmin.get(PAYOUT_PATHS.tenantPayoutOrders(bolt.id, payoutId))).status).toBe(404);
    expect((await otherAdmin.get(PAYOUT_PATHS.tenantCompleted(bolt.id))).body.result).toEqual([]);
    expect((await otherAdmin.get(PAYOUT_PATHS.tenantCompleted(a.id))).status).toBe(404);

    // Never twice: the same orders again are refused as paid.
    const again = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [a1.orderUid] });
    expect(again.body).toEqual({ success: false, message: M.payoutAlreadyPaid, completedOrderPayouts: [], failedOrderPayouts: [{ tenantId: a.id, tenantURL: a.url, tenantName: a.name, orderUIDs: [a1.orderUid], message: M.payoutAlreadyPaid }] });
    expect(await server.app.deps.db.select().from(testTransfers).where(eq(testTransfers.destination, 'acct_test_a'))).toHaveLength(1);
  });

  it('held, not yet available and unknown orders are not transferred; no order is a 400 with the spec message', async () => {
    const o = await givenPaidOrder(acme.id, { total: 5_000, platform: 500, paidDaysAgo: 3 });
    const young = await givenPaidOrder(acme.id, { total: 5_000, platform: 500, paidDaysAgo: 0 });
    await admin.post(PAYOUT_PATHS.hold(acme.id), { orderId: o.orderUid, eventId: o.eventId, hold: true });
    const res = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [o.orderUid, young.orderUid, 'NOSUCH'] });
    expect(res.body.success).toBe(false);
    expect(res.body.failedOrderPayouts).toEqual(
      expect.arrayContaining([
        { tenantId: null, tenantURL: null, tenantName: null, orderUIDs: ['NOSUCH'], message: M.payoutOrderUnknown },
        { tenantId: acme.id, tenantURL: acme.url, tenantName: acme.name, orderUIDs: [o.orderUid], message: M.payoutOnHold },
        { tenantId: acme.id, tenantURL: acme.url, tenantName: acme.name, orderUIDs: [young.orderUid], message: M.payoutNotAvailable },
      ]),
    );
    const empty = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe(M.selectOrderToTransfer);
    expect((await admin.post(PAYOUT_PATHS.transfer(), {})).status).toBe(400);
  });

  it('only super users and platform managers transfer', async () => {
    const statuses = await statusesOf(actors, 'platform', (c) => c.post(PAYOUT_PATHS.transfer(), { orderUIDs: ['NOSUCH'] }));
    expect(statuses).toMatchObject({ super_user: 200, platform_manager: 200, platform_report: 403, platform_user: 403, anonymous: 401 });
    const reads = await statusesOf(actors, 'platform', (c) => c.get(PAYOUT_PATHS.pending()));
    expect(reads).toMatchObject({ super_user: 200, platform_report: 200, anonymous: 401 });
    expect([403, 404]).toContain(reads.tenant_admin);
  });

  it('the weekly automatic run: every operator reads the switch, only super users and platform managers change it; bad input is a 400', async () => {
    const reads = await statusesOf(actors, 'platform', (c) => c.get(PAYOUT_PATHS.settings()));
    expect(reads).toMatchObject({ super_user: 200, platform_manager: 200, platform_report: 200, platform_user: 200, anonymous: 401 });
    expect([403, 404]).toContain(reads.tenant_admin);
    expect((await actors.platform_report.platform.get(PAYOUT_PATHS.settings())).body).toEqual({ weeklyAutomatic: false });
    // Turning it off again is harmless whatever the answer, so every actor may try.
    const writes = await statusesOf(actors, 'platform', (c) => c.put(PAYOUT_PATHS.settings(), { weeklyAutomatic: false }));
    expect(writes).toMatchObject({ super_user: 200, platform_manager: 200, platform_report: 403, platform_user: 403, anonymous: 401 });
    expect([403, 404]).toContain(writes.tenant_admin);
    for (const body of [{}, { weeklyAutomatic: 'yes' }, { weeklyAutomatic: null }]) expect((await admin.put(PAYOUT_PATHS.settings(), body)).status).toBe(400);
    try {
      expect((await actors.platform_manager.platform.put(PAYOUT_PATHS.settings(), { weeklyAutomatic: true })).body).toEqual({ weeklyAutomatic: true });
      expect((await actors.platform_user.platform.get(PAYOUT_PATHS.settings())).body).toEqual({ weeklyAutomatic: true });
    } finally {
      await admin.put(PAYOUT_PATHS.settings(), { weeklyAutomatic: false });
    }
    expect((await admin.get(PAYOUT_PATHS.settings())).body).toEqual({ weeklyAutomatic: false });
  });

  it('a refund after the payout is a negative line carried into the tenant’s next payout', async () => {
    const t = await givenTenantWithSettings(server);
    await connect(t.id, 'acct_test_r');
    const first = await givenPaidOrder(t.id, { total: 10_000, platform: 1_000, paidDaysAgo: 3 });
    expect((await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [first.orderUid] })).body.completedOrderPayouts[0].amount).toBe(8_680);
    await server.app.deps.db.insert(refunds).values({
      tenantId: t.id, id: randomUUID(), orderId: first.id, eventId: first.eventId, amount: 2_500, tenantAmount: 2_250, platformAmount: 250, kind: 'organiser', status: 'succeeded',
    });
    const second = await givenPaidOrder(t.id, { total: 5_000, platform: 500, paidDaysAgo: 3 });
    const [refundRow] = (await pending(`details.tenantId=${t.id}`)).filter((r: any) => r.details.kind === 'refund');
    // issue 21.17: a refund line is not transferable on its own, so it is not 'Ready For Payout'.
    expect(refundRow.details).toMatchObject({ orderUID: first.orderUid, grossAmount: -2_500, tenantTotal: -2_250, platformTotal: -250, gatewayFee: 0, status: 'Pending' });
    expect((await pending(`details.tenantId=${t.id};details.ready=true`)).map((r: any) => [r.details.orderUID, r.details.kind])).toEqual([[second.orderUid, 'sale']]);
    const res = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [second.orderUid] });
    // 5000 - 500 - 175 = 4325, less the refund's 2250.
    expect(res.body.completedOrderPayouts[0]).toMatchObject({ amount: 2_075, orderUIDs: expect.arrayContaining([first.orderUid, second.orderUid]) });
    const lines = await admin.get(PAYOUT_PATHS.payoutOrders(res.body.completedOrderPayouts[0].payoutId));
    expect(lines.body.result.reduce((s: number, l: any) => s + l.details.tenantTotal, 0)).toBe(2_075);
  });
});

describe('reconciliation', () => {
  it('a crash after the gateway transferred completes the payout; a payout the gateway never saw fails and frees its orders', async () => {
    const deps = server.app.deps;
    const t = await givenTenantWithSettings(server);
    await connect(t.id, 'acct_test_c');
    const made = await givenPaidOrder(t.id, { total: 10_000, platform: 1_000, paidDaysAgo: 3 });
    const lost = await givenPaidOrder(t.id, { total: 4_000, platform: 400, paidDaysAgo: 3 });
    const claim = async (orderId: string, amount: number) => {
      const id = randomUUID();
      await deps.db.insert(payouts).values({ tenantId: t.id, id, status: 'sending', amount, grossAmount: amount, gatewayFee: 0, netAmount: amount, tenantTotal: amount, platformTotal: 0, chargeGatewayFeesToPlatform: false, destination: 'acct_test_c' });
      await deps.db.update(payoutLines).set({ payoutId: id }).where(and(eq(payoutLines.tenantId, t.id), eq(payoutLines.orderId, orderId)));
      return id;
    };
    const madeId = await claim(made.id, 8_680);
    const lostId = await claim(lost.id, 3_454);
    // The gateway made the first transfer, then the process died before our commit.
    await deps.payments.transfer({ payoutId: madeId, tenantId: t.id, destination: 'acct_test_c', amount: 8_680, currency: 'usd' });

    // Too early: a transfer may still be on its way.
    expect(await reconcilePayouts({ deps })).toEqual({ completed: 0, failed: 0 });
    expect(await reconcilePayouts({ deps, now: new Date(Date.now() + SENDING_STALE_MS + 1_000) })).toEqual({ completed: 1, failed: 1 });
    const rows = await deps.db.select().from(payouts).where(eq(payouts.tenantId, t.id));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [madeId]: 'completed', [lostId]: 'failed' });
    expect((await pending(`details.orderUID=${lost.orderUid}`))[0].details).toMatchObject({ payoutId: null, lastFailure: 'The transfer was not made. Please try again.' });
    expect(await pending(`details.orderUID=${made.orderUid}`)).toEqual([]);
    // The freed order can be paid now, once.
    expect((await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [lost.orderUid, made.orderUid] })).body.completedOrderPayouts).toMatchObject([{ amount: 3_454 }]);
  });
});

describe('concurrent transfers', () => {
  it('two operators transferring the same orders at once make one transfer', async () => {
    const t = await givenTenantWithSettings(server);
    await connect(t.id, 'acct_test_race');
    const os = await Promise.all([1, 2, 3].map(() => givenPaidOrder(t.id, { total: 3_000, platform: 300, paidDaysAgo: 3 })));
    const manager = actors.platform_manager.platform;
    const uids = os.map((o) => o.orderUid);
    // Eight requests at once (PostgreSQL runs them truly in parallel under TEST_DATABASE_URL).
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? manager : admin).post(PAYOUT_PATHS.transfer(), { orderUIDs: i % 2 ? [...uids].reverse() : uids })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(answers.reduce((n, r) => n + r.body.completedOrderPayouts.length, 0)).toBe(1);
    expect(await server.app.deps.db.select().from(testTransfers).where(eq(testTransfers.destination, 'acct_test_race'))).toHaveLength(1);
    expect((await server.app.deps.db.select().from(payouts).where(eq(payouts.tenantId, t.id))).filter((p) => p.status === 'completed')).toHaveLength(1);
  });
});

describe('payout downloads', () => {
  it('escapes a cell a person wrote against formula injection; amounts keep their sign', async () => {
    const t = await givenTenantWithSettings(server);
    await connect(t.id, 'acct_test_formula');
    const o = await givenPaidOrder(t.id, { total: 5_000, platform: 500, paidDaysAgo: 3, eventName: '=HYPERLINK("http://evil.test","Gala")' });
    const payoutId = (await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [o.orderUid] })).body.completedOrderPayouts[0].payoutId;
    const started = await admin.get(PAYOUT_PATHS.payoutDownload(payoutId));
    await server.app.deps.jobs.drain();
    const done = await admin.get(PAYOUT_PATHS.platformExport(started.body.exportId));
    const file = await admin.get(new URL(done.body.downloadUrl, 'http://x').pathname + new URL(done.body.downloadUrl, 'http://x').search);
    const line = file.raw.toString().split('\n')[1]!;
    expect(line.startsWith(`${o.orderUid},"'=HYPERLINK(""http://evil.test"",""Gala"")",sale,$50.00,`)).toBe(true);
  });

  it('a payout’s CSV is written by a job and adds up to the screen', async () => {
    const t = await givenTenantWithSettings(server);
    await connect(t.id, 'acct_test_csv');
    const o = await givenPaidOrder(t.id, { total: 123_456, platform: 10_000, paidDaysAgo: 3 });
    const payoutId = (await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [o.orderUid] })).body.completedOrderPayouts[0].payoutId;
    const started = await admin.get(PAYOUT_PATHS.payoutDownload(payoutId));
    expect(started.body).toMatchObject({ status: 'pending', downloadUrl: expect.stringContaining('/api/platform/payouts/exports/') });
    await server.app.deps.jobs.drain();
    const done = await admin.get(PAYOUT_PATHS.platformExport(started.body.exportId));
    expect(done.body).toMatchObject({ status: 'done', rowCount: 1, error: null });
    const file = await admin.get(new URL(done.body.downloadUrl, 'http://x').pathname + new URL(done.body.downloadUrl, 'http://x').search);
    expect(file.status).toBe(200);
    // 123456 x 2.9% = 3580.2 -> 3580, + 30 = 3610 fee.
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="payout-orders-.*\.csv"$/);
    expect(file.raw.toString()).toBe(
      '\ufeffOrder ID,Event Name,Line,Gross Amount,Card Fees,Net Amount,Tenant Total,Platform Total\n' +
        `${o.orderUid},${(await server.app.deps.db.select({ n: events.name }).from(events).where(eq(events.id, o.eventId)))[0]!.n},sale,"$1,234.56",$36.10,"$1,198.46","$1,098.46",$100.00\n`,
    );
    // The tenant's own payout transactions, from its console.
    const organiser = await import('../../../test/harness.js').then((h) => h.givenUser(server, { tenant: { id: t.id, roles: ['tenant_admin'] } }));
    const console = server.client(t.url);
    await console.login(organiser.email);
    const mine = await console.get(`${PAYOUT_PATHS.tenantTransactionsDownload(t.id)}?filters=${encodeURIComponent(`details.payoutId=${payoutId}`)}`);
    expect(mine.status).toBe(200);
    await server.app.deps.jobs.drain();
    const mineDone = await console.get(PAYOUT_PATHS.tenantExport(t.id, mine.body.exportId));
    expect(mineDone.body).toMatchObject({ status: 'done', rowCount: 1 });
    const mineFile = await console.get(mineDone.body.downloadUrl);
    expect(mineFile.raw.toString()).toContain(`${o.orderUid},${t.url}`);
    expect((await admin.get(PAYOUT_PATHS.payoutDownload(randomUUID()))).status).toBe(404);
    expect((await admin.get(`${PAYOUT_PATHS.transactionsDownload()}?filters=details.nope=1`)).status).toBe(400);
    expect((await actors.other_tenant_admin.tenant.get(PAYOUT_PATHS.tenantExport(bolt.id, started.body.exportId))).status).toBe(404);
  });
});

describe('weekly automatic payouts', () => {
  it('off by default; when on, pays every ready, unheld, platform-facilitated order and mails the tenant; never a tenant-facilitated one', async () => {
    const deps = server.app.deps;
    const t = await givenTenantWithSettings(server);
    await connect(t.id, 'acct_test_auto');
    const ready = await givenPaidOrder(t.id, { total: 10_000, platform: 1_000, paidDaysAgo: 3 });
    const held = await givenPaidOrder(t.id, { total: 4_000, platform: 400, paidDaysAgo: 3 });
    const young = await givenPaidOrder(t.id, { total: 4_000, platform: 400, paidDaysAgo: 0 });
    const own = await givenTenantWithSettings(server);
    await deps.db.update(paymentSettings).set({ paymentType: 'tenant', payoutAutomatic: true, paymentRef: 'acct_own' }).where(eq(paymentSettings.tenantId, own.id));
    const ownOrder = await givenPaidOrder(own.id, { total: 4_000, platform: 400, paidDaysAgo: 3 });
    await admin.post(PAYOUT_PATHS.hold(t.id), { orderId: held.orderUid, eventId: held.eventId, hold: true });

    expect((await admin.get('/api/platform/payouts/settings')).body).toEqual({ weeklyAutomatic: false });
    expect(await runAutomaticPayouts({ deps })).toBeNull();
    expect((await actors.platform_report.platform.put('/api/platform/payouts/settings', { weeklyAutomatic: true })).status).toBe(403);
    expect((await admin.put('/api/platform/payouts/settings', { weeklyAutomatic: true })).body).toEqual({ weeklyAutomatic: true });
    try {
      const result = await runAutomaticPayouts({ deps });
      const mine = result!.completedOrderPayouts.find((c) => c.tenantId === t.id);
      expect(mine).toMatchObject({ orderUIDs: [ready.orderUid], amount: 8_680 });
      expect(result!.completedOrderPayouts.some((c) => c.tenantId === own.id)).toBe(false);
      const [p] = await deps.db.select().from(payouts).where(eq(payouts.id, mine!.payoutId));
      expect(p).toMatchObject({ automatic: true, createdBy: null, status: 'completed' });
      await deps.jobs.drain();
      const mails = await deps.db.select().from(outbox).where(eq(outbox.to, `hello@${t.url}.test`));
      expect(mails.map((m) => m.subject)).toContain('Payout of $86.80 sent');
      for (const o of [held, young, ownOrder]) expect((await pending(`details.orderUID=${o.orderUid}`))[0].details.payoutCompleted).toBe(false);
      // An operator cannot transfer a tenant-facilitated order either (spec §6).
      const res = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [ownOrder.orderUid] });
      expect(res.body.failedOrderPayouts).toEqual([{ tenantId: own.id, tenantURL: own.url, tenantName: own.name, orderUIDs: [ownOrder.orderUid], message: M.payoutTenantFacilitated }]);
    } finally {
      await admin.put('/api/platform/payouts/settings', { weeklyAutomatic: false });
    }
  });
});
