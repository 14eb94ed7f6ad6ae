import { randomUUID } from 'node:crypto';
import { DRAWER_PATHS, M } from '@marquee/core';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, orders, payoutLines, refunds, surchargeRules, tickets } from '../../db/schema/index.js';
import { givenPaidOrder } from '../../../test/fixtures/paid-orders.js';
import { givenBoxOffice, type BoxOfficeScene } from '../../../test/fixtures/box-office.js';
import { givenEventOnSale, startServer, type Client, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { syncPayoutLines } from '../payouts/sync-payout-lines.js';

// Issue 23: cancelling an event refunds its orders through the gateway; a box-office order paid in
// cash or on the venue's own terminal cannot go back that way. Its refund is recorded as owed at the
// box office (pending, no gateway asked, never failed) and its tickets voided; staff settle it later
// (cash from their drawer, or the terminal's reference), and only then does the payout netting give
// the platform's part back. A comp has nothing to refund. docs/decisions.md "Issue 23: a cancelled
// event's box-office orders".

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let admin: Client;
let outsider: Client;
let event: GivenEventOnSale;
let drawerId: string;

const db = () => server.app.deps.db;
let sell: BoxOfficeScene['sell'];
const refundsOf = (orderId: string) => db().select().from(refunds).where(eq(refunds.orderId, orderId));
const settleUrl = (orderUid: string, refundId: string, tenantId = tenant.id) => `/api/tenants/${tenantId}/events/${event.id}/orders/${orderUid}/refunds/${refundId}/settle`;
const nettingOf = async (orderId: string) => {
  await syncPayoutLines({ deps: server.app.deps });
  return db().select().from(payoutLines).where(eq(payoutLines.orderId, orderId));
};

beforeAll(async () => {
  server = await startServer();
  ({ tenant, other, admin, outsider, event, sell } = await givenBoxOffice(server));
  // The platform's POS service fee (5% + $0.50 a ticket): what a box-office order nets against the payout.
  await db().update(surchargeRules).set({ serviceFeePosPercentBp: 500, serviceFeePosFlatRate: 50 }).where(eq(surchargeRules.tenantId, tenant.id));
  drawerId = (await admin.post(DRAWER_PATHS.list(tenant.id), { details: { openingFloat: 10_000 } })).body.id;
});
afterAll(async () => {
  await server.close();
});

describe('cancelling an event with box-office orders', () => {
  it('online refunded by the gateway, cash and terminal owed at the box office, comp untouched; nothing fails; settled later, the netting gives the platform part back', async () => {
    const online = await givenPaidOrder(server, tenant.id, { eventId: event.id });
    const cash = await sell({});
    const terminal = await sell({ paymentMethod: 'card_terminal', cashTendered: null, terminalReference: 'T-100' });
    const comp = await sell({ paymentMethod: 'complimentary', cashTendered: null });
    const cashOrder = (await db().select().from(orders).where(eq(orders.id, cash.orderId)))[0]!;
    expect(cashOrder.platformTotal).toBeGreaterThan(0);
    const before = await nettingOf(cash.orderId);
    expect(before.map((l) => [l.kind, l.tenantTotal])).toEqual([['netting', -cashOrder.platformTotal]]);

    const cancel = await admin.post(`/api/tenants/${tenant.id}/events/${event.id}/cancel`);
    expect(cancel.status).toBe(200);
    await server.app.deps.jobs.drain();

    // The online order went back through the gateway.
    expect((await refundsOf(online.orderId)).map((r) => [r.kind, r.status])).toEqual([['event_cancelled', 'succeeded']]);
    // Cash and terminal: owed at the box office, for the whole total, no gateway asked, the tickets void.
    for (const o of [cash, terminal]) {
      const rows = await refundsOf(o.orderId);
      expect(rows.map((r) => ({ kind: r.kind, status: r.status, amount: r.amount, provider: r.provider, refundMethod: r.refundMethod }))).toEqual([
        { kind: 'event_cancelled', status: 'pending', amount: o.totalAmount, provider: 'box_office', refundMethod: null },
      ]);
      const ts = await db().select().from(tickets).where(eq(tickets.orderId, o.orderId));
      expect(ts.every((t) => t.voided)).toBe(true);
    }
    // The comp took no money: nothing to refund.
    expect(await refundsOf(comp.orderId)).toEqual([]);
    // Nothing failed: no refund failed, no job gave up.
    expect(await db().select().from(refunds).where(and(eq(refunds.eventId, event.id), eq(refunds.status, 'failed')))).toEqual([]);
    expect(await db().select().from(jobs).where(isNotNull(jobs.failedAt))).toEqual([]);

    // The event's progress: the gateway's part is done, the box office owes two orders' money.
    const progress = await admin.get(`/api/tenants/${tenant.id}/events/${event.id}/cancellation`);
    expect(progress.body).toMatchObject({ status: 'done', failed: 0, retrying: 0, owedAtBoxOffice: { orders: 2, amount: cash.totalAmount + terminal.totalAmount } });
    // Each owed refund listed for the event page's Settle buttons (the comp and the online order are not).
    const [cashOwed] = await refundsOf(cash.orderId);
    const [terminalOwed] = await refundsOf(terminal.orderId);
    expect([...progress.body.owedRefunds].sort((a: { orderUID: string }, b: { orderUID: string }) => a.orderUID.localeCompare(b.orderUID))).toEqual(
      [
        { orderUID: cash.orderUID, refundId: cashOwed!.id, amount: cash.totalAmount, paymentMethod: 'cash', fullName: expect.any(String) },
        { orderUID: terminal.orderUID, refundId: terminalOwed!.id, amount: terminal.totalAmount, paymentMethod: 'card_terminal', fullName: expect.any(String) },
      ].sort((a, b) => a.orderUID.localeCompare(b.orderUID)),
    );
    // The order page shows the owed refund, pending, with no method yet, flagged owed at the box office.
    const page = await admin.get(`/api/tenants/${tenant.id}/events/${event.id}/orders/${cash.orderUID}`);
    expect(
      page.body.refunds.map((r: { details: { status: string; kind: string; refundMethod: string | null; owedAtBoxOffice: boolean } }) => [
        r.details.kind,
        r.details.status,
        r.details.refundMethod,
        r.details.owedAtBoxOffice,
      ]),
    ).toEqual([['event_cancelled', 'pending', null, true]]);
    const onlinePage = await admin.get(`/api/tenants/${tenant.id}/events/${event.id}/orders/${online.orderUid}`);
    expect(onlinePage.body.refunds.map((r: { details: { owedAtBoxOffice: boolean } }) => r.details.owedAtBoxOffice)).toEqual([false]);
    // Owed is not settled: the platform's part stays netted until the money goes back.
    expect((await nettingOf(cash.orderId)).map((l) => l.tenantTotal)).toEqual([-cashOrder.platformTotal]);

    // Settled in cash from the settler's drawer.
    const [cashRefund] = await refundsOf(cash.orderId);
    const settled = await admin.post(settleUrl(cash.orderUID, cashRefund!.id), { refundMethod: 'cash' });
    expect(settled.status).toBe(200);
    expect(settled.body.message).toBe(M.refundSettled);
    expect(settled.body.refund.details).toMatchObject({ status: 'succeeded', refundAmount: cash.totalAmount, refundMethod: 'cash', kind: 'event_cancelled', owedAtBoxOffice: false });
    expect(settled.body.order.details).toMatchObject({ refunded: true, refundState: 'full' });
    const drawer = (await admin.get(DRAWER_PATHS.drawer(tenant.id, drawerId))).body.details;
    expect(drawer.movements.filter((m: { orderUID: string }) => m.orderUID === cash.orderUID).map((m: { kind: string; amount: number }) => [m.kind, m.amount])).toEqual([
      ['sale', cash.totalAmount],
      ['refund', -cash.totalAmount],
    ]);
    // The netting now gives the platform's whole part back: the tenant owes nothing on the order.
    const after = await nettingOf(cash.orderId);
    expect(after.every((l) => l.kind === 'netting')).toBe(true);
    expect(after.reduce((n, l) => n + l.tenantTotal, 0)).toBe(0);

    // Settled on the terminal: its reference is required.
    const [terminalRefund] = await refundsOf(terminal.orderId);
    const noRef = await admin.post(settleUrl(terminal.orderUID, terminalRefund!.id), { refundMethod: 'card_terminal' });
    expect(noRef.status).toBe(400);
    expect(noRef.body.error.fields).toMatchObject({ terminalReference: M.refundTerminalReferenceRequired });
    const viaTerminal = await admin.post(settleUrl(terminal.orderUID, terminalRefund!.id), { refundMethod: 'card_terminal', terminalReference: ' RF-77 ' });
    expect(viaTerminal.status).toBe(200);
    expect(viaTerminal.body.refund.details).toMatchObject({ status: 'succeeded', refundMethod: 'card_terminal', terminalReference: 'RF-77' });
    expect((await nettingOf(terminal.orderId)).reduce((n, l) => n + l.tenantTotal, 0)).toBe(0);
    // Nothing owed any more: the event's progress says what the box office paid back.
    const paidBack = await admin.get(`/api/tenants/${tenant.id}/events/${event.id}/cancellation`);
    expect(paidBack.body).toMatchObject({
      owedAtBoxOffice: { orders: 0, amount: 0 },
      settledAtBoxOffice: { orders: 2, amount: cash.totalAmount + terminal.totalAmount },
      owedRefunds: [],
    });

    // Settled once: again is REFUND_NOT_OWED, and so is a gateway's refund; nothing more moves.
    const again = await admin.post(settleUrl(cash.orderUID, cashRefund!.id), { refundMethod: 'cash' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ domainCode: 'REFUND_NOT_OWED', message: M.refundNotOwed });
    const [onlineRefund] = await refundsOf(online.orderId);
    expect((await admin.post(`/api/tenants/${tenant.id}/events/${event.id}/orders/${online.orderUid}/refunds/${onlineRefund!.id}/settle`, { refundMethod: 'cash' })).body.error.domainCode).toBe('REFUND_NOT_OWED');
    const drawerAfter = (await admin.get(DRAWER_PATHS.drawer(tenant.id, drawerId))).body.details;
    expect(drawerAfter.movements.filter((m: { kind: string }) => m.kind === 'refund')).toHaveLength(1);

    const done = await admin.get(`/api/tenants/${tenant.id}/events/${event.id}/cancellation`);
    expect(done.body.owedAtBoxOffice).toEqual({ orders: 0, amount: 0 });
    expect(done.body.owedRefunds).toEqual([]);
  });

  it('settling: bad input, another order’s refund, another tenant, no open drawer: each a 4xx, nothing written', async () => {
    const ev = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'Door', price: 1_000, quantity: 10 }] });
    const one = [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 1 }];
    const o = await sell({ lines: one, cashTendered: 5_000 }, ev);
    const second = await sell({ lines: one, paymentMethod: 'card_terminal', cashTendered: undefined, terminalReference: 'T-1' }, ev);
    expect((await admin.post(`/api/tenants/${tenant.id}/events/${ev.id}/cancel`)).status).toBe(200);
    await server.app.deps.jobs.drain();
    const [owed] = await refundsOf(o.orderId);
    const [owedToSecond] = await refundsOf(second.orderId);
    const url = (tenantId: string, refundId: string, orderUid = o.orderUID) => `/api/tenants/${tenantId}/events/${ev.id}/orders/${orderUid}/refunds/${refundId}/settle`;

    expect((await admin.post(url(tenant.id, owed!.id), {})).body.error.fields).toMatchObject({ refundMethod: M.refundMethodRequired });
    expect((await admin.post(url(tenant.id, owed!.id), { refundMethod: 'cheque' })).status).toBe(400);
    expect((await admin.post(url(tenant.id, 'not-a-uuid'), { refundMethod: 'cash' })).status).toBe(404);
    expect((await admin.post(url(tenant.id, randomUUID()), { refundMethod: 'cash' })).status).toBe(404);
    // Another order's refund through this order's address.
    expect((await admin.post(url(tenant.id, owedToSecond!.id), { refundMethod: 'cash' })).status).toBe(404);
    // Another tenant's admin, on their own tenant's path or this one's.
    expect((await outsider.post(url(other.id, owed!.id), { refundMethod: 'cash' })).status).toBe(404);
    expect([403, 404]).toContain((await outsider.post(url(tenant.id, owed!.id), { refundMethod: 'cash' })).status);
    // No open drawer: DRAWER_NOT_OPEN, the refund still owed.
    expect((await admin.post(DRAWER_PATHS.close(tenant.id, drawerId), { details: { countedAmount: 0 } })).status).toBe(200);
    const closed = await admin.post(url(tenant.id, owed!.id), { refundMethod: 'cash' });
    expect(closed.status).toBe(409);
    expect(closed.body.error.domainCode).toBe('DRAWER_NOT_OPEN');
    expect((await refundsOf(o.orderId)).map((r) => [r.status, r.refundMethod])).toEqual([['pending', null]]);
    drawerId = (await admin.post(DRAWER_PATHS.list(tenant.id), { details: { openingFloat: 0 } })).body.id;
  });
});
