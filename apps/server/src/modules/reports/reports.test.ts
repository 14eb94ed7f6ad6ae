import { computeFigures, M, REPORT_PATHS, type FigureOrderWithParts } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenEvent, givenPlatformAdmin, givenTenant, givenUser, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { jobs, orders, refunds, reportExports, tickets } from '../../db/schema/index.js';
import { exportFileUrl } from './exports.js';
import { dashboardFigures, directFigures } from './repository.js';
import { centsOf, givenSale, givenSubscriber, parseCsv } from '../../../test/fixtures/sales.js';

let server: TestServer;
let admin: Client;
let organiser: Client;
let tenant: GivenTenant;
let other: GivenTenant;
let gala: { id: string; name: string };
let fair: { id: string; name: string };
const sales: FigureOrderWithParts[] = [];

/** Starts an export, runs its job and fetches the file through the signed URL. */
async function exportCsv(client: Client, path: string) {
  const started = await client.get(path);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  await server.app.deps.jobs.drain();
  const file = await client.get(started.body.downloadUrl);
  expect(file.status).toBe(200);
  expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
  return { text: file.raw.toString('utf8'), rows: parseCsv(file.raw.toString('utf8')), started: started.body };
}

const sumOf = (rows: Array<Record<string, string>>, column: string) => rows.reduce((s, r) => s + centsOf(r[column]), 0);

beforeAll(async () => {
  server = await startServer();
  admin = server.client();
  await admin.login((await givenPlatformAdmin(server)).email);
  tenant = await givenTenant(server, { name: 'Acme Events' });
  other = await givenTenant(server);
  organiser = server.client();
  await organiser.login((await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } })).email);
  gala = await givenEvent(server, tenant.id, { name: 'Winter Gala' });
  fair = await givenEvent(server, tenant.id, { name: 'Spring Fair' });

  const add = async (eventId: string, seed: Parameters<typeof givenSale>[3]) => {
    const o = await givenSale(server, tenant.id, eventId, seed);
    sales.push(o.figures);
    return o;
  };
  // A plain sale with a used ticket.
  await add(gala.id, { email: 'zoe@example.test', firstName: 'Zoé', lastName: 'Ångström', tickets: [{ price: 5000, used: true }, { price: 5000 }], surcharge: 300, processingFee: 250, vat: 800 });
  // A discount, a donation with its fee, and a complimentary ticket.
  await add(gala.id, {
    email: 'dan@example.test', firstName: 'Dan', lastName: 'Giver', paymentMethod: 'Card',
    tickets: [{ price: 4000 }, { price: 0, name: 'Comp', typeId: '00000000-0000-4000-8000-000000000002' }], discount: 1000, discountCode: 'TENOFF', donation: 1500, donationFee: 300, surcharge: 200,
  });
  // A partial refund (succeeded) that voided one ticket, and a failed attempt before it.
  await add(gala.id, {
    email: 'pat@example.test', firstName: 'Pat', lastName: 'Partial', tickets: [{ price: 3000, voided: true }, { price: 3000 }],
    refunds: [{ amount: 3000, status: 'failed', reason: 'card closed' }, { amount: 3000, tenantAmount: 2800, ticketIndexes: [0], reason: 'Could not come' }],
  });
  // A full refund, every ticket voided; and one still pending at the gateway.
  await add(fair.id, {
    email: 'fay@example.test', firstName: 'Fay', lastName: 'Full', paymentMethod: 'cash', tickets: [{ price: 2000, voided: true }],
    refunds: [{ amount: 2000, reason: 'Event moved' }],
  });
  await add(fair.id, { email: 'pen@example.test', firstName: 'Pen', lastName: 'Ding', tickets: [{ price: 1500 }], refunds: [{ amount: 1500, status: 'pending' }] });
  // Not paid: a hold and a cancelled order never count.
  await add(fair.id, { status: 'draft', email: 'hold@example.test', tickets: [{ price: 9999 }] });
  await add(fair.id, { status: 'cancelled', email: 'late@example.test', tickets: [{ price: 7777 }], refunds: [{ amount: 7777 }] });
  // A name a spreadsheet would run as a formula.
  await add(fair.id, { email: 'evil@example.test', firstName: '=HYPERLINK("http://x")', lastName: '', phone: '+15555550100', tickets: [{ price: 1000 }] });
  await givenSubscriber(server, tenant.id, gala.id, 'news@example.test');
  await givenSubscriber(server, tenant.id, fair.id, 'more@example.test');
  // Another tenant's sale: never in this tenant's figures.
  const otherEvent = await givenEvent(server, other.id);
  await givenSale(server, other.id, otherEvent.id, { tickets: [{ price: 100_000 }] });
});
afterAll(async () => {
  await server.close();
});

