import { ZOnboardingLink, ZPaymentAccount, ZPaymentSettings, ZPayoutUpdateRequest } from '@marquee/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { platformCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { findTestOnboarding, submitTestOnboarding, TEST_ONBOARDING_PATH } from '../../platform/payments/test-driver.js';
import { PLATFORM_READ, PLATFORM_WRITE } from '../tenants/access.js';
import { ONBOARDING_PAGE_CSP, renderOnboardingPage } from './onboarding-page.js';
import * as account from './payment-account.js';
import * as payments from './service.js';

const tags = ['payment settings'];
const ZTenantParams = z.object({ tenantId: z.string() });
// Reading the account is as reading the payment settings; connecting one is a change of them.
const READ = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_READ } as const;
const WRITE = { kind: 'tenant', roles: [], platformRoles: PLATFORM_WRITE } as const;

export function registerPaymentSettingsRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/tenants/:tenantId/payment-settings',
    {
      config: { access: { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_READ } },
      schema: { tags, summary: 'Payment/Payouts settings of a tenant', params: z.object({ tenantId: z.string() }), response: { 200: ZPaymentSettings } },
    },
    async (req) => payments.getPaymentSettings({ deps, tenantId: tenantCtxOf(req).tenantId }),
  );

  // spec: accounts §7 POST /payment/payout-update (the tenant id travels in the body; platform access only).
  r.post(
    '/api/payment/payout-update',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: {
        tags,
        body: ZPayoutUpdateRequest,
        response: { 200: z.object({ success: z.literal(true), message: z.string(), settings: ZPaymentSettings }) },
      },
    },
    async (req) => payments.updatePaymentSettings({ deps, input: req.body, actor: platformCtxOf(req).actor }),
  );

  // ---- the tenant's connected account (issue 21.18) ---------------------------------------------

  r.get(
    '/api/tenants/:tenantId/payment-account',
    { config: { access: READ }, schema: { tags, summary: "The tenant's connected payout account and the server's card processor", params: ZTenantParams, response: { 200: ZPaymentAccount } } },
    async (req) => account.getPaymentAccount({ deps, tenantId: tenantCtxOf(req).tenantId }),
  );

  r.post(
    '/api/tenants/:tenantId/payment-account/onboarding',
    {
      config: { access: WRITE },
      schema: { tags, summary: "A single-use link to the gateway's onboarding of the tenant's account (made first if it has none)", params: ZTenantParams, response: { 200: ZOnboardingLink } },
    },
    async (req) => {
      const ctx = tenantCtxOf(req);
      return account.startOnboarding({ deps, tenantId: ctx.tenantId, userId: ctx.user.id, actor: ctx.actor });
    },
  );

  r.post(
    '/api/tenants/:tenantId/payment-account/refresh',
    { config: { access: READ }, schema: { tags, summary: "Asks the gateway how far the tenant's account got", params: ZTenantParams, response: { 200: ZPaymentAccount } } },
    async (req) => account.refreshPaymentAccount({ deps, tenantId: tenantCtxOf(req).tenantId, actor: tenantCtxOf(req).actor }),
  );

  // ---- the test gateway's hosted onboarding (Stripe's is on connect.stripe.com) ------------------

  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4 * 1024 }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const page = (reply: FastifyReply, status: number, html: string) =>
      reply
        .status(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('content-security-policy', ONBOARDING_PAGE_CSP)
        .send(html);
    const away = (reply: FastifyReply, url: string) => reply.header('cache-control', 'no-store').redirect(url, 303);

    scope.get(`${TEST_ONBOARDING_PATH}/:linkId`, { schema: { hide: true } }, async (req, reply) => {
      if (deps.payments.name !== 'test') return page(reply, 404, renderOnboardingPage(null));
      const onboarding = await findTestOnboarding(deps.db, (req.params as { linkId: string }).linkId);
      if (!onboarding) return page(reply, 404, renderOnboardingPage(null));
      // Like Stripe's: a used or expired link sends its holder to the refresh URL for a new one.
      if (onboarding.state !== 'open') return away(reply, onboarding.refreshUrl);
      return page(reply, 200, renderOnboardingPage(onboarding));
    });

    scope.post(`${TEST_ONBOARDING_PATH}/:linkId`, { schema: { hide: true } }, async (req, reply) => {
      if (deps.payments.name !== 'test') return page(reply, 404, renderOnboardingPage(null));
      // The link is the capability, but a cross-site post is still refused.
      const origin = req.headers.origin;
      if (origin && origin !== 'null' && hostOf(origin) !== req.headers.host) return page(reply, 403, renderOnboardingPage(null));
      const linkId = (req.params as { linkId: string }).linkId;
      const action = ((req.body ?? {}) as Record<string, unknown>).action;
      if (action !== 'finish' && action !== 'later') {
        const onboarding = await findTestOnboarding(deps.db, linkId);
        return page(reply, onboarding ? 400 : 404, renderOnboardingPage(onboarding));
      }
      const next = await submitTestOnboarding(deps.db, linkId, action === 'finish');
      if (!next) return page(reply, 404, renderOnboardingPage(null));
      return away(reply, next);
    });
  });
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}
