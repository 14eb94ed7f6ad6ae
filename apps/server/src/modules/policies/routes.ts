import { ZCreatePolicyRequest, ZPolicy, ZPolicyList, ZPublicPolicy, ZSuccess, ZUpdatePolicyRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { PLATFORM_READ, PLATFORM_WRITE } from '../tenants/access.js';
import * as policies from './service.js';

const ZPolicyParams = z.object({ id: z.string().min(1).max(100) });
const tags = ['policies'];

export function registerPolicyRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/policies',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_READ } },
      schema: { tags, summary: 'Global Policies: filters on details.id, details.name (contains), details.group, details.type', response: { 200: ZPolicyList } },
    },
    async (req) => policies.listPolicies({ deps, query: req.query }),
  );

  r.get(
    '/api/policies/:id',
    { config: { access: { kind: 'platform', roles: PLATFORM_READ } }, schema: { tags, params: ZPolicyParams, response: { 200: ZPolicy } } },
    async (req) => policies.getPolicy({ deps, id: req.params.id }),
  );

  r.post(
    '/api/policies',
    { config: { access: { kind: 'platform', roles: PLATFORM_WRITE } }, schema: { tags, body: ZCreatePolicyRequest, response: { 201: ZPolicy } } },
    async (req, reply) => reply.status(201).send(await policies.createPolicy({ deps, input: req.body })),
  );

  r.patch(
    '/api/policies/:id',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, params: ZPolicyParams, body: ZUpdatePolicyRequest, response: { 200: ZPolicy } },
    },
    async (req) => policies.updatePolicy({ deps, id: req.params.id, changes: req.body.details }),
  );

  r.delete(
    '/api/policies/:id',
    { config: { access: { kind: 'platform', roles: PLATFORM_WRITE } }, schema: { tags, params: ZPolicyParams, response: { 200: ZSuccess } } },
    async (req) => policies.deletePolicy({ deps, id: req.params.id }),
  );

  // Attendees read policies on any host (checkout links to refund-policy and terms).
  r.get(
    '/api/p/policies/:id',
    { config: { access: { kind: 'public' } }, schema: { tags, summary: 'Public read of a policy', params: ZPolicyParams, response: { 200: ZPublicPolicy } } },
    async (req) => policies.getPublicPolicy({ deps, id: req.params.id }),
  );
}
