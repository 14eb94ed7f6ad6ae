import { ZPaymentSettings, ZPayoutUpdateRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
import { PLATFORM_READ, PLATFORM_WRITE } from '../tenants/access.js';
import * as payments from './service.js';

const tags = ['payment settings'];

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
    async (req) => payments.updatePaymentSettings({ deps, input: req.body }),
  );
}