describe('one definition of each figure, equal across dashboard, lists and CSV', () => {
  it('the tenant dashboard equals core computeFigures over the same orders', async () => {
    const f = computeFigures(sales);
    const res = await organiser.get(REPORT_PATHS.tenantDashboard(tenant.id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sales: {
        gross_sales: f.grossSales,
        net_sales: f.netRevenue,
        total_service_fees: f.serviceFees,
        total_processing_fees: f.processingFees,
        total_taxes: f.tax,
        total_donations: f.donations,
        total_discounts: f.discounts,
        refunds: f.refunds,
        tickets_sold: f.ticketsSold,
        complimentary_tickets: f.complimentary,
      },
      after_refunds: {
        gross_sales: f.grossSales - f.refunds,
        tenant_refunds: f.tenantRefunds,
        net_sales_before_refunds: f.netRevenue + f.tenantRefunds,
        taxes_refunded: f.taxRefunded,
        total_taxes: f.tax - f.taxRefunded,
      },
      events: 2,
      orders: f.orders,
      subscriptions: 2,
      ticket_used: f.used,
      channels: expect.any(Array),
      waitlist: { joined: 0, bought: 0 },
    });
    // Issue 23: every sale here was online; the channels sum to the figures (channels.test.ts mixes them).
    const [web, door, app] = res.body.channels;
    expect(web).toMatchObject({ channel: 'ONLINE', orders: f.orders, gross_sales: f.grossSales, net_sales: f.netRevenue, refunds: f.refunds, tickets_sold: f.ticketsSold, complimentary_tickets: f.complimentary });
    expect([door, app]).toMatchObject([{ channel: 'BACKEND', orders: 0, gross_sales: 0 }, { channel: 'APP', orders: 0, gross_sales: 0 }]);
    // The worked numbers, so that a change to the definitions shows here too.
    expect(f).toMatchObject({ orders: 6, refunds: 5000, ticketsSold: 6, complimentary: 1, used: 1 });
  });

  it('every card is a sum over its CSV', async () => {
    const dash = (await organiser.get(REPORT_PATHS.tenantDashboard(tenant.id))).body;
    const ordersCsv = (await exportCsv(organiser, REPORT_PATHS.tenantOrdersDownload(tenant.id))).rows;
    const refundsCsv = (await exportCsv(organiser, REPORT_PATHS.tenantRefundsDownload(tenant.id))).rows;
    const eventsCsv = (await exportCsv(organiser, REPORT_PATHS.eventListDownload(tenant.id))).rows;
    const subscribersCsv = (await exportCsv(organiser, REPORT_PATHS.tenantSubscribersDownload(tenant.id))).rows;
    const ticketsCsv = [
      ...(await exportCsv(organiser, REPORT_PATHS.eventTicketsDownload(tenant.id, gala.id))).rows,
      ...(await exportCsv(organiser, REPORT_PATHS.eventTicketsDownload(tenant.id, fair.id))).rows,
    ];
    const active = ticketsCsv.filter((t) => t.Status === 'Active');

    expect(dash.sales.gross_sales).toBe(sumOf(ordersCsv, 'Total'));
    expect(dash.sales.gross_sales).toBe(sumOf(eventsCsv, 'Gross Sales'));
    expect(dash.sales.net_sales).toBe(sumOf(eventsCsv, 'Net Revenue'));
    expect(dash.sales.total_service_fees).toBe(sumOf(ordersCsv, 'Service Fee'));
    expect(dash.sales.total_processing_fees).toBe(sumOf(ordersCsv, 'Processing Fee'));
    expect(dash.sales.total_taxes).toBe(sumOf(ordersCsv, 'Tax'));
    expect(dash.sales.total_donations).toBe(sumOf(ordersCsv, 'Donation'));
    expect(dash.sales.total_discounts).toBe(sumOf(ordersCsv, 'Discount'));
    expect(dash.sales.refunds).toBe(sumOf(ordersCsv, 'Refunded Amount'));
    expect(dash.sales.refunds).toBe(sumOf(refundsCsv.filter((r) => r.Status === 'Succeeded'), 'Refund Amount'));
    expect(dash.sales.tickets_sold).toBe(active.filter((t) => centsOf(t['Ticket Price']) > 0).length);
    expect(dash.sales.tickets_sold).toBe(eventsCsv.reduce((s, e) => s + Number(e['# Tickets Sold']), 0));
    expect(dash.sales.complimentary_tickets).toBe(active.filter((t) => centsOf(t['Ticket Price']) === 0).length);
    expect(dash.ticket_used).toBe(active.filter((t) => t['Ticket Used'] === 'Yes').length);
    expect(dash.orders).toBe(ordersCsv.length);
    expect(dash.subscriptions).toBe(subscribersCsv.length);
    expect(dash.events).toBe(eventsCsv.length);
    // Refunds of orders that were never paid (a late payment returned) are not the tenant's.
    expect(refundsCsv.map((r) => r.Status).sort()).toEqual(['Failed', 'Pending', 'Succeeded', 'Succeeded']);
  });

  it('the event dashboards add up to the tenant dashboard', async () => {
    const [a, b, t] = await Promise.all([
      organiser.get(REPORT_PATHS.eventDashboard(tenant.id, gala.id)),
      organiser.get(REPORT_PATHS.eventDashboard(tenant.id, fair.id)),
      organiser.get(REPORT_PATHS.tenantDashboard(tenant.id)),
    ]);
    for (const key of Object.keys(t.body.sales)) expect(a.body.sales[key] + b.body.sales[key], key).toBe(t.body.sales[key]);
    for (const key of Object.keys(t.body.after_refunds)) expect(a.body.after_refunds[key] + b.body.after_refunds[key], key).toBe(t.body.after_refunds[key]);
    expect(a.body.orders + b.body.orders).toBe(t.body.orders);
    expect(a.body.events).toBe(1);
  });

  it('Platform Sales, Taxes and Donations show the same figures for the tenant, and so does the platform dashboard', async () => {
    const f = computeFigures(sales);
    const list = await admin.get(`${REPORT_PATHS.tenantList()}?filters=details.tenantURL=${tenant.url}`);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    expect(list.body.result[0]).toEqual({
      id: tenant.id,
      details: {
        tenantURL: tenant.url, tenantName: 'Acme Events', ticketsSold: f.ticketsSold, grossSales: f.grossSales, netSales: f.netRevenue,
        totalTax: f.tax, totalDonation: f.donations, totalDonationFee: f.donationFees,
        complimentaryTickets: f.complimentary, grossSalesByChannel: { ONLINE: f.grossSales, BACKEND: 0, APP: 0 },
      },
    });
    const taxes = (await exportCsv(admin, REPORT_PATHS.taxesDownload())).rows.find((r) => r['Tenant URL'] === tenant.url)!;
    expect(taxes).toEqual({
      'Tenant URL': tenant.url, 'Ticket Sold': String(f.ticketsSold), 'Gross sales': (f.grossSales / 100).toFixed(2),
      'Net Revenue': (f.netRevenue / 100).toFixed(2), 'Total Tax': (f.tax / 100).toFixed(2),
    });
    const donations = (await exportCsv(admin, REPORT_PATHS.donationsDownload())).rows.find((r) => r['Tenant URL'] === tenant.url)!;
    expect(centsOf(donations['Total Donation'])).toBe(f.donations);
    expect(centsOf(donations['Total Donation Fee'])).toBe(f.donationFees);
    const salesRow = (await exportCsv(admin, REPORT_PATHS.tenantListDownload())).rows.find((r) => r['Tenant URL'] === tenant.url)!;
    expect(centsOf(salesRow['Gross Sales'])).toBe(f.grossSales);

    const platform = await admin.get('/api/platform/reports/dashboard');
    const everyone = (await admin.get(`${REPORT_PATHS.tenantList()}?limit=100`)).body.result as Array<{ details: { grossSales: number; netSales: number } }>;
    expect(platform.body.sales.gross_sales).toBe(everyone.reduce((s, r) => s + r.details.grossSales, 0));
    expect(platform.body.sales.net_sales).toBe(everyone.reduce((s, r) => s + r.details.netSales, 0));
    expect(platform.body.sales.refunds).toBe(f.refunds);
  });
});

