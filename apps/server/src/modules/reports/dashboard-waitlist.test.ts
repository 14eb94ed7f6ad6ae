import { REPORT_PATHS, type TReportDashboard } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutPayload, givenEventOnSale, givenTenantWithSettings, givenUser, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { outbox } from '../../db/schema/index.js';
import { runOutHold } from '../../../test/fixtures/run-out-hold.js';

// Issue 24 "the dashboard shows how many joined and bought": the event and tenant dashboards carry
// the waiting list's counts, the same as the event's Waiting list tab.

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let organiser: Client;
let otherOrganiser: Client;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  other = await givenTenantWithSettings(server);
  organiser = server.client(tenant.url);
  await organiser.login((await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } })).email);
  otherOrganiser = server.client(other.url);
  await otherOrganiser.login((await givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } })).email);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;

/** The hold runs out now (test/fixtures/run-out-hold.ts). */
const expire = (orderUid: string) => runOutHold(server, orderUid);

describe('the waiting list on the dashboards', () => {
  it('shows how many joined and how many bought, as the Waiting list tab counts them', async () => {
    const event = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 1 }] });
    const typeId = event.ticketTypeIds[0]!;
    const ordersPath = `/api/p/tenants/${tenant.id}/events/${event.id}/orders`;
    const c = server.client(tenant.url);
    const hold = await c.post(ordersPath, checkoutPayload([{ ticketTypeId: typeId, quantity: 1 }], { email: 'first@example.test' }));
    expect(hold.status).toBe(201);

    const empty = (await organiser.get(REPORT_PATHS.eventDashboard(tenant.id, event.id))).body as TReportDashboard;
    expect(empty.waitlist).toEqual({ joined: 0, bought: 0 });

    for (const email of ['alice@example.test', 'bob@example.test']) {
      expect((await c.post(`/api/p/tenants/${tenant.id}/events/${event.id}/waitlist`, { ticketTypeId: typeId, email, quantity: 1 })).status).toBe(201);
    }
    expect(((await organiser.get(REPORT_PATHS.eventDashboard(tenant.id, event.id))).body as TReportDashboard).waitlist).toEqual({ joined: 2, bought: 0 });

    // The hold runs out: Alice is offered the ticket, claims it and pays.
    await expire(hold.body.orderUID);
    const [mail] = (await db().select().from(outbox).where(eq(outbox.to, 'alice@example.test'))).filter((m) => m.subject.startsWith('Tickets are available'));
    const url = new URL(/(https?:\/\/\S+)/.exec(mail!.text)![1]!);
    const claim = await c.post(`/api/p/tenants/${tenant.id}/events/${event.id}/waitlist/claim`, { entryId: url.searchParams.get('entry'), token: url.searchParams.get('token') });
    expect(claim.status).toBe(200);
    const placed = await c.post(ordersPath, { ...checkoutPayload([{ ticketTypeId: typeId, quantity: 1 }], { email: 'alice@example.test' }), draftOrderUID: claim.body.orderUID });
    expect(placed.status).toBe(201);
    const pay = new URL(placed.body.message);
    const form = new URLSearchParams({ cardNumber: '4242424242424242', expiry: '11/39', cvc: '999' }).toString();
    expect((await c.request('POST', pay.pathname, Buffer.from(form), { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(303);
    await server.app.deps.jobs.drain();

    const tab = (await organiser.get(`/api/tenants/${tenant.id}/events/${event.id}/waitlist`)).body;
    expect(tab.counts).toMatchObject({ joined: 2, bought: 1 });
    const eventDashboard = (await organiser.get(REPORT_PATHS.eventDashboard(tenant.id, event.id))).body as TReportDashboard;
    expect(eventDashboard.waitlist).toEqual({ joined: tab.counts.joined, bought: tab.counts.bought });
    const tenantDashboard = (await organiser.get(REPORT_PATHS.tenantDashboard(tenant.id))).body as TReportDashboard;
    expect(tenantDashboard.waitlist).toEqual({ joined: 2, bought: 1 });

    // Another tenant sees none of it, and its event's dashboard of this event is not found.
    expect(((await otherOrganiser.get(REPORT_PATHS.tenantDashboard(other.id))).body as TReportDashboard).waitlist).toEqual({ joined: 0, bought: 0 });
    expect((await otherOrganiser.get(REPORT_PATHS.eventDashboard(other.id, event.id))).status).toBe(404);
  });
});
