import { randomUUID } from 'node:crypto';
import { COMPLIMENTARY_UNLIMITED, DEFAULT_SURCHARGE_RULE_ID, feeSettingsToWire, GLOBAL_OWNER_ID, M } from '@marquee/core';
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
import { ensureGlobalFeeDefaults, GLOBAL_DEFAULT_SETTINGS } from './service.js';

let server: TestServer;
let admin: Client;
let tenant: GivenTenant;
let other: GivenTenant;
let actors: Actors;

beforeAll(async () => {
  server = await startServer();
  await ensureGlobalFeeDefaults(server.app.deps);
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

const rule = (over: Record<string, unknown> = {}) => ({
  name: `Rule ${randomUUID().slice(0, 6)}`,
  serviceFeePercent: 3.5,
  serviceFeeFlatRate: 150,
  serviceFeePOSPercent: 1.25,
  serviceFeePOSFlatRate: 50,
  ...over,
});
// The seeded defaults as the wire carries them (percentages, option names).
const { ownerId: _o, defaultSurchargeRule: _d, ...fullSettings } = feeSettingsToWire(GLOBAL_DEFAULT_SETTINGS, GLOBAL_OWNER_ID);
const settings = (over: Record<string, unknown> = {}) => ({ ...fullSettings, ...over });

const ruleMessages: Array<[Record<string, unknown>, string, string]> = [
  [{ name: undefined }, 'name', M.ruleNameRequired],
  [{ name: '' }, 'name', M.ruleNameRequired],
  [{ name: 'Late fee ' }, 'name', M.ruleNameTrailing],
  [{ serviceFeePercent: undefined }, 'serviceFeePercent', M.serviceFeeRequired],
  [{ serviceFeeFlatRate: undefined }, 'serviceFeeFlatRate', M.serviceFeeRequired],
  [{ serviceFeePOSPercent: undefined }, 'serviceFeePOSPercent', M.serviceFeeRequired],
  [{ serviceFeePOSFlatRate: undefined }, 'serviceFeePOSFlatRate', M.serviceFeeRequired],
  [{ serviceFeePercent: -1 }, 'serviceFeePercent', M.invalidValue],
  [{ serviceFeeFlatRate: -5 }, 'serviceFeeFlatRate', M.invalidValue],
  [{ serviceFeePOSPercent: -0.5 }, 'serviceFeePOSPercent', M.invalidValue],
  [{ serviceFeePOSFlatRate: -1 }, 'serviceFeePOSFlatRate', M.invalidValue],
];

const settingsMessages: Array<[Record<string, unknown>, string, string]> = [
  [{ donationServiceFee: undefined }, 'donationServiceFee', M.serviceFeeRequired],
  [{ donationServiceFee: -1 }, 'donationServiceFee', M.invalidValue],
  [{ donationCharge: undefined }, 'donationCharge', M.donationChargeRequired],
  [{ donationCharge: -1 }, 'donationCharge', M.invalidValue],
  [{ chargeTax: true, taxRate: null }, 'taxRate', M.taxRateRequired],
  [{ chargeTax: true, taxRate: -2 }, 'taxRate', M.invalidValue],
  [{ chargeTax: true, taxRate: 8, chargeCash: true, chargeCashValue: null }, 'chargeCashValue', M.chargeCashRequired],
  [{ chargeTax: true, taxRate: 8, chargeCash: true, chargeCashValue: -1 }, 'chargeCashValue', M.invalidValue],
  [{ chargeTax: true, taxRate: 8, chargeOnline: true, chargeOnlineValue: -1 }, 'chargeOnlineValue', M.invalidValue],
  [{ chargeBoxOfficeValue: undefined }, 'chargeBoxOfficeValue', M.chargeBoxOfficeRequired],
  [{ chargeBoxOfficeValue: -1 }, 'chargeBoxOfficeValue', M.invalidValue],
  [{ processingFee: undefined }, 'processingFee', M.processingFeeRequired],
  [{ processingFee: -1 }, 'processingFee', M.invalidValue],
  [{ platformFee: undefined }, 'platformFee', M.platformFeeRequired],
  [{ platformFee: -1 }, 'platformFee', M.invalidValue],
  [{ maximumComplimentaryTickets: 0 }, 'maximumComplimentaryTickets', M.complimentaryLimited],
  [{ maximumComplimentaryTickets: undefined }, 'maximumComplimentaryTickets', M.complimentaryLimited],
  // 'Round service fees up to' is required (*) like the other amounts: left out it is refused,
  // not quietly reset to a cent.
  [{ roundUpServiceFeeValue: undefined }, 'roundUpServiceFeeValue', M.fieldRequired],
  [{ roundUpServiceFeeValue: null }, 'roundUpServiceFeeValue', M.fieldRequired],
  [{ roundUpServiceFeeValue: 0 }, 'roundUpServiceFeeValue', M.invalidValue],
];

describe('global fees (the template for new tenants)', () => {
  it('are seeded on first start with the spec defaults, idempotently', async () => {
    await ensureGlobalFeeDefaults(server.app.deps);
    const s = await admin.get('/api/global/setting');
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({
      ownerId: 'global',
      defaultSurchargeRule: DEFAULT_SURCHARGE_RULE_ID,
      donationServiceFee: 20,
      donationCharge: 0,
      roundUpServiceFeeValue: 1,
      serviceFeePassAlongOptionOnline: 'SERVICE_FEE_OPTION_ONLINE_1',
      serviceFeePassAlongOptionBackend: 'SERVICE_FEE_OPTION_BACKEND_1',
      serviceFeePassAlongOptionApp: 'SERVICE_FEE_OPTION_APP_1',
      maximumComplimentaryTickets: COMPLIMENTARY_UNLIMITED,
    });
    const rules = await admin.get('/api/global/rules?filters=details.name=Standard');
    expect(rules.body.result).toHaveLength(1);
    expect(rules.body.result[0]).toEqual({
      ownerId: 'global',
      rule: {
        id: DEFAULT_SURCHARGE_RULE_ID,
        name: 'Standard Service Fee',
        serviceFeePercent: 2.5,
        serviceFeeFlatRate: 99,
        serviceFeePOSPercent: 0,
        serviceFeePOSFlatRate: 0,
        default: true,
        active: true,
        ownerId: 'global',
      },
    });
  });

  it('creates a rule (data.rule.id), toggles it, makes it default, and refuses to switch off or delete the default', async () => {
    const created = await admin.post('/api/global/rule', rule({ name: 'Premium' }));
    expect(created.status).toBe(201);
    const id: string = created.body.data.rule.id;
    expect(created.body.data.rule).toMatchObject({ name: 'Premium', serviceFeePercent: 3.5, serviceFeeFlatRate: 150, default: false, active: true, ownerId: 'global' });

    const off = await admin.patch(`/api/global/rule/${id}`, { active: false });
    expect(off.status).toBe(200);
    expect(off.body.data.rule.active).toBe(false);
    // an inactive rule cannot become the default
    const notYet = await admin.put('/api/global/setting', { defaultSurchargeRule: id });
    expect(notYet.status).toBe(409);
    expect(notYet.body.error.message).toBe(M.defaultRuleInactive);

    const full = await admin.put(`/api/global/rule/${id}`, rule({ name: 'Premium Plus', active: true, default: true }));
    expect(full.status).toBe(200);
    expect(full.body.data.rule).toMatchObject({ name: 'Premium Plus', active: true, default: true });
    expect((await admin.get('/api/global/setting')).body.defaultSurchargeRule).toBe(id);

    const switchOff = await admin.patch(`/api/global/rule/${id}`, { active: false });
    expect(switchOff.status).toBe(409);
    expect(switchOff.body.error.message).toBe(M.defaultRuleLocked);
    const undefault = await admin.patch(`/api/global/rule/${id}`, { default: false });
    expect(undefault.status).toBe(409);
    const del = await admin.delete(`/api/global/rules/${id}`);
    expect(del.status).toBe(409);
    expect(del.body.error.message).toBe(
      'This is currently set as the default surcharge rule. Please select a different rule as the default surcharge rule before deleting this rule.',
    );

    // make the seeded rule the default again with the {defaultSurchargeRule} form, then delete
    const back = await admin.put('/api/global/setting', { defaultSurchargeRule: DEFAULT_SURCHARGE_RULE_ID });
    expect(back.status).toBe(200);
    expect(back.body.settings.defaultSurchargeRule).toBe(DEFAULT_SURCHARGE_RULE_ID);
    const gone = await admin.delete(`/api/global/rules/${id}`);
    expect(gone.status).toBe(200);
    expect(gone.body.message).toBe(M.surchargeDeleted);
    expect((await admin.delete(`/api/global/rules/${id}`)).status).toBe(404);
    expect((await admin.put('/api/global/setting', { defaultSurchargeRule: 'nope' })).status).toBe(404);
  });

  it('creates a rule as the default in one call', async () => {
    const created = await admin.post('/api/global/rule', rule({ default: true }));
    expect(created.body.data.rule.default).toBe(true);
    expect((await admin.get('/api/global/setting')).body.defaultSurchargeRule).toBe(created.body.data.rule.id);
    const inactiveDefault = await admin.post('/api/global/rule', rule({ default: true, active: false }));
    expect(inactiveDefault.status).toBe(409);
    await admin.put('/api/global/setting', { defaultSurchargeRule: DEFAULT_SURCHARGE_RULE_ID });
  });

  it.each(ruleMessages)('refuses the rule %o with the spec message', async (over, field, message) => {
    const res = await admin.post('/api/global/rule', rule(over));
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('saves the full settings and keeps the default rule', async () => {
    const res = await admin.put('/api/global/setting', settings({ donationServiceFee: 12.5, chargeTax: true, taxRate: 8.25, chargeCash: true, chargeCashValue: 100, serviceFeePassAlongOptionOnline: 'SERVICE_FEE_OPTION_ONLINE_3' }));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(M.settingsUpdated);
    expect(res.body.settings).toMatchObject({ donationServiceFee: 12.5, taxRate: 8.25, chargeCashValue: 100, serviceFeePassAlongOptionOnline: 'SERVICE_FEE_OPTION_ONLINE_3', defaultSurchargeRule: DEFAULT_SURCHARGE_RULE_ID });
    expect((await admin.put('/api/global/setting', settings())).status).toBe(200);
  });

  it.each(settingsMessages)('refuses the settings %o with the spec message', async (over, field, message) => {
    const res = await admin.put('/api/global/setting', settings(over));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION');
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('names every missing amount at once, the ones that depend on Charge Tax included', async () => {
    // An empty Box Office amount must not hide the tax rate and cash amount that Charge Tax and
    // Charge Cash Order require (the form shows these messages live from the same schema).
    const before = (await admin.get('/api/global/setting')).body;
    const res = await admin.put(
      '/api/global/setting',
      settings({ chargeTax: true, taxRate: null, chargeCash: true, chargeCashValue: null, chargeBoxOffice: true, chargeBoxOfficeValue: undefined, roundUpServiceFeeValue: undefined }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({
      taxRate: M.taxRateRequired,
      chargeCashValue: M.chargeCashRequired,
      chargeBoxOfficeValue: M.chargeBoxOfficeRequired,
      roundUpServiceFeeValue: M.fieldRequired,
    });
    expect((await admin.get('/api/global/setting')).body).toEqual(before);
  });
});

describe("a tenant's fees", () => {
  it('are copies of the global template, read by the tenant and its staff', async () => {
    const rules = await actors.tenant_admin.tenant.get(`/api/tenants/${tenant.id}/rules`);
    expect(rules.status).toBe(200);
    const def = rules.body.result.find((r: { rule: { default: boolean } }) => r.rule.default);
    expect(def.ownerId).toBe(tenant.id);
    expect(def.rule.name).toBe('Standard Service Fee');
    const s = await actors.tenant_staff.tenant.get(`/api/tenants/${tenant.id}/setting`);
    expect(s.body).toMatchObject({ ownerId: tenant.id, isTenantSettingsControlEnabled: false, defaultSurchargeRule: def.rule.id, maximumComplimentaryTickets: 99999 });
  });

  it("are read-only for the tenant admin until the platform allows editing, and the switch stays the platform's", async () => {
    const t = await givenTenantWithSettings(server);
    const a = await givenActors(server, t, other);
    const tc = a.tenant_admin.tenant;
    const current = (await tc.get(`/api/tenants/${t.id}/setting`)).body;
    const { ownerId: _o, defaultSurchargeRule: def, ...editable } = current;

    for (const res of [
      await tc.post(`/api/tenants/${t.id}/rules`, rule()),
      await tc.patch(`/api/tenants/${t.id}/rules/${def}`, { name: 'Mine' }),
      await tc.delete(`/api/tenants/${t.id}/rules/${def}`),
      await tc.put(`/api/tenants/${t.id}/setting`, { ...editable, platformFee: 0 }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({ code: 'FORBIDDEN', message: M.feesEditNotAllowed, domainCode: 'FEES_LOCKED' });
    }

    const allow = await admin.put(`/api/tenants/${t.id}/setting`, { ...editable, isTenantSettingsControlEnabled: true });
    expect(allow.status).toBe(200);
    expect(allow.body.settings.isTenantSettingsControlEnabled).toBe(true);

    const created = await tc.post(`/api/tenants/${t.id}/rules`, rule({ name: 'Our own' }));
    expect(created.status).toBe(201);
    const mine: string = created.body.data.rule.id;
    expect((await tc.patch(`/api/tenants/${t.id}/rules/${mine}`, { default: true })).body.data.rule.default).toBe(true);
    const saved = await tc.put(`/api/tenants/${t.id}/setting`, { ...editable, isTenantSettingsControlEnabled: true, processingFee: 3 });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toMatchObject({ processingFee: 3, defaultSurchargeRule: mine, isTenantSettingsControlEnabled: true });
    // leaving the switch out keeps it; switching it off is the platform's call
    const { isTenantSettingsControlEnabled: _flag, ...withoutSwitch } = editable;
    const kept = await tc.put(`/api/tenants/${t.id}/setting`, { ...withoutSwitch, processingFee: 3.1 });
    expect(kept.status).toBe(200);
    expect(kept.body.settings).toMatchObject({ processingFee: 3.1, isTenantSettingsControlEnabled: true });
    const flip = await tc.put(`/api/tenants/${t.id}/setting`, { ...editable, isTenantSettingsControlEnabled: false });
    expect(flip.status).toBe(403);
    expect(flip.body.error.message).toBe(M.feesControlPlatformOnly);

    const del = await tc.delete(`/api/tenants/${t.id}/rules/${mine}`);
    expect(del.status).toBe(409);
    expect(del.body.error.message).toBe(M.defaultRuleDelete);
    expect((await tc.put(`/api/tenants/${t.id}/setting`, { defaultSurchargeRule: def })).status).toBe(200);
    expect((await tc.delete(`/api/tenants/${t.id}/rules/${mine}`)).status).toBe(200);

    // staff never write
    expect((await a.tenant_staff.tenant.post(`/api/tenants/${t.id}/rules`, rule())).status).toBe(403);
  });

  it('deletes a tenant rule through the platform path, which needs the tenant id', async () => {
    const created = await admin.post(`/api/tenants/${tenant.id}/rules`, rule());
    const id: string = created.body.data.rule.id;
    const missing = await admin.delete(`/api/platform/tenants/rules/${id}`);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(M.tenantIdRequired);
    expect((await admin.delete(`/api/platform/tenants/rules/${id}?tenantId=${other.id}`)).status).toBe(404);
    expect((await admin.delete(`/api/platform/tenants/rules/${id}?tenantId=not-a-uuid`)).status).toBe(404);
    const ok = await admin.delete(`/api/platform/tenants/rules/${id}?tenantId=${tenant.id}`);
    expect(ok.status).toBe(200);
    const def = (await admin.get(`/api/tenants/${tenant.id}/setting`)).body.defaultSurchargeRule;
    const refused = await admin.delete(`/api/platform/tenants/rules/${def}?tenantId=${tenant.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(M.defaultRuleDelete);
  });

  it("never touches another tenant's rules", async () => {
    const theirRules = async () => (await admin.get(`/api/tenants/${other.id}/rules`)).body.result;
    const before = await theirRules();
    const theirs = before[0].rule.id;
    for (const res of [
      await admin.put(`/api/tenants/${tenant.id}/rules/${theirs}`, rule({ name: 'Hijack' })),
      await admin.put(`/api/tenants/${tenant.id}/rules/${theirs}`, { ...rule({ name: 'Hijack' }), default: true }),
      await admin.patch(`/api/tenants/${tenant.id}/rules/${theirs}`, { name: 'Hijack' }),
      await actors.tenant_admin.tenant.put(`/api/tenants/${other.id}/rules/${theirs}`, rule({ name: 'Hijack' })),
    ]) {
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: notFoundError });
    }
    expect(await theirRules()).toEqual(before);
    expect((await admin.get(`/api/tenants/${tenant.id}/rules`)).body.result.map((r: { rule: { id: string } }) => r.rule.id)).not.toContain(theirs);
    expect((await admin.delete(`/api/tenants/${tenant.id}/rules/${theirs}`)).status).toBe(404);
    expect((await admin.put(`/api/tenants/${tenant.id}/setting`, { defaultSurchargeRule: theirs })).status).toBe(404);
    expect((await actors.tenant_admin.tenant.get(`/api/tenants/${other.id}/rules`)).status).toBe(404);
    expect((await actors.tenant_admin.tenant.get(`/api/tenants/${other.id}/setting`)).status).toBe(404);
  });

  it('answers malformed and unknown rule ids with a clear 4xx, and writes nothing', async () => {
    const globalRules = async () => (await admin.get('/api/global/rules?limit=100')).body.result;
    const tenantRules = async () => (await admin.get(`/api/tenants/${tenant.id}/rules?limit=100`)).body.result;
    const before = { global: await globalRules(), tenant: await tenantRules() };
    const paths = {
      'PUT global': (id: string) => admin.put(`/api/global/rule/${id}`, rule({ name: 'Planted' })),
      'PATCH global': (id: string) => admin.patch(`/api/global/rule/${id}`, { name: 'Planted', active: false }),
      'DELETE global': (id: string) => admin.delete(`/api/global/rules/${id}`),
      'PUT tenant': (id: string) => admin.put(`/api/tenants/${tenant.id}/rules/${id}`, rule({ name: 'Planted' })),
      'PATCH tenant': (id: string) => admin.patch(`/api/tenants/${tenant.id}/rules/${id}`, { name: 'Planted', active: false }),
    };
    const field = (route: string) => (route.endsWith('global') ? 'id' : 'ruleId');
    for (const [route, call] of Object.entries(paths)) {
      // A NUL character (PostgreSQL text cannot hold it): refused as bad input, never a 500.
      for (const id of ['%00', 'rule%00id']) {
        const res = await call(id);
        expect({ route, id, status: res.status, body: res.body }).toEqual({ route, id, status: 400, body: validationError(field(route), M.invalidValue) });
      }
      // Ids that name no rule: a 404, whatever they look like.
      for (const id of ['no-such-rule', randomUUID(), '%F0%9F%98%80', "x'%3B--", 'global_surcharge_1%20']) {
        const res = await call(id);
        expect({ route, id, status: res.status, body: res.body }).toEqual({ route, id, status: 404, body: notFoundError });
      }
      // Longer than the rule id may be: refused by the route's schema.
      expect({ route, status: (await call('r'.repeat(201))).status }).toEqual({ route, status: 400 });
      // Longer than any id: the router refuses the path (414 URI Too Long) before the route runs, in our error shape.
      const tooLong = await call('r'.repeat(301));
      expect({ route, status: tooLong.status, body: tooLong.body }).toEqual({ route, status: 414, body: { error: { code: 'BAD_REQUEST', message: M.addressTooLong } } });
    }
    expect({ global: await globalRules(), tenant: await tenantRules() }).toEqual(before);
  });

  it.each(ruleMessages)('refuses the tenant rule %o with the spec message', async (over, field, message) => {
    const res = await admin.post(`/api/tenants/${tenant.id}/rules`, rule(over));
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it.each(settingsMessages)('refuses the tenant settings %o with the spec message', async (over, field, message) => {
    const res = await admin.put(`/api/tenants/${tenant.id}/setting`, settings(over));
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('answers 404 for a tenant created without settings', async () => {
    const bare = await givenTenant(server);
    expect((await admin.get(`/api/tenants/${bare.id}/setting`)).status).toBe(404);
  });
});

// A tenant's resources: the guard answers 404 to non-members without the needed role.
describe('fee routes: who may call them', () => {
  const platformRead = { super_user: 200, platform_manager: 200, platform_report: 403, platform_user: 200, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 403, attendee: 403, anonymous: 401 };

  it('GET /api/global/rules and GET /api/global/setting', async () => {
    expect(await statusesOf(actors, 'platform', (c) => c.get('/api/global/rules'))).toEqual(platformRead);
    expect(await statusesOf(actors, 'platform', (c) => c.get('/api/global/setting'))).toEqual(platformRead);
  });

  it('global writes', async () => {
    const writers = { super_user: 201, platform_manager: 201, platform_report: 403, platform_user: 403, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 403, attendee: 403, anonymous: 401 };
    expect(await statusesOf(actors, 'platform', (c) => c.post('/api/global/rule', rule()))).toEqual(writers);
    const id = (await admin.post('/api/global/rule', rule())).body.data.rule.id;
    const ok200 = { ...writers, super_user: 200, platform_manager: 200 };
    expect(await statusesOf(actors, 'platform', (c) => c.patch(`/api/global/rule/${id}`, { active: true }))).toEqual(ok200);
    expect(await statusesOf(actors, 'platform', (c) => c.put(`/api/global/rule/${id}`, rule()))).toEqual(ok200);
    expect(await statusesOf(actors, 'platform', (c) => c.put('/api/global/setting', settings()))).toEqual(ok200);
    expect(
      await statusesOf(actors, 'platform', (c) => c.delete(`/api/global/rules/${id}`), ['platform_report', 'platform_user', 'tenant_admin', 'tenant_staff', 'attendee', 'anonymous']),
    ).toEqual({ platform_report: 403, platform_user: 403, tenant_admin: 403, tenant_staff: 403, attendee: 403, anonymous: 401 });
    expect((await actors.platform_manager.platform.delete(`/api/global/rules/${id}`)).status).toBe(200);
    expect(
      await statusesOf(actors, 'platform', (c) => c.delete(`/api/platform/tenants/rules/${randomUUID()}?tenantId=${tenant.id}`), ['platform_report', 'platform_user', 'tenant_admin', 'attendee', 'anonymous']),
    ).toEqual({ platform_report: 403, platform_user: 403, tenant_admin: 403, attendee: 403, anonymous: 401 });
  });

  it('tenant reads', async () => {
    const expected = { super_user: 200, platform_manager: 200, platform_report: 404, platform_user: 200, tenant_admin: 200, tenant_staff: 200, other_tenant_admin: 404, attendee: 404, anonymous: 401 };
    expect(await statusesOf(actors, 'tenant', (c) => c.get(`/api/tenants/${tenant.id}/rules`))).toEqual(expected);
    expect(await statusesOf(actors, 'tenant', (c) => c.get(`/api/tenants/${tenant.id}/setting`))).toEqual(expected);
  });

  it('tenant writes (the tenant admin only while allowed: off here)', async () => {
    const expected = { super_user: 201, platform_manager: 201, platform_report: 404, platform_user: 404, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401 };
    expect(await statusesOf(actors, 'tenant', (c) => c.post(`/api/tenants/${tenant.id}/rules`, rule()))).toEqual(expected);
    const id = (await admin.post(`/api/tenants/${tenant.id}/rules`, rule())).body.data.rule.id;
    const ok200 = { ...expected, super_user: 200, platform_manager: 200 };
    expect(await statusesOf(actors, 'tenant', (c) => c.patch(`/api/tenants/${tenant.id}/rules/${id}`, { active: true }))).toEqual(ok200);
    expect(await statusesOf(actors, 'tenant', (c) => c.put(`/api/tenants/${tenant.id}/rules/${id}`, rule()))).toEqual(ok200);
    const current = (await admin.get(`/api/tenants/${tenant.id}/setting`)).body;
    const { ownerId: _o, ...body } = current;
    expect(await statusesOf(actors, 'tenant', (c) => c.put(`/api/tenants/${tenant.id}/setting`, body))).toEqual(ok200);
    expect(
      await statusesOf(actors, 'tenant', (c) => c.delete(`/api/tenants/${tenant.id}/rules/${id}`), ['platform_report', 'platform_user', 'tenant_admin', 'tenant_staff', 'other_tenant_admin', 'attendee', 'anonymous']),
    ).toEqual({ platform_report: 404, platform_user: 404, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401 });
    expect((await actors.super_user.tenant.delete(`/api/tenants/${tenant.id}/rules/${id}`)).status).toBe(200);
  });
});
