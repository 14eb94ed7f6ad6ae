import {
  M,
  TENANT_LOGO_MAX_BYTES,
  ZBucketStatus,
  ZSuccess,
  ZTenant,
  ZTenantList,
  ZUpdateTenantRequest,
} from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
import { uploadedFile } from '../../platform/multipart.js';
import { PLATFORM_ANY, PLATFORM_WRITE } from './access.js';
import * as tenants from './service.js';

const ZTenantParams = z.object({ tenantId: z.string() });
const tags = ['tenants'];

export function registerTenantRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  tenants.registerTenantJobs(deps);

  r.get(
    '/api/tenants',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_ANY } },
      schema: {
        tags,
        summary: 'Tenants list: cursor, limit, sort, filters on details.name (contains), details.url, details.status, details.email, details.dateCreated',
        response: { 200: ZTenantList },
      },
    },
    async (req) => tenants.listTenants({ deps, query: req.query }),
  );

  r.get(
    '/api/tenants/:tenantId',
    {
      config: { access: { kind: 'tenant', roles: ['tenant_admin', 'tenant_staff'], platformRoles: PLATFORM_ANY } },
      schema: { tags, params: ZTenantParams, response: { 200: ZTenant } },
    },
    async (req) => tenants.getTenant({ deps, tenantId: tenantCtxOf(req).tenantId }),
  );

  r.patch(
    '/api/tenants/:tenantId',
    {
      config: { access: { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_WRITE } },
      schema: { tags, summary: 'Tenant Basic Information: phone, invite subject and body (url: platform only)', params: ZTenantParams, body: ZUpdateTenantRequest, response: { 200: ZTenant } },
    },
    async (req) => tenants.updateTenant({ deps, ctx: tenantCtxOf(req), changes: req.body.details }),
  );

  r.post(
    '/api/tenants/:tenantId/logo',
    {
      config: { access: { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_WRITE } },
      bodyLimit: TENANT_LOGO_MAX_BYTES + 64 * 1024,
      schema: { tags, summary: 'Upload the logo/thumbnail: multipart/form-data, one file field', params: ZTenantParams, consumes: ['multipart/form-data'], response: { 200: ZTenant } },
    },
    async (req) => {
      const { tenantId } = tenantCtxOf(req);
      const { bytes, truncated } = await uploadedFile(req, { maxBytes: TENANT_LOGO_MAX_BYTES, typeMessage: M.logoType, sizeMessage: M.logoSize });
      return tenants.uploadTenantLogo({ deps, tenantId, bytes, truncated });
    },
  );

  r.delete(
    '/api/tenants/:tenantId',
    {
      config: { access: { kind: 'tenant', roles: [], platformRoles: PLATFORM_WRITE } },
      schema: { tags, summary: 'Delete (soft) an active or pending tenant', params: ZTenantParams, response: { 200: ZSuccess } },
    },
    async (req) => tenants.deleteTenant({ deps, tenantId: tenantCtxOf(req).tenantId, actor: tenantCtxOf(req).actor }),
  );

  r.get(
    '/api/tenants/:tenantId/bucket-status',
    {
      config: { access: { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_ANY } },
      schema: { tags, summary: 'Site provisioning status', params: ZTenantParams, response: { 200: ZBucketStatus } },
    },
    async (req) => tenants.getBucketStatus({ deps, tenantId: tenantCtxOf(req).tenantId }),
  );

  r.post(
    '/api/tenants/:tenantId/bucket',
    {
      config: { access: { kind: 'tenant', roles: [], platformRoles: PLATFORM_WRITE } },
      schema: { tags, summary: 'Retry: recreate the tenant site', params: ZTenantParams, response: { 202: ZBucketStatus } },
    },
    async (req, reply) => reply.status(202).send(await tenants.retryBucket({ deps, tenantId: tenantCtxOf(req).tenantId })),
  );
}
