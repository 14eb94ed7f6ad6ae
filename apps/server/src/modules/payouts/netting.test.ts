import { randomUUID } from 'node:crypto';
import { M, PAYOUT_PATHS, payoutBalancePath } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, orders, paymentSettings, payoutLines, payouts, refunds, testTransfers } from '../../db/schema/index.js';
import { givenTenantWithSettings, notFoundError, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { givenActors, statusesOf, type Actors } from '../../../test/actors.js';
import { syncPayoutLines } from './sync-payout-lines.js';

// Issue 23 part B: money taken in cash or on the venue's own terminal is already with the tenant,
// so what the platform is owed on those orders is netted against the tenant's next payout
// (docs/payouts.md "Netting": the worked example below is the one written there).

let server: TestServer;
let actors: Actors;
let admin: Client;
let acme: GivenTenant;
let bolt: GivenTenant;
const DAY = 86_400_000;

async function givenPaid(tenantId: string, opts: { total: number; platform: number; method?: 'card' | 'cash' | 'card_terminal' | 'complimentary'; paidDaysAgo?: number }) {
  const db = server.app.deps.db;
  const eventId = randomUUID();
  await db.insert(events).values({ tenantId, id: eventId, name: `Show ${eventId.slice(0, 4)}`, urlName: `e${eventId.slice(0, 8)}`, status: 'published' });
  const id = randomUUID();
  const orderUid = `N${id.replace(/-/g, '').slice(0, 9).toUpperCase()}`;
  const method = opts.method ?? 'card';
  const paidAt = new Date(Date.now() - (opts.paidDaysAgo ?? 3) * DAY);
  await db.insert(orders).values({
    tenantId,
    id,
    orderUid,
    eventId,
    status: 'completed',
    channel: method === 'card' ? 'ONLINE' : 'BACKEND',
    email: 'buyer@example.test',
    ticketCount: 1,
    subtotal: opts.total,
    totalAmount: opts.total,
    tenantTotal: opts.total - opts.platform,
    platformTotal: opts.platform,
    paymentProvider: method === 'card' ? 'test' : null,
    chargeId: method === 'card' ? `pi_test_${id.slice(0, 8)}` : null,
    paymentMethod: method,
    paidAt,
    createdAt: paidAt,
  });
  await syncPayoutLines({ deps: server.app.deps });
  return { id, orderUid, eventId };
}

const linesOf = (orderId: string) => server.app.deps.db.select().from(payoutLines).where(eq(payoutLines.orderId, orderId));
const balanceOf = async (tenant: GivenTenant) => (await admin.get(payoutBalancePath(tenant.id))).body;

beforeAll(async () => {
  server = await startServer();
  acme = await givenTenantWithSettings(server);
  bolt = await givenTenantWithSettings(server);
  for (const t of [acme, bolt]) await server.app.deps.db.update(paymentSettings).set({ paymentRef: `acct_${t.url}` }).where(eq(paymentSettings.tenantId, t.id));
  actors = await givenActors(server, acme, bolt);
  admin = actors.super_user.platform;
});
afterAll(async () => {
  await server.close();
});

describe('netting lines', () => {
  it('a cash or card-terminal order moves no money through the platform: its platform share is owed (tenant -share), no card fee, no sale line', async () => {
    const cash = await givenPaid(acme.id, { total: 5_000, platform: 450, method: 'cash' });
    const terminal = await givenPaid(acme.id, { total: 2_000, platform: 160, method: 'card_terminal' });
    const comp = await givenPaid(acme.id, { total: 0, platform: 0, method: 'complimentary' });
    for (const [o, share] of [
      [cash, 450],
      [terminal, 160],
    ] as const) {
      const lines = await linesOf(o.id);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ kind: 'netting', refundId: null, grossAmount: 0, gatewayFee: 0, tenantTotal: -share, platformTotal: share, netAmount: 0, facilitator: 'platform' });
    }
    expect(await linesOf(comp.id)).toEqual([]);
    // Twice is once.
    await syncPayoutLines({ deps: server.app.deps });
    expect(await linesOf(cash.id)).toHaveLength(1);
    // On Pending Payouts, with its payment method and channel, never 'Ready For Payout' on its own.
    const rows = (await admin.get(`${PAYOUT_PATHS.pending()}?filters=${encodeURIComponent(`details.orderUID=${cash.orderUid}`)}`)).body.result;
    expect(rows[0].details).toMatchObject({ kind: 'netting', paymentMethod: 'cash', channel: 'BACKEND', status: 'Pending', tenantTotal: -450, platformTotal: 450 });
    const netted = (await admin.get(`${PAYOUT_PATHS.pending()}?limit=100&filters=${encodeURIComponent(`details.kind=netting;details.tenantId=${acme.id}`)}`)).body.result;
    expect(netted.map((r: { details: { orderUID: string } }) => r.details.orderUID).sort()).toEqual([cash.orderUid, terminal.orderUid].sort());
    // Choosing it alone transfers nothing, with the rule's reason.
    const res = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [cash.orderUid] });
    expect(res.body).toMatchObject({ success: false, failedOrderPayouts: [{ orderUIDs: [cash.orderUid], message: M.payoutNettingLine }] });
  });

  it('the worked example: the next payout nets what the platform is owed, and its detail shows each netted order', async () => {
    const t = await givenTenantWithSettings(server);
    await server.app.deps.db.update(paymentSettings).set({ paymentRef: 'acct_worked' }).where(eq(paymentSettings.tenantId, t.id));
    // An online order: $100.00, platform $10.00, card fee 2.9% + 30c = $3.20 borne by the tenant: due $86.80.
    const online = await givenPaid(t.id, { total: 10_000, platform: 1_000 });
    // A cash order at the door: $50.00, of which the platform's fees and the tax it collects are $4.50.
    const cash = await givenPaid(t.id, { total: 5_000, platform: 450, method: 'cash' });
    // A card-terminal order: $20.00, platform $1.60.
    const terminal = await givenPaid(t.id, { total: 2_000, platform: 160, method: 'card_terminal' });
    expect(await balanceOf(t)).toEqual({ tenantId: t.id, dueToTenant: 8_680, owedToPlatform: 610, balance: 8_070, balanceOwed: 0, nettingOrders: 2 });

    const res = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [online.orderUid] });
    expect(res.body.success).toBe(true);
    const done = res.body.completedOrderPayouts[0];
    expect(done.amount).toBe(8_680 - 450 - 160);
    expect(done.orderUIDs.sort()).toEqual([online.orderUid, cash.orderUid, terminal.orderUid].sort());
    const [transfer] = await server.app.deps.db.select().from(testTransfers).where(eq(testTransfers.idempotencyKey, done.payoutId));
    expect(transfer).toMatchObject({ amount: 8_070, destination: 'acct_worked' });
    const [payout] = await server.app.deps.db.select().from(payouts).where(eq(payouts.id, done.payoutId));
    expect(payout).toMatchObject({ amount: 8_070, grossAmount: 10_000, gatewayFee: 320, tenantTotal: 8_070, platformTotal: 1_000 + 450 + 160 });

    // The payout's order list (both consoles) shows each netted order with how it was paid.
    for (const path of [PAYOUT_PATHS.payoutOrders(done.payoutId), PAYOUT_PATHS.tenantPayoutOrders(t.id, done.payoutId)]) {
      const list = (await admin.get(path)).body;
      const byUid = Object.fromEntries(list.result.map((r: { details: { orderUID: string } }) => [r.details.orderUID, r.details]));
      expect(byUid[online.orderUid]).toMatchObject({ kind: 'sale', paymentMethod: 'card', tenantTotal: 8_680 });
      expect(byUid[cash.orderUid]).toMatchObject({ kind: 'netting', paymentMethod: 'cash', grossAmount: 0, tenantTotal: -450, platformTotal: 450 });
      expect(byUid[terminal.orderUid]).toMatchObject({ kind: 'netting', paymentMethod: 'card_terminal', tenantTotal: -160 });
    }
    expect(await balanceOf(t)).toMatchObject({ dueToTenant: 0, owedToPlatform: 0, balanceOwed: 0, nettingOrders: 0 });
    // Netted once: the next transfer does not take them again.
    const next = await givenPaid(t.id, { total: 1_000, platform: 100 });
    const again = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [next.orderUid] });
    expect(again.body.completedOrderPayouts[0]).toMatchObject({ amount: 1_000 - 100 - 59, orderUIDs: [next.orderUid] });
  });

  it('a tenant that owes more than it is due carries a balance owed: nothing is sent, nothing is lost, the next sales pay it off', async () => {
    const t = await givenTenantWithSettings(server);
    await server.app.deps.db.update(paymentSettings).set({ paymentRef: 'acct_owing' }).where(eq(paymentSettings.tenantId, t.id));
    const cash = await givenPaid(t.id, { total: 10_000, platform: 900, method: 'cash' });
    const small = await givenPaid(t.id, { total: 500, platform: 50 }); // fee 45: due 405
    expect(await balanceOf(t)).toMatchObject({ dueToTenant: 405, owedToPlatform: 900, balance: -495, balanceOwed: 495 });

    const res = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [small.orderUid] });
    expect(res.body).toMatchObject({ success: false, failedOrderPayouts: [{ tenantId: t.id, orderUIDs: [small.orderUid], message: M.payoutNettingOwed }] });
    expect(await server.app.deps.db.select().from(payouts).where(eq(payouts.tenantId, t.id))).toEqual([]);
    expect((await linesOf(cash.id))[0]).toMatchObject({ payoutId: null, payoutCompletedAt: null });
    // The tenant sees it too.
    const own = await actors.tenant_admin.tenant.get(payoutBalancePath(acme.id));
    expect(own.status).toBe(200);

    // A cash refund of part of the cash order gives the platform's part of it back ($3.00 of its $9.00).
    const refundId = randomUUID();
    await server.app.deps.db.insert(refunds).values({
      tenantId: t.id,
      id: refundId,
      orderId: cash.id,
      eventId: cash.eventId,
      amount: 3_000,
      tenantAmount: 2_700,
      platformAmount: 300,
      kind: 'organiser',
      status: 'succeeded',
      refundMethod: 'cash',
    });
    await syncPayoutLines({ deps: server.app.deps });
    expect(await server.app.deps.db.select().from(payoutLines).where(eq(payoutLines.refundId, refundId))).toMatchObject([
      { kind: 'netting', grossAmount: 0, tenantTotal: 300, platformTotal: -300 },
    ]);
    expect(await balanceOf(t)).toMatchObject({ dueToTenant: 405, owedToPlatform: 600, balanceOwed: 195 });

    const big = await givenPaid(t.id, { total: 2_000, platform: 200 }); // fee 88: due 1,712
    const paid = await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [small.orderUid, big.orderUid] });
    expect(paid.body.success).toBe(true);
    expect(paid.body.completedOrderPayouts[0].amount).toBe(405 + 1_712 - 900 + 300);
    expect(await balanceOf(t)).toMatchObject({ dueToTenant: 0, owedToPlatform: 0, balanceOwed: 0 });
  });
});

