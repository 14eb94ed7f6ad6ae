import { ZApiKey, ZApiKeyList, ZCreateApiKeyRequest, ZCreateApiKeyResponse } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { Access } from '../../platform/auth/context.js';
import { platformCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { createApiKey } from './create-api-key.js';
import { listApiKeys } from './list-api-keys.js';
import { revokeApiKey } from './revoke-api-key.js';

const tags = ['api-keys'];
const ZTenantParams = z.object({ tenantId: z.string() });
const ZTenantKeyParams = z.object({ tenantId: z.string(), keyId: z.uuid() });
const ZPlatformKeyParams = z.object({ keyId: z.uuid() });

// Issue 25 (docs/decisions.md "Issue 25: API keys"): a tenant's admins create its keys (a key acts
// as its creator, so an operator's would reach nothing of the tenant's); they and the platform's
// writers see and revoke them. Platform keys are the super users'. No key may manage keys.
const TENANT_KEYS_CREATE: Access = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: [] };
const TENANT_KEYS: Access = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: ['super_user', 'platform_manager'] };
const PLATFORM_KEYS: Access = { kind: 'platform', roles: ['super_user'] };

export function registerApiKeyRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/tenants/:tenantId/api-keys',
    { config: { access: TENANT_KEYS }, schema: { tags, summary: "The tenant's API keys (never their secrets); filters on details.name", params: ZTenantParams, response: { 200: ZApiKeyList } } },
    async (req) => listApiKeys({ deps, tenantId: tenantCtxOf(req).tenantId, query: req.query }),
  );
  r.post(
    '/api/tenants/:tenantId/api-keys',
    {
      config: { access: TENANT_KEYS_CREATE },
      schema: { tags, summary: 'Creates an API key acting as you within its scopes; `secret` is shown this once', params: ZTenantParams, body: ZCreateApiKeyRequest, response: { 201: ZCreateApiKeyResponse } },
    },
    async (req, reply) => {
      const ctx = tenantCtxOf(req);
      return reply.status(201).send(await createApiKey({ deps, ctx, tenantId: ctx.tenantId, input: req.body }));
    },
  );
  r.post(
    '/api/tenants/:tenantId/api-keys/:keyId/revoke',
    { config: { access: TENANT_KEYS }, schema: { tags, summary: 'Revokes an API key at once', params: ZTenantKeyParams, response: { 200: ZApiKey } } },
    async (req) => {
      const ctx = tenantCtxOf(req);
      return revokeApiKey({ deps, ctx, tenantId: ctx.tenantId, keyId: req.params.keyId });
    },
  );

  r.get(
    '/api/platform/api-keys',
    { config: { access: PLATFORM_KEYS }, schema: { tags, summary: "The platform's API keys", response: { 200: ZApiKeyList } } },
    async (req) => listApiKeys({ deps, tenantId: null, query: req.query }),
  );
  r.post(
    '/api/platform/api-keys',
    {
      config: { access: PLATFORM_KEYS },
      schema: { tags, summary: 'Creates a platform API key acting as you within its scopes; `secret` is shown this once', body: ZCreateApiKeyRequest, response: { 201: ZCreateApiKeyResponse } },
    },
    async (req, reply) => reply.status(201).send(await createApiKey({ deps, ctx: platformCtxOf(req), tenantId: null, input: req.body })),
  );
  r.post(
    '/api/platform/api-keys/:keyId/revoke',
    { config: { access: PLATFORM_KEYS }, schema: { tags, summary: 'Revokes a platform API key at once', params: ZPlatformKeyParams, response: { 200: ZApiKey } } },
    async (req) => revokeApiKey({ deps, ctx: platformCtxOf(req), tenantId: null, keyId: req.params.keyId }),
  );
}
