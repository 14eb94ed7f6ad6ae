import { randomUUID } from 'node:crypto';
import { PLATFORM_ROLES, REPORT_PATHS } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenEvent, givenTenant, givenUser, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { givenSale } from '../../../test/fixtures/sales.js';

// Who reads which report (docs/decisions.md "Who reads the reports"), on every report route, and
// another tenant's ids answering 404.

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let event: { id: string };
let sibling: { id: string };
let otherEvent: { id: string };
const clients: Record<string, Client> = {};

const TENANT_ACTORS = ['tenant_admin', 'tenant_staff', 'event_manager', 'sibling_manager', 'event_checkin', 'other_tenant_admin', 'attendee', 'anonymous'] as const;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server);
  other = await givenTenant(server);
  event = await givenEvent(server, tenant.id);
  sibling = await givenEvent(server, tenant.id);
  otherEvent = await givenEvent(server, other.id);
  await givenSale(server, tenant.id, event.id, { refunds: [{ amount: 100 }] });
  await givenSale(server, other.id, otherEvent.id, { refunds: [{ amount: 100 }] });
  const login = async (name: string, host: string | undefined, opts: Parameters<typeof givenUser>[1]) => {
    const c = server.client(host);
    await c.login((await givenUser(server, opts)).email);
    clients[name] = c;
  };
  await login('tenant_admin', tenant.url, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
  await login('tenant_staff', tenant.url, { tenant: { id: tenant.id, roles: ['tenant_staff'] } });
  await login('event_manager', tenant.url, { event: { tenantId: tenant.id, eventId: event.id, roles: ['event_manager'] } });
  await login('sibling_manager', tenant.url, { event: { tenantId: tenant.id, eventId: sibling.id, roles: ['event_manager'] } });
  await login('event_checkin', tenant.url, { event: { tenantId: tenant.id, eventId: event.id, roles: ['event_checkin'] } });
  await login('other_tenant_admin', undefined, { tenant: { id: other.id, roles: ['tenant_admin'] } });
  await login('attendee', tenant.url, {});
  clients.anonymous = server.client(tenant.url);
  for (const role of PLATFORM_ROLES) await login(role, undefined, { platformRoles: [role] });
});
afterAll(async () => {
  await server.close();
});

async function statuses(path: string, who: readonly string[]) {
  const out: Record<string, number> = {};
  for (const name of who) out[name] = (await clients[name]!.get(path)).status;
  return out;
}

const T = () => tenant.id;
const E = () => event.id;

const tenantRoutes = () => [
  REPORT_PATHS.tenantDashboard(T()),
  REPORT_PATHS.eventList(T()),
  REPORT_PATHS.eventListDownload(T()),
  REPORT_PATHS.tenantOrders(T()),
  REPORT_PATHS.tenantOrdersDownload(T()),
  REPORT_PATHS.tenantRefunds(T()),
  REPORT_PATHS.tenantRefundsDownload(T()),
  REPORT_PATHS.tenantSubscribers(T()),
  REPORT_PATHS.tenantSubscribersDownload(T()),
  REPORT_PATHS.tenantSalesOverTime(T()),
  REPORT_PATHS.tenantTicketTypes(T()),
];
const eventRoutes = (tenantId: string, eventId: string) => [
  REPORT_PATHS.eventDashboard(tenantId, eventId),
  REPORT_PATHS.eventOrders(tenantId, eventId),
  REPORT_PATHS.eventOrdersDownload(tenantId, eventId),
  REPORT_PATHS.eventTickets(tenantId, eventId),
  REPORT_PATHS.eventTicketsDownload(tenantId, eventId),
  REPORT_PATHS.eventRefunds(tenantId, eventId),
  REPORT_PATHS.eventRefundsDownload(tenantId, eventId),
  REPORT_PATHS.eventSubscribers(tenantId, eventId),
  REPORT_PATHS.eventSubscribersDownload(tenantId, eventId),
  REPORT_PATHS.eventSalesOverTime(tenantId, eventId),
  REPORT_PATHS.eventTicketTypes(tenantId, eventId),
];

