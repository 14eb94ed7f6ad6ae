import { randomUUID } from 'node:crypto';
import { DRAWER_PATHS, REPORT_PATHS, type TChannelSales, type TReportDashboard } from '@marquee/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../../test/actors.js';
import { parseCsv } from '../../../test/fixtures/sales.js';
import { rowsOf } from './repository.js';
import { givenEventOnSale, givenHeldOrder, givenPlatformAdmin, givenTenantWithSettings, givenUser, startServer, type Client, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';

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

// Issue 23 "sales by channel and comps on the tenant and event dashboards and the platform reports",
// issue 25 "they appear with their channel in every dashboard and export".

const FIGURES = ['orders', 'tickets_sold', 'complimentary_tickets', 'gross_sales', 'net_sales', 'refunds'] as const;

/** The dashboard's own figures, as the channels must sum to them. */
function totalsOf(d: { sales: TReportDashboard['sales']; orders: number }) {
  return { orders: d.orders, tickets_sold: d.sales.tickets_sold, complimentary_tickets: d.sales.complimentary_tickets, gross_sales: d.sales.gross_sales, net_sales: d.sales.net_sales, refunds: d.sales.refunds };
}
function channelSums(channels: TChannelSales[]) {
  return Object.fromEntries(FIGURES.map((k) => [k, channels.reduce((n, c) => n + c[k], 0)]));
}
const channel = (d: { channels: TChannelSales[] }, name: string) => d.channels.find((c) => c.channel === name)!;

/** Straight from the orders rows, never the rollup: what the per-channel rollup must equal. */
async function directByChannel(eventId?: string) {
  const rows = await rowsOf(
    server.app.deps.db,
    sql`select channel, count(*)::int as orders, coalesce(sum(total_amount), 0)::int as gross from orders
      where tenant_id = ${tenant.id} and status in ('processing', 'completed') ${eventId ? sql`and event_id = ${eventId}` : sql``} group by channel`,
  );
  return Object.fromEntries(rows.map((r) => [String(r.channel), { orders: Number(r.orders), gross: Number(r.gross) }]));
}

describe('sales by channel on the dashboards', () => {
  it('the tenant and event dashboards split the sales by channel and payment method, and the channels sum to the totals', async () => {
    for (const path of [REPORT_PATHS.tenantDashboard(tenant.id), REPORT_PATHS.eventDashboard(tenant.id, event.id)]) {
      const res = await admin.get(path);
      expect(res.status).toBe(200);
      const d = res.body as TReportDashboard;
      expect(d.channels.map((c) => c.channel)).toEqual(['ONLINE', 'BACKEND', 'APP']);
      expect(channelSums(d.channels)).toEqual(totalsOf(d));
      const door = channel(d, 'BACKEND');
      expect(door).toMatchObject({ orders: 2, tickets_sold: 1, complimentary_tickets: 1, gross_sales: expect.any(Number) });
      expect(door.gross_sales).toBeGreaterThan(0);
      const methods = Object.fromEntries(door.payment_methods.map((m) => [m.payment_method, m]));
      expect(methods.cash).toMatchObject({ orders: 1, tickets_sold: 1, complimentary_tickets: 0, gross_sales: door.gross_sales });
      // Comps are their own figure, never in the gross.
      expect(methods.complimentary).toMatchObject({ orders: 1, tickets_sold: 0, complimentary_tickets: 1, gross_sales: 0 });
      expect(channel(d, 'ONLINE').orders).toBe(1);
      expect(channel(d, 'APP')).toMatchObject({ orders: 0, gross_sales: 0, payment_methods: [] });
      const direct = await directByChannel(path.includes('/events/') ? event.id : undefined);
      for (const c of d.channels) expect({ orders: c.orders, gross: c.gross_sales }).toEqual(direct[c.channel] ?? { orders: 0, gross: 0 });
    }
  });

  it('a paid order moved to another channel moves with it, and a rebuild gives the same rows', async () => {
    const db = server.app.deps.db;
    const before = (await admin.get(REPORT_PATHS.tenantDashboard(tenant.id))).body as TReportDashboard;
    const web = channel(before, 'ONLINE');
    await db.execute(sql`update orders set channel = 'APP' where tenant_id = ${tenant.id} and order_uid = ${online.orderUid}`);
    const moved = (await admin.get(REPORT_PATHS.tenantDashboard(tenant.id))).body as TReportDashboard;
    expect(channel(moved, 'APP')).toMatchObject({ orders: 1, gross_sales: web.gross_sales, net_sales: web.net_sales });
    expect(channel(moved, 'ONLINE')).toMatchObject({ orders: 0, gross_sales: 0 });
    expect(channelSums(moved.channels)).toEqual(totalsOf(moved));
    await db.execute(sql`select mq_rebuild_report_totals()`);
    expect(((await admin.get(REPORT_PATHS.tenantDashboard(tenant.id))).body as TReportDashboard).channels).toEqual(moved.channels);
    await db.execute(sql`update orders set channel = 'ONLINE' where tenant_id = ${tenant.id} and channel = 'APP'`);
    expect(((await admin.get(REPORT_PATHS.tenantDashboard(tenant.id))).body as TReportDashboard).channels).toEqual(before.channels);
  });

  it('the platform dashboard shows the same split across tenants', async () => {
    const operator = server.client();
    await operator.login((await givenPlatformAdmin(server)).email);
    const res = await operator.get('/api/platform/reports/dashboard');
    expect(res.status).toBe(200);
    expect(channelSums(res.body.channels)).toEqual({ ...totalsOf({ sales: res.body.sales, orders: 0 }), orders: expect.any(Number) });
    const mine = (await admin.get(REPORT_PATHS.tenantDashboard(tenant.id))).body as TReportDashboard;
    // This server's database holds this file's tenant alone.
    expect(res.body.channels).toEqual(mine.channels);
  });

  it('the sales exports carry the gross by channel, summing to Gross Sales, and the comps', async () => {
    const rows = await exportCsv(REPORT_PATHS.eventListDownload(tenant.id));
    const row = rows.find((r) => r['Event Name'] === event.name)!;
    const d = (await admin.get(REPORT_PATHS.eventDashboard(tenant.id, event.id))).body as TReportDashboard;
    const dollars = (cents: number) => (cents / 100).toFixed(2);
    expect(row).toMatchObject({
      'Online Gross Sales': dollars(channel(d, 'ONLINE').gross_sales),
      'Box Office Gross Sales': dollars(channel(d, 'BACKEND').gross_sales),
      'App Gross Sales': '0.00',
      '# Complimentary Tickets': '1',
    });
    expect(Number(row['Online Gross Sales']) + Number(row['Box Office Gross Sales']) + Number(row['App Gross Sales'])).toBeCloseTo(Number(row['Gross Sales']), 2);

    const operator = server.client();
    await operator.login((await givenPlatformAdmin(server)).email);
    const started = await operator.get(REPORT_PATHS.tenantListDownload());
    expect(started.status).toBe(200);
    await server.app.deps.jobs.drain();
    const file = await operator.get(started.body.downloadUrl);
    const tenantRow = parseCsv(file.raw.toString('utf8')).find((r) => r['Tenant URL'] === tenant.url)!;
    expect(tenantRow).toMatchObject({ 'Box Office Gross Sales': dollars(channel(d, 'BACKEND').gross_sales), '# Complimentary Tickets': '1' });
    const list = (await operator.get(REPORT_PATHS.tenantList())).body.result.find((t: { id: string }) => t.id === tenant.id);
    expect(list.details.grossSalesByChannel.ONLINE + list.details.grossSalesByChannel.BACKEND + list.details.grossSalesByChannel.APP).toBe(list.details.grossSales);
  });
});
