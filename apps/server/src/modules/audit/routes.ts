import { PLATFORM_WRITE, ZAuditList } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { Access } from '../../platform/auth/context.js';
import { platformCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { exportAuditLog, listAuditLog } from './read-audit-log.js';

const tags = ['audit-log'];
const ZTenantParams = z.object({ tenantId: z.string() });
const SUMMARY_FILTERS =
  'filters on details.action, details.actor (e-mail or key name, contains), details.actorType (user, key, system), details.targetType, details.targetId, details.dateCreated (>= and <= for a range)';

// Issue 25: tenant admins read their tenant's entries, the platform's writers every entry. Reads
// only: no route changes or deletes an entry (and the database refuses it: a trigger).
const TENANT_AUDIT: Access = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_WRITE };
const PLATFORM_AUDIT: Access = { kind: 'platform', roles: PLATFORM_WRITE };

const csv = (name: string) => ({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` });

export function registerAuditRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/tenants/:tenantId/audit-log',
    { config: { access: TENANT_AUDIT }, schema: { tags, summary: `The tenant's audit log, newest first; ${SUMMARY_FILTERS}`, params: ZTenantParams, response: { 200: ZAuditList } } },
    async (req) => listAuditLog({ deps, tenantId: tenantCtxOf(req).tenantId, query: req.query }),
  );
  r.get(
    '/api/tenants/:tenantId/audit-log/download',
    { config: { access: TENANT_AUDIT }, schema: { tags, summary: "The tenant's audit log as CSV, with the list's filters", params: ZTenantParams } },
    async (req, reply) => {
      const ctx = tenantCtxOf(req);
      const text = await exportAuditLog({ deps, actor: ctx.actor, tenantId: ctx.tenantId, query: req.query as Record<string, unknown> });
      return reply.headers(csv('audit-log.csv')).send(text);
    },
  );
  r.get(
    '/api/platform/audit-log',
    { config: { access: PLATFORM_AUDIT }, schema: { tags, summary: `Every tenant's and the platform's audit log, newest first; ${SUMMARY_FILTERS}, details.tenantId`, response: { 200: ZAuditList } } },
    async (req) => listAuditLog({ deps, tenantId: undefined, query: req.query }),
  );
  r.get(
    '/api/platform/audit-log/download',
    { config: { access: PLATFORM_AUDIT }, schema: { tags, summary: 'The whole audit log as CSV, with the list\'s filters' } },
    async (req, reply) => {
      const ctx = platformCtxOf(req);
      const text = await exportAuditLog({ deps, actor: ctx.actor, tenantId: undefined, query: req.query as Record<string, unknown> });
      return reply.headers(csv('audit-log.csv')).send(text);
    },
  );
}
