import {
  M,
  ZSurchargeRuleInput,
  ZSurchargeRuleList,
  ZSurchargeRulePatch,
  ZSurchargeRuleResponse,
  ZTicketSettings,
} from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { platformCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { PLATFORM_READ, PLATFORM_WRITE } from '../tenants/access.js';
import * as fees from './service.js';

const ZRuleParams = z.object({ id: z.string().min(1).max(200) });
const ZTenantParams = z.object({ tenantId: z.string() });
const ZTenantRuleParams = z.object({ tenantId: z.string(), ruleId: z.string().min(1).max(200) });
const ZDeleted = z.object({ success: z.literal(true), message: z.string() });
const ZSettingsSaved = z.object({ success: z.literal(true), message: z.string(), settings: ZTicketSettings });
/** Either {defaultSurchargeRule} or the full settings (ZTicketSettingsInput); checked by the service. */
const ZSettingsBody = z.record(z.string(), z.unknown()).describe('Either {defaultSurchargeRule} or the full ticket settings (ZTicketSettingsInput)');

const GLOBAL: fees.FeeScope = { kind: 'global' };
const tags = ['fees'];

const tenantRead = { kind: 'tenant', roles: ['tenant_admin', 'tenant_staff'], platformRoles: PLATFORM_READ } as const;
/** The rule list is also what an event manager picks their event's service fee rule from. */
const ruleListRead = { ...tenantRead, anyEventRoles: ['event_manager'] } as const;
// Tenant admins reach the writes; the service lets them through only while the platform allows it.
const tenantWrite = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_WRITE } as const;

