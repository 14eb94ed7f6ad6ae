import { DEFAULT_SURCHARGE_RULE_ID, REFUND_POLICY_ID, TERMS_POLICY_ID } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charities, globalSurchargeRules, globalTicketSettings, policies, surchargeRules, tenants } from '../../db/schema/index.js';
import { DEMO_TENANT, seedIfEmpty } from '../../seed.js';
import { DEMO_CHARITY } from '../events/demo.js';
import { startServer, type TestServer } from '../../../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('start-up seeding', () => {
  it('seeds the global fees, the policies and a demo tenant made by createTenant, with a charity it enabled; every later start changes nothing', async () => {
    const deps = server.app.deps;
    expect(await seedIfEmpty(deps)).toEqual({ seeded: true });
    const admin = server.client();
    await admin.login(deps.config.adminEmail, deps.config.adminPassword);

    const [demo] = await deps.db.select().from(tenants).where(eq(tenants.url, DEMO_TENANT.url));
    expect(demo).toBeDefined();
    const setting = await admin.get(`/api/tenants/${demo!.id}/setting`);
    expect(setting.status).toBe(200);
    // The demo tenant's default rule is its own copy of the global default rule.
    expect(setting.body.defaultSurchargeRule).toEqual(expect.any(String));
    const [defaultRule] = await deps.db
      .select()
      .from(surchargeRules)
      .where(and(eq(surchargeRules.tenantId, demo!.id), eq(surchargeRules.id, setting.body.defaultSurchargeRule)));
    expect(defaultRule?.copiedFrom).toBe(DEFAULT_SURCHARGE_RULE_ID);
    expect((await admin.get(`/api/tenants/${demo!.id}/payment-settings`)).status).toBe(200);
    await deps.jobs.drain();
    expect((await admin.get(`/api/tenants/${demo!.id}`)).body.details.status).toBe('active');

    // The demo charity: active on the platform's list, and enabled by the demo tenant.
    const platformCharities = await admin.get('/api/platform/charities');
    expect(platformCharities.body.result.map((c: { details: { name: string; status: string } }) => [c.details.name, c.details.status])).toEqual([
      [DEMO_CHARITY.name, 'active'],
    ]);
    const tenantCharities = await admin.get(`/api/tenants/${demo!.id}/charities`);
    expect(tenantCharities.body.result).toEqual([expect.objectContaining({ details: expect.objectContaining({ name: DEMO_CHARITY.name, enabled: true }) })]);

    // an operator's later changes survive restarts
    await deps.db.delete(policies).where(eq(policies.id, TERMS_POLICY_ID));
    await admin.put('/api/global/setting', { ...(await admin.get('/api/global/setting')).body, ownerId: undefined, donationServiceFee: 7 });
    expect(await seedIfEmpty(deps)).toEqual({ seeded: false });
    expect(await seedIfEmpty(deps)).toEqual({ seeded: false });
    expect((await admin.get('/api/global/setting')).body.donationServiceFee).toBe(7);
    expect(await deps.db.select().from(globalTicketSettings)).toHaveLength(1);
    expect(await deps.db.select().from(globalSurchargeRules).where(eq(globalSurchargeRules.id, DEFAULT_SURCHARGE_RULE_ID))).toHaveLength(1);
    expect((await deps.db.select().from(policies)).map((p) => p.id)).toEqual([REFUND_POLICY_ID]);
    expect(await deps.db.select().from(charities)).toHaveLength(1);
    // The seed places, pays and fulfils the demo history's orders: longer than a plain start.
  }, 180_000);
});
