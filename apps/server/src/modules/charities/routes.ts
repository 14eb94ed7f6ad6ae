import { ZCharity, ZCharityAssignRequest, ZCharityList, ZCharityRequest, ZCreateCharityResponse, ZSuccess, ZTenantCharityList } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { Access } from '../../platform/auth/context.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
import { PLATFORM_READ, PLATFORM_WRITE } from '../tenants/access.js';
import * as charities from './service.js';

const ZCharityParams = z.object({ charityId: z.uuid() });
const ZTenantParams = z.object({ tenantId: z.string() });
const tags = ['charities'];

const platformRead: Access = { kind: 'platform', roles: PLATFORM_READ };
const platformWrite: Access = { kind: 'platform', roles: PLATFORM_WRITE };
/** The tenant console's list (and the event form's charity options): the tenant's people, platform readers. */
const tenantRead: Access = { kind: 'tenant', roles: ['tenant_admin', 'tenant_staff'], platformRoles: PLATFORM_READ };
/** The tenant's charity list is also what an event manager picks their event's charity from. */
const charityListRead: Access = { ...tenantRead, anyEventRoles: ['event_manager'] };
/**
 * spec §7 assign / unassign carry the tenant id in the body: platform writers for any tenant (on the
 * platform host), a tenant admin for its own tenant only; the guard checks body.tenantId like a path id.
 */
const tenantWrite: Access = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_WRITE, tenantIdIn: 'body' };

/** spec: accounts-admin-fees §2 screens 19 and 20, §7 templates and charities. */
export function registerCharityRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/platform/charities',
    {
      config: { access: platformRead },
      schema: { tags, summary: 'Charities: filters on details.name (contains), details.status, details.city (contains), details.state', response: { 200: ZCharityList } },
    },
    async (req) => charities.listCharities({ deps, query: req.query }),
  );

  r.get(
    '/api/platform/charities/:charityId',
    { config: { access: platformRead }, schema: { tags, params: ZCharityParams, response: { 200: ZCharity } } },
    async (req) => charities.getCharity({ deps, charityId: req.params.charityId }),
  );

  r.post(
    '/api/platform/charities',
    {
      config: { access: platformWrite },
      schema: { tags, summary: 'Create with charityRequest; returns the id', body: ZCharityRequest, response: { 201: ZCreateCharityResponse } },
    },
    async (req, reply) => reply.status(201).send(await charities.createCharity({ deps, input: req.body.charityRequest })),
  );

  r.put(
    '/api/platform/charities/:charityId',
    {
      config: { access: platformWrite },
      schema: {
        tags,
        summary: 'Update with charityRequest; making it inactive takes it off every event',
        params: ZCharityParams,
        body: ZCharityRequest,
        response: { 200: ZSuccess },
      },
    },
    async (req) => charities.updateCharity({ deps, charityId: req.params.charityId, input: req.body.charityRequest }),
  );

  r.delete(
    '/api/platform/charities/:charityId',
    {
      config: { access: platformWrite },
      schema: { tags, summary: "Delete by id; tenants' enablements go with it, events lose it, orders keep their donations", params: ZCharityParams, response: { 200: ZSuccess } },
    },
    async (req) => charities.deleteCharity({ deps, charityId: req.params.charityId }),
  );

  r.post(
    '/api/platform/charities/:charityId/assign',
    {
      config: { access: tenantWrite },
      schema: { tags, summary: 'Enable an active charity for the tenant {tenantId}', params: ZCharityParams, body: ZCharityAssignRequest, response: { 200: ZSuccess } },
    },
    async (req) => charities.assignCharity({ deps, ctx: tenantCtxOf(req), charityId: req.params.charityId }),
  );

  r.post(
    '/api/platform/charities/:charityId/unassign',
    {
      config: { access: tenantWrite },
      schema: {
        tags,
        summary: "Disable the charity for the tenant {tenantId}; the tenant's events that use it lose it",
        params: ZCharityParams,
        body: ZCharityAssignRequest,
        response: { 200: ZSuccess },
      },
    },
    async (req) => charities.unassignCharity({ deps, ctx: tenantCtxOf(req), charityId: req.params.charityId }),
  );

  r.get(
    '/api/tenants/:tenantId/charities',
    {
      config: { access: charityListRead },
      schema: {
        tags,
        summary: "The tenant's charity list: active charities with details.enabled; filters on details.name (contains), details.enabled",
        params: ZTenantParams,
        response: { 200: ZTenantCharityList },
      },
    },
    async (req) => charities.listTenantCharities({ deps, ctx: tenantCtxOf(req), query: req.query }),
  );
}
