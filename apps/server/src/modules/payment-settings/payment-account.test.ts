import { randomUUID } from 'node:crypto';
import { M, PAYMENT_ACCOUNT_PATHS } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAccounts, testAccountLinks, testConnectAccounts } from '../../db/schema/index.js';
import { TransferRefused } from '../../platform/payments/gateway.js';
import { givenActors, statusesOf, type Actors } from '../../../test/actors.js';
import { givenTenant, givenTenantWithSettings, notFoundError, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';

// Issue 21.18: an operator connects a tenant's payout account through the gateway's onboarding
// link, with the test driver's own stand-in for Stripe's hosted onboarding (a page on our server).

let server: TestServer;
let actors: Actors;
let admin: Client;
let tenant: GivenTenant;
let other: GivenTenant;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString());

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server, { name: 'Harbour Theatre' });
  other = await givenTenantWithSettings(server);
  actors = await givenActors(server, tenant, other);
  admin = actors.super_user.platform;
});
afterAll(async () => {
  await server.close();
});

describe('connecting a tenant’s payout account with the test gateway', () => {
  it('not connected; onboarding makes an account and a link to the stand-in page; leaving it keeps it unfinished; finishing connects it and makes it the payout destination', async () => {
    const start = await admin.get(PAYMENT_ACCOUNT_PATHS.account(tenant.id));
    expect(start.body).toEqual({
      tenantId: tenant.id,
      driver: 'test',
      testMode: true,
      accountId: null,
      destination: null,
      state: 'not_connected',
      detailsSubmitted: false,
      payoutsEnabled: false,
      checkedAt: null,
    });

    const link = await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(tenant.id));
    expect(link.status).toBe(200);
    const url = new URL(link.body.url);
    expect(url.origin).toBe(`http://${server.config.baseDomain}:${server.port}`);
    expect(url.pathname).toMatch(/^\/connect\/onboard\/[A-Za-z0-9_-]{32}$/);
    expect(new Date(link.body.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const made = (await admin.get(PAYMENT_ACCOUNT_PATHS.account(tenant.id))).body;
    expect(made).toMatchObject({ accountId: expect.stringMatching(/^acct_test_/), destination: null, state: 'incomplete' });

    // The stand-in's hosted page: self-contained, names the tenant, no scripts.
    const browser = server.client();
    const page = await browser.get(url.pathname);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('Set up payouts for Harbour Theatre');
    expect(page.body).toContain(made.accountId);
    expect(page.body).not.toContain('<script');

    // Leaving: back to the console's page, the link used up, the account still unfinished.
    const later = await browser.request('POST', url.pathname, form({ action: 'later' }), FORM);
    expect(later.status).toBe(303);
    expect(later.headers.location).toBe(`http://${server.config.baseDomain}:${server.port}/tenant/${tenant.id}/payment-settings?connect=return`);
    expect((await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(tenant.id))).body).toMatchObject({ state: 'incomplete', detailsSubmitted: false, checkedAt: expect.any(String) });
    // A used link sends its holder to the refresh URL, as Stripe's does.
    const used = await browser.get(url.pathname);
    expect(used.status).toBe(303);
    expect(used.headers.location).toBe(`http://${server.config.baseDomain}:${server.port}/tenant/${tenant.id}/payment-settings?connect=refresh`);
    expect((await browser.request('POST', url.pathname, form({ action: 'finish' }), FORM)).headers.location).toMatch(/\?connect=refresh$/);

    // Transfers to an account that has not finished onboarding are refused.
    await expect(server.app.deps.payments.transfer({ payoutId: randomUUID(), tenantId: tenant.id, destination: made.accountId, amount: 100, currency: 'usd' })).rejects.toBeInstanceOf(TransferRefused);

    // A new link for the same account; finishing connects it.
    const again = await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(tenant.id));
    expect(again.body.url).not.toBe(link.body.url);
    const finish = await browser.request('POST', new URL(again.body.url).pathname, form({ action: 'finish' }), FORM);
    expect(finish.status).toBe(303);
    expect(finish.headers.location).toMatch(/\/payment-settings\?connect=return$/);
    // Until the console asks, nothing here has changed; asking connects it.
    expect((await admin.get(PAYMENT_ACCOUNT_PATHS.account(tenant.id))).body.state).toBe('incomplete');
    const connected = await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(tenant.id));
    expect(connected.body).toMatchObject({ accountId: made.accountId, destination: made.accountId, state: 'connected', detailsSubmitted: true, payoutsEnabled: true });
    expect((await admin.get(`/api/tenants/${tenant.id}/payment-settings`)).body.payment.id).toBe(made.accountId);
    expect(await server.app.deps.payments.transfer({ payoutId: randomUUID(), tenantId: tenant.id, destination: made.accountId, amount: 100, currency: 'usd' })).toMatchObject({
      transferId: expect.stringMatching(/^tr_test_/),
    });
    // One account, however many links.
    expect(await server.app.deps.db.select().from(testConnectAccounts).where(eq(testConnectAccounts.tenantId, tenant.id))).toHaveLength(1);
  });

  it('two operators starting at once get one account', async () => {
    const t = await givenTenantWithSettings(server);
    const manager = actors.platform_manager.platform;
    const links = await Promise.all([admin, manager, admin, manager].map((c) => c.post(PAYMENT_ACCOUNT_PATHS.onboarding(t.id))));
    expect(links.map((l) => l.status)).toEqual([200, 200, 200, 200]);
    expect(await server.app.deps.db.select().from(testConnectAccounts).where(eq(testConnectAccounts.tenantId, t.id))).toHaveLength(1);
    expect(await server.app.deps.db.select().from(paymentAccounts).where(eq(paymentAccounts.tenantId, t.id))).toHaveLength(1);
  });

  it('an expired link goes to the refresh URL; an unknown link is a 404 page; a bad form is a 400 and a cross-site post a 403', async () => {
    const t = await givenTenantWithSettings(server);
    const link = await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(t.id));
    const path = new URL(link.body.url).pathname;
    const browser = server.client();
    expect((await browser.request('POST', path, form({ action: 'everything' }), FORM)).status).toBe(400);
    expect((await browser.request('POST', path, form({}), FORM)).status).toBe(400);
    expect((await browser.request('POST', path, form({ action: 'finish' }), { ...FORM, origin: 'https://evil.example' })).status).toBe(403);
    await server.app.deps.db.update(testAccountLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(testAccountLinks.id, path.split('/').pop()!));
    const expired = await browser.get(path);
    expect(expired.status).toBe(303);
    expect(expired.headers.location).toMatch(/\?connect=refresh$/);
    expect((await browser.request('POST', path, form({ action: 'finish' }), FORM)).headers.location).toMatch(/\?connect=refresh$/);
    expect((await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(t.id))).body.state).toBe('incomplete');
    for (const bad of ['/connect/onboard/nope', `/connect/onboard/${'x'.repeat(32)}`, `/connect/onboard/${'x'.repeat(300)}`]) {
      const res = await browser.get(bad);
      expect({ bad, status: res.status }).toEqual({ bad, status: 404 });
      expect(res.body).toContain(M.onboardingLinkNotFound);
    }
    expect((await browser.request('POST', `/connect/onboard/${'y'.repeat(32)}`, form({ action: 'finish' }), FORM)).status).toBe(404);
    // A NUL in the path is refused before any route, as everywhere.
    expect((await browser.get('/connect/onboard/%00')).status).toBe(400);
  });

  it('an account id entered by hand shows as such until an onboarded account replaces it', async () => {
    const t = await givenTenantWithSettings(server);
    await admin.post('/api/payment/payout-update', { tenantId: t.id, payment: { type: 'platform', id: 'acct_by_hand' } });
    expect((await admin.get(PAYMENT_ACCOUNT_PATHS.account(t.id))).body).toMatchObject({ accountId: null, destination: 'acct_by_hand', state: 'manual' });
    const link = await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(t.id));
    // Started but not finished: payouts still go to the hand-entered account.
    expect((await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(t.id))).body).toMatchObject({ destination: 'acct_by_hand', state: 'incomplete' });
    await server.client().request('POST', new URL(link.body.url).pathname, form({ action: 'finish' }), FORM);
    const done = (await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(t.id))).body;
    expect(done).toMatchObject({ state: 'connected', destination: done.accountId });
  });

  it('a tenant without payment settings gets them when its account connects', async () => {
    const bare = await givenTenant(server);
    const link = await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(bare.id));
    await server.client().request('POST', new URL(link.body.url).pathname, form({ action: 'finish' }), FORM);
    const done = (await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(bare.id))).body;
    expect(done).toMatchObject({ state: 'connected', destination: done.accountId });
    expect((await admin.get(`/api/tenants/${bare.id}/payment-settings`)).body.payment).toMatchObject({ id: done.accountId, type: 'platform' });
  });
});