describe('figures after refunds (issue 21.11)', () => {
  it('takes the refunds and their tax off gross sales and tax; NET REVENUE is already after them', async () => {
    const shop = await givenTenant(server);
    const client = server.client();
    await client.login((await givenUser(server, { tenant: { id: shop.id, roles: ['tenant_admin'] } })).email);
    const night = await givenEvent(server, shop.id, { name: 'Tax Night' });
    const parts: FigureOrderWithParts[] = [];
    const add = async (seed: Parameters<typeof givenSale>[3]) => parts.push((await givenSale(server, shop.id, night.id, seed)).figures);
    // $108.00 with $8.00 tax, refunded in full; $54.00 with $4.00 tax, a third refunded; a pending and a failed refund count for nothing.
    await add({ tickets: [{ price: 5000, voided: true }, { price: 5000, voided: true }], vat: 800, refunds: [{ amount: 10_800, tenantAmount: 10_000 }] });
    await add({ tickets: [{ price: 5000 }], vat: 400, refunds: [{ amount: 1800, tenantAmount: 1700 }, { amount: 1000, status: 'pending' }, { amount: 500, status: 'failed' }] });
    await add({ tickets: [{ price: 2000 }], vat: 160 });
    const f = computeFigures(parts);
    expect(f).toMatchObject({ tax: 1360, refunds: 12_600, taxRefunded: 800 + 133, tenantRefunds: 11_700 });

    for (const path of [REPORT_PATHS.tenantDashboard(shop.id), REPORT_PATHS.eventDashboard(shop.id, night.id)]) {
      const res = await client.get(path);
      expect(res.status).toBe(200);
      // The cards keep their meaning (TOTAL TAX is the plain sum, docs/reports.md).
      expect(res.body.sales).toMatchObject({ gross_sales: f.grossSales, total_taxes: 1360, refunds: 12_600, net_sales: f.netRevenue });
      expect(res.body.after_refunds).toEqual({
        gross_sales: f.grossSales - 12_600,
        tenant_refunds: 11_700,
        net_sales_before_refunds: f.netRevenue + 11_700,
        taxes_refunded: 933,
        total_taxes: 1360 - 933,
      });
    }
  });
});

