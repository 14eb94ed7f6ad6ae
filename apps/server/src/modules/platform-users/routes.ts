import { ZPlatformUser, ZPlatformUserList, ZPlatformUserParams, ZSuccess, ZUpdatePlatformUserRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.js';
import { platformCtxOf } from '../../platform/auth/guard.js';
import { PLATFORM_READ, PLATFORM_WRITE } from '../tenants/access.js';
import * as platformUsers from './service.js';

const tags = ['platform users'];

// POST /api/platform/users (Add Platform User / Send Platform Invite) lives in modules/accounts.
export function registerPlatformUserRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/platform/users',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_READ } },
      schema: { tags, summary: 'Platform Users: filters on details.id (contains), details.name, details.status', response: { 200: ZPlatformUserList } },
    },
    async (req) => platformUsers.listPlatformUsers({ deps, query: req.query }),
  );

  r.post(
    '/api/platform/users/:id/verify',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, summary: 'Verify User: activate a pending platform user', params: ZPlatformUserParams, response: { 200: ZPlatformUser } },
    },
    async (req) => platformUsers.verifyPlatformUser({ deps, actor: platformCtxOf(req), email: req.params.id }),
  );

  r.patch(
    '/api/platform/users/:id',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, summary: 'Edit Platform User: group.name, group.roles', params: ZPlatformUserParams, body: ZUpdatePlatformUserRequest, response: { 200: ZPlatformUser } },
    },
    async (req) => platformUsers.updatePlatformUser({ deps, actor: platformCtxOf(req), email: req.params.id, changes: req.body.group }),
  );

  r.delete(
    '/api/platform/users/:id',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, summary: 'Remove platform access', params: ZPlatformUserParams, response: { 200: ZSuccess } },
    },
    async (req) => platformUsers.deletePlatformUser({ deps, actor: platformCtxOf(req), email: req.params.id }),
  );
}
