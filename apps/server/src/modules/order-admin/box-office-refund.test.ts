import { DRAWER_PATHS, M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutLines, refunds } from '../../db/schema/index.js';
import { givenBoxOffice, type BoxOfficeScene } from '../../../test/fixtures/box-office.js';
import { startServer, type Client, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { syncPayoutLines } from '../payouts/sync-payout-lines.js';

// Issue 23 part B: refunds of box-office orders record how the money went back (cash from the
// refunder's drawer, or the venue's terminal with its reference) and settle at once; a comp has
// nothing to refund.

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let admin: Client;
let outsider: Client;
let event: GivenEventOnSale;
let drawerId: string;
let sell: BoxOfficeScene['sell'];

const refundUrl = (orderUid: string, tenantId = tenant.id) => `/api/tenants/${tenantId}/events/${event.id}/orders/${orderUid}/refunds`;
const refundsOf = (orderId: string) => server.app.deps.db.select().from(refunds).where(eq(refunds.orderId, orderId));

beforeAll(async () => {
  server = await startServer();
  ({ tenant, other, admin, outsider, event, sell } = await givenBoxOffice(server));
  drawerId = (await admin.post(DRAWER_PATHS.list(tenant.id), { details: { openingFloat: 10_000 } })).body.id;
});
afterAll(async () => {
  await server.close();
});

describe('refunds of box-office orders', () => {
  it('a cash order: the cash comes out of the refunder’s drawer, the refund is settled at once, the platform gives its part back by netting', async () => {
    const o = await sell({});
    const res = await admin.post(refundUrl(o.orderUID), { mode: 'full', reason: 'Could not stay', refundMethod: 'cash' });
    expect(res.status).toBe(201);
    expect(res.body.refund.details).toMatchObject({ status: 'succeeded', refundAmount: o.totalAmount, refundMethod: 'cash', terminalReference: null });
    expect(res.body.order.details).toMatchObject({ refunded: true, refundState: 'full' });
    const drawer = (await admin.get(DRAWER_PATHS.drawer(tenant.id, drawerId))).body.details;
    expect(drawer.movements.filter((m: { orderUID: string }) => m.orderUID === o.orderUID).map((m: { kind: string; amount: number }) => [m.kind, m.amount])).toEqual([
      ['sale', o.totalAmount],
      ['refund', -o.totalAmount],
    ]);
    await syncPayoutLines({ deps: server.app.deps });
    const lines = await server.app.deps.db.select().from(payoutLines).where(eq(payoutLines.orderId, o.orderId));
    const [refund] = await refundsOf(o.orderId);
    const owed = lines.find((l) => !l.refundId);
    const back = lines.find((l) => l.refundId === refund!.id);
    if (refund!.platformAmount > 0) {
      expect(owed).toMatchObject({ kind: 'netting', tenantTotal: -owed!.platformTotal });
      expect(back).toMatchObject({ kind: 'netting', tenantTotal: refund!.platformAmount, platformTotal: -refund!.platformAmount });
    }
    expect(lines.filter((l) => l.kind === 'sale')).toEqual([]);
  });

  it('a card-terminal order: the terminal reference is kept; none given is a 400 with nothing written', async () => {
    const o = await sell({ paymentMethod: 'card_terminal', cashTendered: null, terminalReference: 'T-9' });
    const bad = await admin.post(refundUrl(o.orderUID), { mode: 'full', reason: 'x', refundMethod: 'card_terminal', terminalReference: '   ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({ terminalReference: M.refundTerminalReferenceRequired });
    const none = await admin.post(refundUrl(o.orderUID), { mode: 'full', reason: 'x' });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ message: M.refundMethodRequired, fields: { refundMethod: M.refundMethodRequired } });
    const wrong = await admin.post(refundUrl(o.orderUID), { mode: 'full', reason: 'x', refundMethod: 'cheque' });
    expect(wrong.status).toBe(400);
    expect(await refundsOf(o.orderId)).toEqual([]);

    const res = await admin.post(refundUrl(o.orderUID), { mode: 'amount', amount: 1_000, reason: 'Seat moved', refundMethod: 'card_terminal', terminalReference: ' RF-12 ' });
    expect(res.status).toBe(201);
    expect(res.body.refund.details).toMatchObject({ status: 'succeeded', refundAmount: 1_000, refundMethod: 'card_terminal', terminalReference: 'RF-12' });
  });

  it('a complimentary order has nothing to refund: a clear 400, nothing written', async () => {
    const o = await sell({ paymentMethod: 'complimentary', cashTendered: null });
    const res = await admin.post(refundUrl(o.orderUID), { mode: 'full', reason: 'x', refundMethod: 'cash' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ domainCode: 'REFUND_NOTHING_PAID', message: M.refundNothingForComp });
    expect(await refundsOf(o.orderId)).toEqual([]);
  });

  it('a cash refund without an open drawer is refused and writes nothing', async () => {
    const o = await sell({});
    const closer = await admin.post(DRAWER_PATHS.close(tenant.id, drawerId), { details: { countedAmount: 0 } });
    expect(closer.status).toBe(200);
    const res = await admin.post(refundUrl(o.orderUID), { mode: 'full', reason: 'x', refundMethod: 'cash' });
    expect(res.status).toBe(409);
    expect(res.body.error.domainCode).toBe('DRAWER_NOT_OPEN');
    expect(await refundsOf(o.orderId)).toEqual([]);
    drawerId = (await admin.post(DRAWER_PATHS.list(tenant.id), { details: { openingFloat: 0 } })).body.id;
  });

  it("another tenant's admin cannot refund this tenant's order (404)", async () => {
    const o = await sell({});
    expect((await outsider.post(refundUrl(o.orderUID, other.id), { mode: 'full', reason: 'x', refundMethod: 'cash' })).status).toBe(404);
    expect(await refundsOf(o.orderId)).toEqual([]);
  });
});