describe('the rollup kept by database triggers', () => {
  it('equals the figures summed straight from the rows, after every kind of change', async () => {
    const db = server.app.deps.db;
    const check = async (when: string) => {
      for (const scope of [{ tenantId: tenant.id }, { tenantId: tenant.id, eventId: gala.id }, { tenantId: tenant.id, eventId: fair.id }]) {
        const { events: _e, subscriptions: _s, ...rollup } = await dashboardFigures(db, scope);
        const { events: _e2, subscriptions: _s2, ...direct } = await directFigures(db, scope);
        expect(rollup, `${when} ${JSON.stringify(scope)}`).toEqual(direct);
      }
    };
    await check('as seeded');
    const extra = await givenSale(server, tenant.id, fair.id, { status: 'draft', tickets: [{ price: 1200 }, { price: 0 }] });
    await check('a hold');
    await db.update(orders).set({ status: 'processing' }).where(eq(orders.id, extra.id));
    await check('paid');
    await db.update(orders).set({ status: 'completed', updatedAt: new Date() }).where(eq(orders.id, extra.id));
    await db.update(tickets).set({ used: true }).where(eq(tickets.id, extra.ticketIds[0]!));
    await check('used');
    await db.update(tickets).set({ voided: true }).where(eq(tickets.id, extra.ticketIds[1]!));
    await check('voided');
    await db.update(tickets).set({ voided: false }).where(eq(tickets.id, extra.ticketIds[1]!));
    await db.insert(refunds).values({ tenantId: tenant.id, id: randomUUID(), orderId: extra.id, eventId: fair.id, amount: 500, tenantAmount: 400, platformAmount: 100, kind: 'organiser' });
    await check('refund asked');
    await db.update(refunds).set({ status: 'succeeded' }).where(eq(refunds.orderId, extra.id));
    await check('refund succeeded');
    await db.update(refunds).set({ status: 'failed' }).where(eq(refunds.orderId, extra.id));
    await check('refund failed after all');
    await db.delete(tickets).where(eq(tickets.id, extra.ticketIds[0]!));
    await check('ticket deleted');
    await db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, extra.id));
    await check('cancelled');
    await db.delete(refunds).where(eq(refunds.orderId, extra.id));
    await db.delete(tickets).where(eq(tickets.orderId, extra.id));
    await db.delete(orders).where(eq(orders.id, extra.id));
    await check('deleted');
    // A rebuild from scratch lands on the same numbers.
    const before = await dashboardFigures(db, { tenantId: tenant.id });
    await db.execute(sql`select mq_rebuild_report_totals()`);
    expect(await dashboardFigures(db, { tenantId: tenant.id })).toEqual(before);
  });
});