describe('the balance route', () => {
  it('tenant admins read their own; platform roles any; others 404 or 403; a bad tenant id 404', async () => {
    expect(await statusesOf(actors, 'tenant', (c) => c.get(payoutBalancePath(acme.id)))).toEqual({
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
    expect((await admin.get(payoutBalancePath('not-a-tenant'))).body).toEqual(notFoundError);
    expect((await admin.get(payoutBalancePath(randomUUID()))).status).toBe(404);
  });

  it("another tenant's payout is 404 in this tenant's console", async () => {
    const t = await givenTenantWithSettings(server);
    await server.app.deps.db.update(paymentSettings).set({ paymentRef: 'acct_x' }).where(eq(paymentSettings.tenantId, t.id));
    const o = await givenPaid(t.id, { total: 3_000, platform: 300 });
    await givenPaid(t.id, { total: 3_000, platform: 300, method: 'cash' });
    const done = (await admin.post(PAYOUT_PATHS.transfer(), { orderUIDs: [o.orderUid] })).body.completedOrderPayouts[0];
    const res = await actors.tenant_admin.tenant.get(PAYOUT_PATHS.tenantPayoutOrders(acme.id, done.payoutId));
    expect(res.status).toBe(404);
    expect(await server.app.deps.db.select().from(payoutLines).where(and(eq(payoutLines.payoutId, done.payoutId), eq(payoutLines.kind, 'netting')))).toHaveLength(1);
  });
});