export function registerFeeRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // ---- global (the template for new tenants) ------------------------------------------------

  r.get(
    '/api/global/rules',
    { config: { access: { kind: 'platform', roles: PLATFORM_READ } }, schema: { tags, summary: 'Global surcharge rules', response: { 200: ZSurchargeRuleList } } },
    async (req) => fees.listRules({ deps, scope: GLOBAL, query: req.query }),
  );

  r.post(
    '/api/global/rule',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, body: ZSurchargeRuleInput, response: { 201: ZSurchargeRuleResponse } },
    },
    async (req, reply) => reply.status(201).send(await fees.createRule({ deps, scope: GLOBAL, actor: fees.actorOf(null, platformCtxOf(req).actor), input: req.body })),
  );

  r.put(
    '/api/global/rule/:id',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, params: ZRuleParams, body: ZSurchargeRuleInput, response: { 200: ZSurchargeRuleResponse } },
    },
    async (req) => fees.updateRule({ deps, scope: GLOBAL, actor: fees.actorOf(null, platformCtxOf(req).actor), ruleId: req.params.id, changes: req.body }),
  );

  r.patch(
    '/api/global/rule/:id',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, summary: 'Partial update, e.g. {active} from the table or {default: true}', params: ZRuleParams, body: ZSurchargeRulePatch, response: { 200: ZSurchargeRuleResponse } },
    },
    async (req) => fees.updateRule({ deps, scope: GLOBAL, actor: fees.actorOf(null, platformCtxOf(req).actor), ruleId: req.params.id, changes: req.body }),
  );

  r.delete(
    '/api/global/rules/:id',
    { config: { access: { kind: 'platform', roles: PLATFORM_WRITE } }, schema: { tags, params: ZRuleParams, response: { 200: ZDeleted } } },
    async (req) => fees.deleteRule({ deps, scope: GLOBAL, actor: fees.actorOf(null, platformCtxOf(req).actor), ruleId: req.params.id }),
  );

  r.get(
    '/api/global/setting',
    { config: { access: { kind: 'platform', roles: PLATFORM_READ } }, schema: { tags, response: { 200: ZTicketSettings } } },
    async () => fees.getSettings({ deps, scope: GLOBAL }),
  );

  r.put(
    '/api/global/setting',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, body: ZSettingsBody, response: { 200: ZSettingsSaved } },
    },
    async (req) => fees.updateSettings({ deps, scope: GLOBAL, actor: fees.actorOf(null, platformCtxOf(req).actor), body: req.body }),
  );

  // ---- a tenant's own (Tenant Fees) ---------------------------------------------------------

  const scopeOf = (tenantId: string): fees.FeeScope => ({ kind: 'tenant', tenantId });

  r.get(
    '/api/tenants/:tenantId/rules',
    { config: { access: ruleListRead }, schema: { tags, params: ZTenantParams, response: { 200: ZSurchargeRuleList } } },
    async (req) => fees.listRules({ deps, scope: scopeOf(tenantCtxOf(req).tenantId), query: req.query }),
  );

  r.post(
    '/api/tenants/:tenantId/rules',
    { config: { access: tenantWrite }, schema: { tags, params: ZTenantParams, body: ZSurchargeRuleInput, response: { 201: ZSurchargeRuleResponse } } },
    async (req, reply) => {
      const ctx = tenantCtxOf(req);
      return reply.status(201).send(await fees.createRule({ deps, scope: scopeOf(ctx.tenantId), actor: fees.actorOf(ctx), input: req.body }));
    },
  );

  r.put(
    '/api/tenants/:tenantId/rules/:ruleId',
    { config: { access: tenantWrite }, schema: { tags, params: ZTenantRuleParams, body: ZSurchargeRuleInput, response: { 200: ZSurchargeRuleResponse } } },
    async (req) => {
      const ctx = tenantCtxOf(req);
      return fees.updateRule({ deps, scope: scopeOf(ctx.tenantId), actor: fees.actorOf(ctx), ruleId: req.params.ruleId, changes: req.body });
    },
  );

  r.patch(
    '/api/tenants/:tenantId/rules/:ruleId',
    { config: { access: tenantWrite }, schema: { tags, params: ZTenantRuleParams, body: ZSurchargeRulePatch, response: { 200: ZSurchargeRuleResponse } } },
    async (req) => {
      const ctx = tenantCtxOf(req);
      return fees.updateRule({ deps, scope: scopeOf(ctx.tenantId), actor: fees.actorOf(ctx), ruleId: req.params.ruleId, changes: req.body });
    },
  );

  r.delete(
    '/api/tenants/:tenantId/rules/:ruleId',
    { config: { access: tenantWrite }, schema: { tags, params: ZTenantRuleParams, response: { 200: ZDeleted } } },
    async (req) => {
      const ctx = tenantCtxOf(req);
      return fees.deleteRule({ deps, scope: scopeOf(ctx.tenantId), actor: fees.actorOf(ctx), ruleId: req.params.ruleId });
    },
  );

  // spec: accounts §7: the platform console deletes a tenant's rule at /platform/tenants/rules.
  r.delete(
    '/api/platform/tenants/rules/:ruleId',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: {
        tags,
        params: z.object({ ruleId: z.string().min(1).max(200) }),
        querystring: z.object({ tenantId: z.string({ error: M.tenantIdRequired }).min(1, M.tenantIdRequired).max(100) }),
        response: { 200: ZDeleted },
      },
    },
    async (req) => fees.deleteTenantRuleAsPlatform({ deps, tenantId: req.query.tenantId, ruleId: req.params.ruleId, audit: platformCtxOf(req).actor }),
  );

  r.get(
    '/api/tenants/:tenantId/setting',
    { config: { access: tenantRead }, schema: { tags, params: ZTenantParams, response: { 200: ZTicketSettings } } },
    async (req) => fees.getSettings({ deps, scope: scopeOf(tenantCtxOf(req).tenantId) }),
  );

  r.put(
    '/api/tenants/:tenantId/setting',
    { config: { access: tenantWrite }, schema: { tags, params: ZTenantParams, body: ZSettingsBody, response: { 200: ZSettingsSaved } } },
    async (req) => {
      const ctx = tenantCtxOf(req);
      return fees.updateSettings({ deps, scope: scopeOf(ctx.tenantId), actor: fees.actorOf(ctx), body: req.body });
    },
  );
}