describe('report lists', () => {
  it('lists an event’s orders with every §3 field, newest first, cursor-paged', async () => {
    const first = await organiser.get(`${REPORT_PATHS.eventOrders(tenant.id, gala.id)}?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(3);
    expect(first.body.result).toHaveLength(2);
    const next = await organiser.get(`${REPORT_PATHS.eventOrders(tenant.id, gala.id)}?limit=2&cursor=${first.body.cursor}`);
    expect(next.body.result).toHaveLength(1);
    expect(next.body.cursor).toBeNull();
    const pat = [...first.body.result, ...next.body.result].find((o: { details: { email: string } }) => o.details.email === 'pat@example.test');
    expect(pat.details).toMatchObject({ fullName: 'Pat Partial', refunded: true, refundedAmount: 3000, ticketCount: 2, paymentMethod: 'card', eventName: 'Winter Gala', status: 'completed' });
  });

  it('searches orders by e-mail, name, phone, order id, ticket id and payment method (lowercased)', async () => {
    const path = REPORT_PATHS.eventOrders(tenant.id, gala.id);
    const emails = async (filter: string) =>
      ((await organiser.get(`${path}?filters=${encodeURIComponent(filter)}`)).body.result as Array<{ details: { email: string } }>).map((o) => o.details.email).sort();
    expect(await emails('details.email=DAN@EXAMPLE')).toEqual(['dan@example.test']);
    expect(await emails('details.fullName=ångström')).toEqual(['zoe@example.test']);
    expect(await emails('details.paymentMethod=CARD')).toEqual(['dan@example.test', 'pat@example.test', 'zoe@example.test']);
    const pat = (await organiser.get(`${path}?filters=${encodeURIComponent('details.email=pat@')}`)).body.result[0];
    expect(await emails(`details.orderUID=${pat.details.orderUID.toLowerCase()}`)).toEqual(['pat@example.test']);
    const tickets = (await organiser.get(`${REPORT_PATHS.eventTickets(tenant.id, gala.id)}?filters=${encodeURIComponent('details.email=pat@')}`)).body.result;
    expect(await emails(`details.ticketId=${tickets[0].details.ticketId}`)).toEqual(['pat@example.test']);
    expect(await emails('details.refunded=yes')).toEqual(['pat@example.test']);
  });

  it('finds an order across every event of the tenant by order id, ticket id, e-mail, name or phone', async () => {
    const find = async (text: string) =>
      ((await organiser.get(`${REPORT_PATHS.tenantOrders(tenant.id)}?filters=${encodeURIComponent(`details.search=${text}`)}`)).body.result as Array<{ details: { email: string } }>).map((o) => o.details.email);
    expect(await find('fay@')).toEqual(['fay@example.test']);
    expect(await find('Pen Ding')).toEqual(['pen@example.test']);
    expect(await find('5555550100')).toEqual(['evil@example.test']);
    const fay = (await organiser.get(`${REPORT_PATHS.tenantOrders(tenant.id)}?filters=${encodeURIComponent('details.email=fay@')}`)).body.result[0];
    expect(await find(fay.details.orderUID.toLowerCase())).toEqual(['fay@example.test']);
    const ticket = (await organiser.get(`${REPORT_PATHS.eventTickets(tenant.id, fair.id)}?filters=${encodeURIComponent('details.email=fay@')}`)).body.result[0];
    expect(await find(ticket.details.ticketId)).toEqual(['fay@example.test']);
    // Not paid, another tenant's: never found.
    expect(await find('hold@')).toEqual([]);
  });

  it('lists tickets with Ticket Used (yes/true/no/false) and the vioded flag', async () => {
    const path = REPORT_PATHS.eventTickets(tenant.id, gala.id);
    const all = await organiser.get(path);
    expect(all.body.count).toBe(6);
    const used = await organiser.get(`${path}?filters=details.used=yes`);
    expect(used.body.result.map((t: { details: { email: string } }) => t.details.email)).toEqual(['zoe@example.test']);
    expect((await organiser.get(`${path}?filters=details.used=TRUE`)).body.count).toBe(1);
    expect((await organiser.get(`${path}?filters=details.used=no`)).body.count).toBe(5);
    expect((await organiser.get(`${path}?filters=details.used=false`)).body.count).toBe(5);
    expect((await organiser.get(`${path}?filters=details.vioded=true`)).body.result[0].details).toMatchObject({ email: 'pat@example.test', vioded: true, ticketPrice: 3000 });
    const bad = await organiser.get(`${path}?filters=details.used=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid filter value for details.used.');
  });

  it('lists refunds with their status searchable as spec §5 sends it, and a date range on transactionDate', async () => {
    const path = REPORT_PATHS.tenantRefunds(tenant.id);
    const all = await organiser.get(path);
    expect(all.body.count).toBe(4);
    const partial = all.body.result.find((r: { details: { refundReason: string } }) => r.details.refundReason === 'Could not come');
    expect(partial.details).toMatchObject({ fullName: 'Pat Partial', userId: 'pat@example.test', eventName: 'Winter Gala', status: 'succeeded', refundAmount: 3000 });
    expect(partial.details.ticketIds).toHaveLength(1);
    expect((await organiser.get(`${path}?filters=details.status=succeeded`)).body.count).toBe(2);
    expect((await organiser.get(`${path}?filters=details.status=Pending`)).body.count).toBe(1);
    expect((await organiser.get(`${path}?filters=${encodeURIComponent(`details.ticketId=${partial.details.ticketIds[0]}`)}`)).body.count).toBe(1);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect((await organiser.get(`${path}?filters=${encodeURIComponent(`details.transactionDate>=${future}`)}`)).body.count).toBe(0);
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const range = await organiser.get(`${path}?filters=${encodeURIComponent(`details.transactionDate>=${past}`)}&filters=${encodeURIComponent(`details.transactionDate<=${future}`)}`);
    expect(range.body.count).toBe(4);
    expect((await organiser.get(REPORT_PATHS.eventRefunds(tenant.id, fair.id))).body.count).toBe(2);
  });

  it('lists subscribers with millisecond timestamps, tenant-wide and per event', async () => {
    const all = await organiser.get(REPORT_PATHS.tenantSubscribers(tenant.id));
    expect(all.body.count).toBe(2);
    const one = await organiser.get(REPORT_PATHS.eventSubscribers(tenant.id, gala.id));
    expect(one.body.result).toHaveLength(1);
    expect(one.body.result[0].details).toMatchObject({ email: 'news@example.test', eventName: 'Winter Gala', sk: one.body.result[0].id });
    expect(typeof one.body.result[0].details.timestamp).toBe('number');
    expect((await organiser.get(`${REPORT_PATHS.tenantSubscribers(tenant.id)}?filters=details.email=more`)).body.count).toBe(1);
  });

  it('lists event sales rows with a name search', async () => {
    const res = await organiser.get(`${REPORT_PATHS.eventList(tenant.id)}?filters=details.eventName=gala`);
    expect(res.body.count).toBe(1);
    expect(res.body.result[0]).toMatchObject({ id: gala.id, details: { eventName: 'Winter Gala' } });
  });

  it('answers charts: sales per day with every day present, and by ticket type', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const days = await organiser.get(`${REPORT_PATHS.tenantSalesOverTime(tenant.id)}?to=${today}`);
    expect(days.status).toBe(200);
    expect(days.body.result).toHaveLength(30);
    const dash = (await organiser.get(REPORT_PATHS.tenantDashboard(tenant.id))).body;
    expect(days.body.result.reduce((s: number, d: { grossSales: number }) => s + d.grossSales, 0)).toBe(dash.sales.gross_sales);
    expect(days.body.result.reduce((s: number, d: { ticketsSold: number }) => s + d.ticketsSold, 0)).toBe(dash.sales.tickets_sold);
    const types = await organiser.get(REPORT_PATHS.eventTicketTypes(tenant.id, gala.id));
    expect(types.body.result.map((t: { ticketTypeName: string; ticketsSold: number }) => [t.ticketTypeName, t.ticketsSold])).toEqual([
      ['Comp', 0],
      ['General Admission', 4],
    ]);
    const bad = await organiser.get(`${REPORT_PATHS.tenantSalesOverTime(tenant.id)}?from=2026-02-30x`);
    expect(bad.status).toBe(400);
    expect((await organiser.get(`${REPORT_PATHS.tenantSalesOverTime(tenant.id)}?from=2026-05-02&to=2026-05-01`)).status).toBe(400);
  });

  it('refuses bad list queries with a 400, never a 500', async () => {
    const path = REPORT_PATHS.eventOrders(tenant.id, gala.id);
    for (const [q, message] of [
      ['filters=details.nope=1', 'Filtering on details.nope is not supported.'],
      ['sort=details.ticketId', 'Sorting on details.ticketId is not supported.'],
      ['limit=101', 'Too big: expected number to be <=100'],
      ['cursor=garbage', 'Invalid cursor.'],
      ['filters=details.dateCreated>=yesterday', 'Invalid filter value for details.dateCreated.'],
      ['filters=details.paymentMethod>card', "Filtering on details.paymentMethod takes '=' only."],
    ] as const) {
      const res = await organiser.get(`${path}?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.message, q).toBe(message);
    }
  });
});

describe('exports', () => {
  it('writes UTF-8 with a BOM, spec column names, and escapes formula cells', async () => {
    const { text, rows } = await exportCsv(organiser, REPORT_PATHS.eventOrdersDownload(tenant.id, fair.id));
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.split('\r\n')[0]).toBe(
      '\uFEFFDate,Order ID,Event Name,Name,Email,Phone number,# Tickets,Payment Method,Channel,Total,Refunded,Refunded Amount,Subtotal,Discount,Discount Code,Service Fee,Processing Fee,Tax,Donation,Donation Fee,Status',
    );
    const evil = rows.find((r) => r.Email === 'evil@example.test')!;
    expect(evil.Name).toBe(`'=HYPERLINK("http://x")`);
    expect(evil['Phone number']).toBe(`'+15555550100`);
    const fay = rows.find((r) => r.Email === 'fay@example.test')!;
    expect(fay).toMatchObject({ Refunded: 'Yes', Total: '20.00', 'Payment Method': 'cash' });
    const zoe = (await exportCsv(organiser, REPORT_PATHS.eventTicketsDownload(tenant.id, gala.id))).rows.find((r) => r.Email === 'zoe@example.test')!;
    expect(zoe.Name).toBe('Zoé Ångström');
  });

  it('exports the filters of its list', async () => {
    const { rows, started } = await exportCsv(organiser, `${REPORT_PATHS.eventOrdersDownload(tenant.id, gala.id)}?filters=${encodeURIComponent('details.email=dan@')}`);
    expect(rows.map((r) => r.Email)).toEqual(['dan@example.test']);
    expect(started).toMatchObject({ status: 'pending', totalRows: 1, rowCount: 0, error: null });
    expect(started.fileName).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  it('streams more rows than one fetch holds, and reports progress', async () => {
    const big = await givenEvent(server, tenant.id, { name: 'Big Show' });
    const order = await givenSale(server, tenant.id, big.id, { tickets: [{ price: 100 }] });
    const rows = 5_000 * 2 + 7;
    await server.app.deps.db.execute(
      `insert into tickets (tenant_id, id, ticket_uid, order_id, event_id, ticket_type_id, ticket_type_name, price, full_name, email)
       select '${tenant.id}', gen_random_uuid(), 'BULK' || g, '${order.id}', '${big.id}', gen_random_uuid(), 'Bulk', 100, 'Bulk ' || g, 'bulk' || g || '@example.test'
       from generate_series(2, ${rows}) g` as never,
    );
    const started = await organiser.get(REPORT_PATHS.eventTicketsDownload(tenant.id, big.id));
    expect(started.body.totalRows).toBe(rows);
    // Before the job ran: the URL answers 202 with the progress, the status route the same.
    const early = await organiser.get(started.body.downloadUrl);
    expect(early.status).toBe(202);
    expect(early.body).toMatchObject({ status: 'pending', rowCount: 0, totalRows: rows });
    await server.app.deps.jobs.drain();
    const status = await organiser.get(REPORT_PATHS.eventExport(tenant.id, big.id, started.body.exportId));
    expect(status.body).toMatchObject({ status: 'done', rowCount: rows, totalRows: rows });
    const file = await organiser.get(status.body.downloadUrl);
    const parsed = parseCsv(file.raw.toString('utf8'));
    expect(parsed).toHaveLength(rows);
    expect(new Set(parsed.map((r) => r['Ticket ID'])).size).toBe(rows);
  });

  it('refuses another tenant’s export id, another user’s URL, a forged or expired signature', async () => {
    const started = (await organiser.get(REPORT_PATHS.eventOrdersDownload(tenant.id, gala.id))).body;
    await server.app.deps.jobs.drain();
    const otherAdmin = server.client();
    await otherAdmin.login((await givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } })).email);
    expect((await otherAdmin.get(REPORT_PATHS.tenantExport(other.id, started.exportId))).status).toBe(404);
    expect((await otherAdmin.get(started.downloadUrl)).status).toBe(404);
    const staff = server.client();
    await staff.login((await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_staff'] } })).email);
    expect((await staff.get(started.downloadUrl)).status).toBe(404);
    expect((await organiser.get(REPORT_PATHS.eventExport(tenant.id, fair.id, started.exportId))).status).toBe(404);
    expect((await organiser.get(started.downloadUrl.replace(/sig=.*/, 'sig=forged'))).status).toBe(404);
    const expired = await organiser.get(exportFileUrl(server.config.secret, started.exportId, Math.floor(Date.now() / 1000) - 10));
    expect(expired.status).toBe(410);
    expect(expired.body.error.message).toBe(M.exportLinkExpired);
    expect((await server.client().get(started.downloadUrl)).status).toBe(401);
    expect((await organiser.get(started.downloadUrl)).status).toBe(200);
  });

  it('removes exports older than EXPORT_RETENTION_HOURS, file and row, in the periodic sweep job; newer ones stay (issue 21)', async () => {
    const db = server.app.deps.db;
    const storage = server.app.deps.storage;
    const started = (await organiser.get(REPORT_PATHS.eventOrdersDownload(tenant.id, gala.id))).body;
    const recent = (await organiser.get(REPORT_PATHS.eventOrdersDownload(tenant.id, gala.id))).body;
    await server.app.deps.jobs.drain();
    const rowOf = async (id: string) => (await db.select().from(reportExports).where(eq(reportExports.id, id)))[0];
    const written = (await rowOf(started.exportId))!;
    expect(written.status).toBe('done');
    expect(await storage.get(written.fileKey!)).not.toBeNull();
    expect((await organiser.get(started.downloadUrl)).status).toBe(200);
    // One written 25 hours ago, one that failed 25 hours ago, one stuck pending since two days ago (a dead job), and the recent one.
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    await db.update(reportExports).set({ finishedAt: ago(25), createdAt: ago(25) }).where(eq(reportExports.id, written.id));
    const failed = randomUUID();
    const stuck = randomUUID();
    const base = { tenantId: tenant.id, kind: 'orders', params: '{}', fileName: 'x.csv', requestedBy: written.requestedBy };
    await db.insert(reportExports).values([
      { ...base, id: failed, status: 'failed', error: 'x', createdAt: ago(26), finishedAt: ago(25) },
      { ...base, id: stuck, status: 'running', createdAt: ago(49) },
    ]);

    // Kept for a week (EXPORT_RETENTION_HOURS=168): nothing goes.
    const config = server.app.deps.config;
    config.exportRetentionHours = 168;
    const runSweep = async () => {
      await db.execute(sql`update jobs set run_at = now() where name = 'report-exports.sweep' and done_at is null`);
      await server.app.deps.jobs.drain();
    };
    await runSweep();
    expect(await rowOf(written.id)).toBeDefined();
    expect(await storage.get(written.fileKey!)).not.toBeNull();

    // Kept for a day (the default): the three old ones go, file and row; the recent one stays.
    config.exportRetentionHours = 24;
    await runSweep();
    for (const id of [written.id, failed, stuck]) expect(await rowOf(id), id).toBeUndefined();
    expect(await storage.get(written.fileKey!)).toBeNull();
    const kept = (await rowOf(recent.exportId))!;
    expect(kept.status).toBe('done');
    expect(await storage.get(kept.fileKey!)).not.toBeNull();
    expect((await organiser.get(recent.downloadUrl)).status).toBe(200);
    // The removed export's link and status are gone with it.
    expect((await organiser.get(started.downloadUrl)).status).toBe(404);
    expect((await organiser.get(REPORT_PATHS.eventExport(tenant.id, gala.id, started.exportId))).status).toBe(404);
    // The sweep queued its next run.
    const next = await db.select().from(jobs).where(sql`${jobs.name} = 'report-exports.sweep' and ${jobs.doneAt} is null`);
    expect(next.length).toBe(1);
    expect(next[0]!.runAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('gives up after three attempts with the §8 message, on the status route and the URL', async () => {
    const db = server.app.deps.db;
    const started = (await organiser.get(REPORT_PATHS.eventRefundsDownload(tenant.id, gala.id))).body;
    // A filter the report no longer takes: every attempt fails.
    await db.update(reportExports).set({ params: JSON.stringify({ scope: { tenantId: tenant.id, eventId: gala.id }, query: { filters: 'details.gone=1' } }) }).where(eq(reportExports.id, started.exportId));
    for (let attempt = 1; attempt <= 3; attempt++) {
      await db.execute(sql`update jobs set run_at = now() where name = 'report-export' and done_at is null and failed_at is null`);
      await server.app.deps.jobs.drain();
      const status = (await organiser.get(REPORT_PATHS.eventExport(tenant.id, gala.id, started.exportId))).body;
      expect(status.status).toBe(attempt < 3 ? 'pending' : 'failed');
    }
    const status = (await organiser.get(REPORT_PATHS.eventExport(tenant.id, gala.id, started.exportId))).body;
    expect(status.error).toBe(M.exportRefundListFailed);
    const file = await organiser.get(status.downloadUrl);
    expect(file.status).toBe(409);
    expect(file.body.error.message).toBe(M.exportRefundListFailed);
  });

  it('answers spec §8 when an event has no refunds to export', async () => {
    const quiet = await givenEvent(server, tenant.id);
    const res = await organiser.get(REPORT_PATHS.eventRefundsDownload(tenant.id, quiet.id));
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: 'CONFLICT', message: M.refundsExportEmpty, domainCode: 'NOTHING_TO_EXPORT' });
  });
});
