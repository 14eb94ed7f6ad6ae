import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenEventOnSale, givenPlatformAdmin, givenTenantWithSettings, type Client, type GivenTenant, type TestServer, startServer } from '../../../test/harness.js';
import { ensureGlobalFeeDefaults } from '../fees/service.js';

// issue 15: the tenant's autoShowActiveTicketsAsSoldOut reaches the attendee site with the event,
// where the menu applies core's ticketTypesOnMenu (docs/decisions.md "Sold-out ticket types on the menu").
let server: TestServer;
let admin: Client;
let tenant: GivenTenant;
let other: GivenTenant;
let urlName: string;

beforeAll(async () => {
  server = await startServer();
  await ensureGlobalFeeDefaults(server.app.deps);
  admin = server.client();
  await admin.login((await givenPlatformAdmin(server)).email);
  tenant = await givenTenantWithSettings(server);
  other = await givenTenantWithSettings(server);
  const event = await givenEventOnSale(server, tenant.id, {
    name: 'Full House',
    ticketTypes: [
      { name: 'General Admission', price: 2000, quantity: 50 },
      { name: 'Front Row', price: 9000, quantity: 4, remaining: 0 },
    ],
  });
  urlName = event.urlName;
});
afterAll(async () => {
  await server.close();
});

async function setAutoShow(t: GivenTenant, on: boolean) {
  const { ownerId: _o, defaultSurchargeRule: _d, ...editable } = (await admin.get(`/api/tenants/${t.id}/setting`)).body;
  const res = await admin.put(`/api/tenants/${t.id}/setting`, { ...editable, autoShowActiveTicketsAsSoldOut: on });
  expect(res.status).toBe(200);
}

describe('autoShowActiveTicketsAsSoldOut on the attendee site', () => {
  it('is off for a new tenant and follows the switch, on the event and on its settings call', async () => {
    const site = server.client(tenant.url);
    const before = await site.get(`/api/p/events/${urlName}`);
    expect(before.status).toBe(200);
    expect(before.body.settings.autoShowActiveTicketsAsSoldOut).toBe(false);
    // Every active type is still sent with its remaining count: the menu decides what to list, so
    // the buyer's own hold on the last tickets and "on sale after another sells out" keep working.
    expect(before.body.ticketTypes.map((t: { details: { name: string; remainingQuantity: number } }) => [t.details.name, t.details.remainingQuantity])).toEqual([
      ['General Admission', 50],
      ['Front Row', 0],
    ]);

    await setAutoShow(tenant, true);
    const after = await site.get(`/api/p/events/${urlName}`);
    expect(after.body.settings.autoShowActiveTicketsAsSoldOut).toBe(true);
    const settings = await site.get(`/api/p/tenants/${tenant.id}/events/${after.body.id}/setting`);
    expect(settings.status).toBe(200);
    expect(settings.body.autoShowActiveTicketsAsSoldOut).toBe(true);

    // Another tenant's switch changes nothing here, and its host does not serve this event.
    await setAutoShow(tenant, false);
    await setAutoShow(other, true);
    expect((await site.get(`/api/p/events/${urlName}`)).body.settings.autoShowActiveTicketsAsSoldOut).toBe(false);
    expect((await server.client(other.url).get(`/api/p/events/${urlName}`)).status).toBe(404);
  });

  it('refuses a switch that is not a boolean with a clear 400', async () => {
    const { ownerId: _o, defaultSurchargeRule: _d, ...editable } = (await admin.get(`/api/tenants/${tenant.id}/setting`)).body;
    const res = await admin.put(`/api/tenants/${tenant.id}/setting`, { ...editable, autoShowActiveTicketsAsSoldOut: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION');
  });
});
