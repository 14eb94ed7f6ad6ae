import { M, PAYMENT_ACCOUNT_PATHS } from '@marquee/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { givenActors, type Actors } from '../../../test/actors.js';
import { givenTenantWithSettings, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { startStripeStandIn, type StripeStandIn } from '../../../test/stripe-stand-in.js';

// Issue 21.18 with PAYMENT_DRIVER=stripe: the driver's Connect calls go through the real `stripe`
// SDK over real HTTP to a local stand-in for Stripe's API (test/stripe-stand-in.ts), so what is
// checked is what the SDK sends: an Express account, an onboarding Account Link with our return and
// refresh URLs, and the account's details_submitted / payouts_enabled read back.

let stripe: StripeStandIn;
let server: TestServer;
let tenant: GivenTenant;
let actors: Actors;
let admin: Client;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  server = await startServer({
    paymentDriver: 'stripe',
    stripeSecretKey: 'sk_test_marquee',
    stripeWebhookSecret: 'whsec_test_secret_for_marquee_tests',
    stripeApiBase: stripe.url,
  });
  tenant = await givenTenantWithSettings(server, { name: 'Harbour Theatre' });
  actors = await givenActors(server, tenant, await givenTenantWithSettings(server));
  admin = actors.super_user.platform;
});
afterAll(async () => {
  await server?.close();
  await stripe?.close();
});
beforeEach(() => {
  stripe.requests.length = 0;
});

describe('Stripe Connect onboarding through the stripe driver', () => {
  it('makes an Express account once, links to Stripe’s onboarding with our return and refresh URLs, and connects the account when Stripe enables payouts', async () => {
    expect((await admin.get(PAYMENT_ACCOUNT_PATHS.account(tenant.id))).body).toMatchObject({ driver: 'stripe', testMode: true, state: 'not_connected' });

    const link = await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(tenant.id));
    expect(link.status).toBe(200);
    const [create, accountLink] = stripe.requests;
    expect(create).toMatchObject({ method: 'POST', path: '/v1/accounts', idempotencyKey: `connect-account:${tenant.id}` });
    expect(create!.body).toMatchObject({
      type: 'express',
      country: 'US',
      email: `hello@${tenant.url}.test`,
      'business_profile[name]': 'Harbour Theatre',
      'capabilities[card_payments][requested]': 'true',
      'capabilities[transfers][requested]': 'true',
      'metadata[tenantId]': tenant.id,
    });
    const accountId = [...stripe.accounts.keys()][0]!;
    const page = `http://${server.config.baseDomain}:${server.port}/tenant/${tenant.id}/payment-settings`;
    expect(accountLink).toMatchObject({ method: 'POST', path: '/v1/account_links' });
    expect(accountLink!.body).toEqual({ account: accountId, type: 'account_onboarding', return_url: `${page}?connect=return`, refresh_url: `${page}?connect=refresh` });
    expect(link.body.url).toMatch(new RegExp(`^https://connect\\.stripe\\.com/setup/e/${accountId}/`));
    expect(new Date(link.body.expiresAt).getTime()).toBeGreaterThan(Date.now());

    // Back from Stripe with the form not finished.
    const back = await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(tenant.id));
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/accounts/${accountId}` });
    expect(back.body).toMatchObject({ accountId, state: 'incomplete', destination: null });

    // A second link reuses the account.
    stripe.requests.length = 0;
    await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(tenant.id));
    expect(stripe.requests.map((r) => r.path)).toEqual(['/v1/account_links']);

    // Submitted, Stripe still verifying; then payouts enabled.
    Object.assign(stripe.accounts.get(accountId)!, { details_submitted: true });
    expect((await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(tenant.id))).body).toMatchObject({ state: 'pending', destination: null });
    Object.assign(stripe.accounts.get(accountId)!, { payouts_enabled: true });
    expect((await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(tenant.id))).body).toMatchObject({ state: 'connected', destination: accountId, payoutsEnabled: true });
    expect((await admin.get(`/api/tenants/${tenant.id}/payment-settings`)).body.payment.id).toBe(accountId);
  });

  it('an account Stripe no longer knows is a 409 with Stripe’s reason; Stripe failing every try is a 503 that writes nothing', async () => {
    const t = await givenTenantWithSettings(server);
    await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(t.id));
    const accountId = (await admin.get(PAYMENT_ACCOUNT_PATHS.account(t.id))).body.accountId;
    stripe.accounts.delete(accountId);
    const refused = await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(t.id));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`No such account: '${accountId}'`);
    expect((await admin.post(PAYMENT_ACCOUNT_PATHS.refresh(t.id))).status).toBe(409);

    // Stripe failing every try (the SDK retries twice, with the same idempotency key): 503, nothing written.
    const fresh = await givenTenantWithSettings(server);
    stripe.requests.length = 0;
    stripe.failNext('/v1/accounts', 500, { type: 'api_error', message: 'Something went wrong on Stripe.' }, 3);
    const down = await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(fresh.id));
    expect(down.status).toBe(503);
    expect(down.body.error.message).toBe(M.paymentProviderUnavailable);
    expect(stripe.requests.map((r) => r.idempotencyKey)).toEqual(Array(3).fill(`connect-account:${fresh.id}`));
    expect((await admin.get(PAYMENT_ACCOUNT_PATHS.account(fresh.id))).body).toMatchObject({ accountId: null, state: 'not_connected' });
    // The next try makes the account.
    expect((await admin.post(PAYMENT_ACCOUNT_PATHS.onboarding(fresh.id))).status).toBe(200);
  });
});