describe('tenant report routes', () => {
  it('are for the tenant’s admins and staff and every platform role; event staff get 403, strangers 404', async () => {
    for (const path of tenantRoutes()) {
      expect(await statuses(path, TENANT_ACTORS), path).toEqual({
        tenant_admin: 200, tenant_staff: 200, event_manager: 403, sibling_manager: 403, event_checkin: 403,
        other_tenant_admin: 404, attendee: 404, anonymous: 401,
      });
      expect(await statuses(path, PLATFORM_ROLES), path).toEqual({ super_user: 200, platform_manager: 200, platform_report: 200, platform_user: 200 });
    }
  });
});

describe('event report routes', () => {
  it('add the event’s own manager; check-in staff and other events’ managers get 403', async () => {
    for (const path of eventRoutes(T(), E())) {
      expect(await statuses(path, TENANT_ACTORS), path).toEqual({
        tenant_admin: 200, tenant_staff: 200, event_manager: 200, sibling_manager: 403, event_checkin: 403,
        other_tenant_admin: 404, attendee: 404, anonymous: 401,
      });
      expect(await statuses(path, ['platform_report']), path).toEqual({ platform_report: 200 });
    }
  });

  it('answer 404 for another tenant’s event under this tenant, and for an unknown event', async () => {
    for (const path of [...eventRoutes(T(), otherEvent.id), ...eventRoutes(T(), randomUUID())]) {
      expect(await statuses(path, ['tenant_admin', 'super_user']), path).toEqual({ tenant_admin: 404, super_user: 404 });
    }
  });

  it('answer 400 for an event id that is not one', async () => {
    const res = await clients.tenant_admin!.get(REPORT_PATHS.eventOrders(T(), 'nope'));
    expect(res.status).toBe(400);
  });
});

describe('platform report routes', () => {
  it('are for platform roles only', async () => {
    for (const path of [
      REPORT_PATHS.tenantList(),
      REPORT_PATHS.tenantListDownload(),
      REPORT_PATHS.taxesDownload(),
      REPORT_PATHS.donationsDownload(),
      REPORT_PATHS.platformEventListDownload(T()),
    ]) {
      expect(await statuses(path, PLATFORM_ROLES), path).toEqual({ super_user: 200, platform_manager: 200, platform_report: 200, platform_user: 200 });
      expect(await statuses(path, ['other_tenant_admin']), path).toEqual({ other_tenant_admin: 403 });
    }
  });

  it('answer 404 for a tenant that does not exist', async () => {
    expect((await clients.super_user!.get(REPORT_PATHS.platformEventListDownload(randomUUID()))).status).toBe(404);
    expect((await clients.super_user!.get(REPORT_PATHS.platformEventListDownload('nope'))).status).toBe(404);
  });

  it('answer an export’s status only to who asked for it', async () => {
    const started = (await clients.super_user!.get(REPORT_PATHS.taxesDownload())).body;
    expect((await clients.super_user!.get(REPORT_PATHS.platformExport(started.exportId))).body).toMatchObject({ exportId: started.exportId, status: 'pending' });
    expect((await clients.platform_report!.get(REPORT_PATHS.platformExport(started.exportId))).status).toBe(404);
    expect((await clients.tenant_admin!.get(REPORT_PATHS.tenantExport(T(), started.exportId))).status).toBe(404);
  });
});

describe('sales over time', () => {
  it('answers a range of real days, and 400 for a day that does not exist (a 500 the OpenAPI fuzz found)', async () => {
    const admin = clients.tenant_admin!;
    const ok = await admin.get(`${REPORT_PATHS.tenantSalesOverTime(tenant.id)}?from=2026-01-01&to=2026-01-31`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ from: '2026-01-01', to: '2026-01-31' });
    for (const to of ['0000-00-00', '2026-02-31', '2026-13-01']) {
      const bad = await admin.get(`${REPORT_PATHS.tenantSalesOverTime(tenant.id)}?to=${to}`);
      expect(bad.status, to).toBe(400);
      expect(bad.body.error.message).toBe('to must be YYYY-MM-DD');
    }
  });
});
