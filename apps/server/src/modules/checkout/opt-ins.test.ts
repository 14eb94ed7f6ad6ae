import { M, REPORT_PATHS } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, subscribers } from '../../db/schema/index.js';
import { checkoutPayload, givenEventOnSale, givenTenantAdmin, givenTenantWithSettings, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { markOrderPaid } from '../orders/payment.js';
import { parseCsv } from '../../../test/fixtures/sales.js';

// Issue 21.9: the checkout's text opt-in (the spec's optInText) is sent, checked, stored, and shown
// beside the e-mail opt-in in the subscribers report and its export; only e-mail opt-ins are the
// marketing audience of messages to attendees.

let server: TestServer, tenant: GivenTenant, admin: Client;
beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  admin = await givenTenantAdmin(server, tenant);
});
afterAll(() => server.close());

const db = () => server.app.deps.db;
const site = () => server.client(tenant.url);
const ordersPath = (eventId: string) => `/api/p/tenants/${tenant.id}/events/${eventId}/orders`;

async function buyAndFulfil(eventId: string, ticketTypeId: string, order: Record<string, unknown>) {
  const placed = await site().post(ordersPath(eventId), checkoutPayload([{ ticketTypeId, quantity: 1 }], order));
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const [row] = await db().select().from(orders).where(eq(orders.orderUid, placed.body.orderUID));
  await db().transaction((tx) => markOrderPaid({ deps: server.app.deps, tx, orderId: row!.id, provider: 'test', sessionId: `cs_${row!.id}`, chargeId: `pi_${row!.id}`, paymentMethod: 'card' }));
  await server.app.deps.jobs.drain();
  return row!;
}

describe('the text opt-in (issue 21.9)', () => {
  it('needs a mobile number: without one PLACE ORDER is a 400 on the phone field and holds nothing', async () => {
    const e = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 10 }] });
    for (const phone of [null, '']) {
      const res = await site().post(ordersPath(e.id), checkoutPayload([{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 1 }], { optInText: true, phone }));
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toEqual({ 'order.phone': M.optInTextNeedsPhone });
    }
    expect(await db().select().from(orders).where(eq(orders.eventId, e.id))).toEqual([]);
    // A non-boolean opt-in is bad input too.
    const bad = await site().post(ordersPath(e.id), checkoutPayload([{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 1 }], { optInText: 'yes' }));
    expect(bad.status).toBe(400);
  });

  it('is stored with the order, and a paid order subscribes its number; the report and its export show both opt-ins', async () => {
    const e = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 10 }] });
    const ga = e.ticketTypeIds[0]!;
    const textOnly = await buyAndFulfil(e.id, ga, { email: 'texts@example.test', optInText: true, optInEmail: false, phone: '+16175550123' });
    expect(textOnly).toMatchObject({ optInText: true, optInEmail: false, phone: '+16175550123' });
    await buyAndFulfil(e.id, ga, { email: 'mails@example.test', optInEmail: true, optInText: false });
    await buyAndFulfil(e.id, ga, { email: 'quiet@example.test' });
    // Both, over two orders: a later order adds to what the first opted in to.
    await buyAndFulfil(e.id, ga, { email: 'both@example.test', optInEmail: true });
    await buyAndFulfil(e.id, ga, { email: 'both@example.test', optInText: true, phone: '+16175550199' });

    const rows = await db().select().from(subscribers).where(eq(subscribers.eventId, e.id));
    expect(rows.map((r) => [r.email, r.optInEmail, r.optInText, r.phone]).sort()).toEqual([
      ['both@example.test', true, true, '+16175550199'],
      ['mails@example.test', true, false, null],
      ['texts@example.test', false, true, '+16175550123'],
    ]);

    const list = await admin.get(`${REPORT_PATHS.eventSubscribers(tenant.id, e.id)}?sort=details.email`);
    expect(list.status).toBe(200);
    expect(list.body.result.map((r: { details: Record<string, unknown> }) => [r.details.email, r.details.optInEmail, r.details.optInText, r.details.phone])).toEqual([
      ['both@example.test', true, true, '+16175550199'],
      ['mails@example.test', true, false, null],
      ['texts@example.test', false, true, '+16175550123'],
    ]);

    const started = await admin.get(REPORT_PATHS.eventSubscribersDownload(tenant.id, e.id));
    expect(started.status).toBe(200);
    await server.app.deps.jobs.drain();
    const file = await admin.get(started.body.downloadUrl);
    const csv = parseCsv(file.raw.toString('utf8')).sort((a, b) => a['Subscription Email']!.localeCompare(b['Subscription Email']!));
    // A cell that starts with + is quoted against spreadsheet formulas, as every export does.
    expect(csv.map((r) => [r['Subscription Email'], r['Email Updates'], r['Text Messages'], r['Mobile Number']])).toEqual([
      ['both@example.test', 'Yes', 'Yes', "'+16175550199"],
      ['mails@example.test', 'Yes', 'No', ''],
      ['texts@example.test', 'No', 'Yes', "'+16175550123"],
    ]);

    // Messages to attendees by e-mail: a text-only opt-in is not an e-mail subscriber.
    const audience = await admin.post(`/api/tenants/${tenant.id}/events/${e.id}/messages/audience`, { details: { recipients: 'all', marketing: true } });
    expect(audience.status).toBe(200);
    expect(audience.body).toMatchObject({ recipients: 2, notOptedIn: 2 });
  });
});
