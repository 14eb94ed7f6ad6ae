import { ZCashDrawerDetail, ZCashDrawerList, ZCloseDrawerRequest, ZCurrentDrawer, ZOpenDrawerRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
import { DRAWER_ALL, DRAWER_DETAIL, DRAWER_OWN } from './access.js';
import { closeDrawer } from './close-drawer.js';
import { exportDrawers } from './export-drawers.js';
import { openDrawer } from './open-drawer.js';
import { currentDrawer, getDrawer, listDrawers } from './read-drawers.js';

const tags = ['cash-drawers'];
const ZTenantParams = z.object({ tenantId: z.string() });
const ZDrawerParams = z.object({ tenantId: z.string(), drawerId: z.string().max(100) });

// Issue 23 part B: a cash drawer per staff member and shift (docs/box-office.md "Cash drawers").
// The list's query (cursor, limit, sort, filters) is parsed by the one list-query implementation
// after the guard, as every list's is, so a stranger with a bad query still gets 401/403/404.
export function registerCashDrawerRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/tenants/:tenantId/cash-drawers',
    {
      config: { access: DRAWER_ALL },
      schema: {
        tags,
        summary: "Every cash drawer of the tenant (its admins): filters on details.status (open|closed), details.staffEmail, details.staffName (contains), details.userId, details.openedAt, details.difference",
        params: ZTenantParams,
        response: { 200: ZCashDrawerList },
      },
    },
    async (req) => listDrawers({ deps, ctx: tenantCtxOf(req), query: req.query }),
  );

  r.get(
    '/api/tenants/:tenantId/cash-drawers/export.csv',
    {
      config: { access: DRAWER_ALL },
      schema: {
        tags,
        summary: "The tenant's cash drawers as CSV, with the list's filters",
        params: ZTenantParams,
        response: { 200: z.any().describe('text/csv: cash-drawers-{date}.csv') },
      },
    },
    async (req, reply) => {
      const { filename, body } = await exportDrawers({ deps, ctx: tenantCtxOf(req), query: req.query });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  );

  r.get(
    '/api/tenants/:tenantId/cash-drawers/current',
    {
      config: { access: DRAWER_OWN },
      schema: { tags, summary: "The caller's own open cash drawer with its cash movements, or null", params: ZTenantParams, response: { 200: ZCurrentDrawer } },
    },
    async (req) => currentDrawer({ deps, ctx: tenantCtxOf(req) }),
  );

  r.post(
    '/api/tenants/:tenantId/cash-drawers',
    {
      config: { access: DRAWER_OWN },
      schema: {
        tags,
        summary: "Open the caller's cash drawer for a shift with its opening float (cents); one open drawer per person (409 DRAWER_ALREADY_OPEN)",
        params: ZTenantParams,
        body: ZOpenDrawerRequest,
        response: { 200: ZCashDrawerDetail },
      },
    },
    async (req) => openDrawer({ deps, ctx: tenantCtxOf(req), openingFloat: req.body.details.openingFloat }),
  );

  r.get(
    '/api/tenants/:tenantId/cash-drawers/:drawerId',
    {
      config: { access: DRAWER_DETAIL },
      schema: { tags, summary: 'A cash drawer with its cash movements (its owner, or the tenant admins)', params: ZDrawerParams, response: { 200: ZCashDrawerDetail } },
    },
    async (req) => getDrawer({ deps, ctx: tenantCtxOf(req), drawerId: req.params.drawerId }),
  );

  r.post(
    '/api/tenants/:tenantId/cash-drawers/:drawerId/close',
    {
      config: { access: DRAWER_OWN },
      schema: {
        tags,
        summary: 'Close one\'s own cash drawer with the cash counted (cents): expected cash and the difference are kept',
        params: ZDrawerParams,
        body: ZCloseDrawerRequest,
        response: { 200: ZCashDrawerDetail },
      },
    },
    async (req) => closeDrawer({ deps, ctx: tenantCtxOf(req), drawerId: req.params.drawerId, countedAmount: req.body.details.countedAmount, note: req.body.details.note }),
  );
}
