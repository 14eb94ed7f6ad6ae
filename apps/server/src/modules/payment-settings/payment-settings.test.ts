import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  givenPlatformAdmin,
  givenTenant,
  givenTenantWithSettings,
  notFoundError,
  startServer,
  validationError,
  type Client,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { givenActors, statusesOf, type Actors } from '../../../test/actors.js';

let server: TestServer;
let admin: Client;
let tenant: GivenTenant;
let other: GivenTenant;
let actors: Actors;

beforeAll(async () => {
  server = await startServer();
  const user = await givenPlatformAdmin(server);
  admin = server.client();
  await admin.login(user.email);
  tenant = await givenTenantWithSettings(server);
  other = await givenTenantWithSettings(server);
  actors = await givenActors(server, tenant, other);
});
afterAll(async () => {
  await server.close();
});

describe('payment/payout settings', () => {
  it('reads the new-tenant defaults, with the fees taken from the ticket settings', async () => {
    const res = await admin.get(`/api/tenants/${tenant.id}/payment-settings`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tenantId: tenant.id,
      payout: { automatic: false, date: null, type: 'end_of_event', tag: null, chargeSurchargeFeesToPlatform: false },
      payment: { processorType: 'stripe', profileId: null, direct: false, type: 'platform', tag: null, id: null },
      fees: {
        serviceFeeRoundUp: 1,
        serviceFeeOnlineSales: 'SERVICE_FEE_OPTION_ONLINE_1',
        serviceFeeBackendSales: 'SERVICE_FEE_OPTION_BACKEND_1',
        serviceFeeAppSales: 'SERVICE_FEE_OPTION_APP_1',
      },
      gateway: { provider: 'stripe', customerId: null, test: true },
    });
  });

  it('forces automatic payouts from the chosen account, whatever the client sends', async () => {
    const toTenant = await admin.post('/api/payment/payout-update', {
      tenantId: tenant.id,
      payment: { type: 'tenant', profileId: 'acct_123', processorType: 'something-else' },
      payout: { automatic: false, chargeSurchargeFeesToPlatform: true },
    });
    expect(toTenant.status).toBe(200);
    expect(toTenant.body.message).toBe(M.paymentUpdated);
    expect(toTenant.body.settings.payout).toMatchObject({ automatic: true, chargeSurchargeFeesToPlatform: true, type: 'end_of_event' });
    expect(toTenant.body.settings.payment).toMatchObject({ type: 'tenant', profileId: 'acct_123', processorType: 'stripe' });

    const toPlatform = await admin.post('/api/payment/payout-update', {
      tenantId: tenant.id,
      payment: { type: 'platform' },
      payout: { automatic: true, type: 'weekly' },
    });
    expect(toPlatform.body.settings.payout).toMatchObject({ automatic: false, type: 'weekly', chargeSurchargeFeesToPlatform: true });
    expect(toPlatform.body.settings.payment).toMatchObject({ type: 'platform', profileId: 'acct_123' });
    expect((await admin.get(`/api/tenants/${tenant.id}/payment-settings`)).body.payout.automatic).toBe(false);
  });

  it("answers 'No Payment/payout settings found for this Tenant' when missing, and creates them on update", async () => {
    const bare = await givenTenant(server);
    const missing = await admin.get(`/api/tenants/${bare.id}/payment-settings`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(M.paymentSettingsMissing);
    const created = await admin.post('/api/payment/payout-update', { tenantId: bare.id, payment: { type: 'tenant' } });
    expect(created.status).toBe(200);
    // spec §9: on the settings screen payouts default to weekly
    expect(created.body.settings.payout).toMatchObject({ automatic: true, type: 'weekly' });
  });

  it.each([
    [{ payment: { type: 'platform' } }, 'tenantId', M.tenantIdRequired],
    [{ tenantId: 'x' }, 'payment', M.inputValidationError],
    [{ tenantId: '', payment: { type: 'platform' } }, 'tenantId', M.tenantIdRequired],
    [{ tenantId: 'x', payment: { type: 'nobody' } }, 'payment.type', M.invalidValue],
    [{ tenantId: 'x', payment: { type: 'tenant' }, payout: { type: 'hourly' } }, 'payout.type', M.invalidValue],
  ])('refuses %o with a clear message', async (body, field, message) => {
    const res = await admin.post('/api/payment/payout-update', body);
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('answers 404 for tenants that do not exist or were deleted', async () => {
    expect((await admin.post('/api/payment/payout-update', { tenantId: randomUUID(), payment: { type: 'tenant' } })).status).toBe(404);
    expect((await admin.post('/api/payment/payout-update', { tenantId: 'not-a-uuid', payment: { type: 'tenant' } })).status).toBe(404);
    const gone = await givenTenantWithSettings(server);
    await admin.delete(`/api/tenants/${gone.id}`);
    expect((await admin.post('/api/payment/payout-update', { tenantId: gone.id, payment: { type: 'tenant' } })).status).toBe(404);
    expect((await admin.get(`/api/tenants/${gone.id}/payment-settings`)).status).toBe(404);
  });

  it('answers GET with a malformed tenant id like a tenant that does not exist (404), and a NUL with a 400', async () => {
    for (const id of ['not-a-uuid', `${tenant.id}0`, tenant.id.replace(/-/g, ''), '0', "x'%3B--", '%F0%9F%98%80']) {
      const res = await admin.get(`/api/tenants/${id}/payment-settings`);
      expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: notFoundError });
    }
    const nul = await admin.get(`/api/tenants/${tenant.id}%00/payment-settings`);
    expect({ status: nul.status, body: nul.body }).toEqual({ status: 400, body: validationError('tenantId', M.invalidValue) });
    // The tenant's own settings still answer.
    expect((await admin.get(`/api/tenants/${tenant.id}/payment-settings`)).status).toBe(200);
  });
});

describe('payment settings routes: who may call them', () => {
  it('GET /api/tenants/:tenantId/payment-settings', async () => {
    expect(await statusesOf(actors, 'tenant', (c) => c.get(`/api/tenants/${tenant.id}/payment-settings`))).toEqual({
      super_user: 200, platform_manager: 200, platform_report: 404, platform_user: 200,
      tenant_admin: 200, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401,
    });
    expect((await actors.tenant_admin.tenant.get(`/api/tenants/${other.id}/payment-settings`)).status).toBe(404);
  });

  it('POST /api/payment/payout-update', async () => {
    const body = { tenantId: tenant.id, payment: { type: 'platform' } };
    expect(await statusesOf(actors, 'platform', (c) => c.post('/api/payment/payout-update', body))).toEqual({
      super_user: 200, platform_manager: 200, platform_report: 403, platform_user: 403,
      tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 403, attendee: 403, anonymous: 401,
    });
    // a tenant admin cannot reach it from its own console either
    expect((await actors.tenant_admin.tenant.post('/api/payment/payout-update', body)).status).toBe(404);
  });
});