describe('payment account routes: who may call them, and ids that are not the tenant’s', () => {
  it('reads: the tenant’s admins and every platform role that reads payment settings; another tenant’s admin gets 404', async () => {
    expect(await statusesOf(actors, 'tenant', (c) => c.get(PAYMENT_ACCOUNT_PATHS.account(tenant.id)))).toEqual({
      super_user: 200, platform_manager: 200, platform_report: 404, platform_user: 200,
      tenant_admin: 200, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401,
    });
    expect((await actors.tenant_admin.tenant.get(PAYMENT_ACCOUNT_PATHS.account(other.id))).status).toBe(404);
    expect((await actors.tenant_admin.tenant.post(PAYMENT_ACCOUNT_PATHS.refresh(other.id))).status).toBe(404);
  });

  it('onboarding: only super users and platform managers; a tenant admin cannot start it', async () => {
    const t = await givenTenantWithSettings(server);
    const statuses = await statusesOf(actors, 'tenant', (c) => c.post(PAYMENT_ACCOUNT_PATHS.onboarding(t.id)));
    expect(statuses).toMatchObject({ super_user: 200, platform_manager: 200, platform_report: 404, platform_user: 404, anonymous: 401 });
    for (const name of ['tenant_admin', 'tenant_staff', 'other_tenant_admin', 'attendee'] as const) expect([403, 404]).toContain(statuses[name]);
    expect((await actors.tenant_admin.tenant.post(PAYMENT_ACCOUNT_PATHS.onboarding(tenant.id))).status).toBe(403);
  });

  it('unknown, deleted and malformed tenant ids are 404s that change nothing', async () => {
    const gone = await givenTenantWithSettings(server);
    await admin.delete(`/api/tenants/${gone.id}`);
    const before = await server.app.deps.db.select().from(paymentAccounts);
    for (const id of [randomUUID(), gone.id, 'not-a-uuid', `${tenant.id}0`]) {
      for (const res of [await admin.get(PAYMENT_ACCOUNT_PATHS.account(id)), await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(id)), await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(id))]) {
        expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: notFoundError });
      }
    }
    expect(await server.app.deps.db.select().from(paymentAccounts)).toEqual(before);
  });
});
