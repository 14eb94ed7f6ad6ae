import { randomUUID } from 'node:crypto';
import { DRAWER_PATHS, REPORT_PATHS } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../../test/actors.js';
import { parseCsv } from '../../../test/fixtures/sales.js';
import { givenEventOnSale, givenHeldOrder, givenTenantWithSettings, givenUser, startServer, type Client, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';

// Issue 23 part B "everywhere money is shown": every order and ticket carries its channel
// (ONLINE, BACKEND, APP) and payment method, as a column, a filter and a CSV column.

let server: TestServer;
let tenant: GivenTenant;
let admin: Client;
let event: GivenEventOnSale;
let online: { orderUid: string };
let cash: { orderUID: string };
let comp: { orderUID: string };

async function exportCsv(path: string) {
  const started = await admin.get(path);
  expect(started.status).toBe(200);
  await server.app.deps.jobs.drain();
  const file = await admin.get(started.body.downloadUrl);
  return parseCsv(file.raw.toString('utf8'));
}

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  event = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'General', price: 2_000, quantity: 30 }] });
  admin = await signedIn(server, await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } }), tenant.url);
  await admin.post(DRAWER_PATHS.list(tenant.id), { details: { openingFloat: 0 } });
  online = await givenHeldOrder(server, tenant.id, { eventId: event.id, status: 'completed' });
  const sell = async (body: Record<string, unknown>) =>
    (
      await admin.post(`/api/tenants/${tenant.id}/events/${event.id}/box-office/sales`, {
        idempotencyKey: randomUUID(),
        lines: [{ ticketTypeId: event.ticketTypeIds[0], quantity: 1 }],
        paymentMethod: 'cash',
        cashTendered: 10_000,
        ...body,
      })
    ).body;
  cash = await sell({});
  comp = await sell({ paymentMethod: 'complimentary', cashTendered: null });
});
afterAll(async () => {
  await server.close();
});

describe('channel and payment method on orders and tickets', () => {
  it('the order list shows them and filters on them', async () => {
    const all = (await admin.get(`${REPORT_PATHS.eventOrders(tenant.id, event.id)}?limit=100`)).body.result;
    const byUid = Object.fromEntries(all.map((o: { details: { orderUID: string } }) => [o.details.orderUID, o.details]));
    expect(byUid[online.orderUid]).toMatchObject({ channel: 'ONLINE' });
    expect(byUid[cash.orderUID]).toMatchObject({ channel: 'BACKEND', paymentMethod: 'cash' });
    expect(byUid[comp.orderUID]).toMatchObject({ channel: 'BACKEND', paymentMethod: 'complimentary' });
    const door = (await admin.get(`${REPORT_PATHS.eventOrders(tenant.id, event.id)}?filters=${encodeURIComponent('details.channel=BACKEND')}`)).body.result;
    expect(door.map((o: { details: { orderUID: string } }) => o.details.orderUID).sort()).toEqual([cash.orderUID, comp.orderUID].sort());
    const lower = (await admin.get(`${REPORT_PATHS.tenantOrders(tenant.id)}?filters=${encodeURIComponent('details.channel=online')}`)).body.result;
    expect(lower.map((o: { details: { orderUID: string } }) => o.details.orderUID)).toEqual([online.orderUid]);
    const bad = await admin.get(`${REPORT_PATHS.eventOrders(tenant.id, event.id)}?filters=${encodeURIComponent('details.channel>A')}`);
    expect(bad.status).toBe(400);
  });

  it('the tickets list shows and filters them', async () => {
    const path = REPORT_PATHS.eventTickets(tenant.id, event.id);
    const cashTickets = (await admin.get(`${path}?filters=${encodeURIComponent('details.paymentMethod=cash')}`)).body.result;
    expect(cashTickets.map((t: { details: { orderId: string } }) => t.details.orderId)).toEqual([cash.orderUID]);
    expect(cashTickets[0].details).toMatchObject({ channel: 'BACKEND', paymentMethod: 'cash' });
    const onlineTickets = (await admin.get(`${path}?filters=${encodeURIComponent('details.channel=ONLINE')}`)).body.result;
    expect(onlineTickets.every((t: { details: { orderId: string } }) => t.details.orderId === online.orderUid)).toBe(true);
  });

  it('every export carries them', async () => {
    const orderRows = await exportCsv(REPORT_PATHS.eventOrdersDownload(tenant.id, event.id));
    expect(orderRows.find((r) => r['Order ID'] === cash.orderUID)).toMatchObject({ Channel: 'BACKEND', 'Payment Method': 'cash' });
    expect(orderRows.find((r) => r['Order ID'] === online.orderUid)).toMatchObject({ Channel: 'ONLINE' });
    const ticketRows = await exportCsv(REPORT_PATHS.eventTicketsDownload(tenant.id, event.id));
    expect(ticketRows.find((r) => r['Order ID'] === comp.orderUID)).toMatchObject({ Channel: 'BACKEND', 'Payment Method': 'complimentary' });
  });
});
