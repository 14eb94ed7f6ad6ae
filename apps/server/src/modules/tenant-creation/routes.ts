import { ZCreateTenantRequest, ZTenant } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.js';
import { platformCtxOf } from '../../platform/auth/guard.js';
import { PLATFORM_WRITE } from '../tenants/access.js';
import * as tenants from './create-tenant.js';

const tags = ['tenants'];

/** Create New Tenant (spec accounts §7), registered by app.ts next to the other tenant routes. */
export function registerTenantCreationRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/tenants',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, summary: "Create New Tenant (one transaction, with a tenant-admin invite to the tenant's e-mail from its invite template), then provision its site", body: ZCreateTenantRequest, response: { 201: ZTenant } },
    },
    async (req, reply) => reply.status(201).send(await tenants.createTenant({ deps, input: req.body, inviter: platformCtxOf(req).user, actor: platformCtxOf(req).actor })),
  );
}
