import {
  ZExportQuery,
  ZExportStatus,
  ZEventSalesList,
  ZReportDashboard,
  ZReportOrderList,
  ZReportRefundList,
  ZReportSubscriberList,
  ZReportTicketList,
  ZSalesOverTime,
  ZSalesOverTimeQuery,
  ZTenantSalesList,
  ZTicketTypeSalesList,
  type ExportKind,
} from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { platformCtxOf, tenantCtxOf, userOf } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { EVENT_REPORTS, PLATFORM_REPORTS, TENANT_REPORTS } from './access.js';
import * as exportsService from './exports.js';
import * as repo from './repository.js';
import * as service from './service.js';

const ZTenantParams = z.object({ tenantId: z.string() });
const ZEventParams = z.object({ tenantId: z.string(), eventId: z.uuid() });
const ZExportParams = z.object({ exportId: z.uuid() });
const ZTenantExportParams = ZTenantParams.extend({ exportId: z.uuid() });
const ZEventExportParams = ZEventParams.extend({ exportId: z.uuid() });
const ZSigned = z.object({ exp: z.string().max(20).optional(), sig: z.string().max(100).optional() });

type ListKind = 'orders' | 'tickets' | 'refunds' | 'subscribers' | 'event-list';

/**
 * spec: reports-payouts-checkout §2 Reports, §3, §7 (every report `…/download` but the payout ones).
 * Tenant routes carry the tenant id so that the one guard checks membership; the tenant console
 * calls them with its own id. Paths are also in core's REPORT_PATHS.
 */
export function registerReportRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['reports'];
  exportsService.registerReportJobs(deps);
  app.addHook('onReady', async () => {
    try {
      await exportsService.scheduleExportSweep(deps, exportsService.nextSweepSlot(Date.now()));
    } catch (err) {
      deps.log.error({ err }, 'could not schedule the export sweep');
    }
  });

  // ---- platform --------------------------------------------------------------------------------

  r.get(
    '/api/platform/reports/tenant-list',
    {
      config: { access: PLATFORM_REPORTS },
      schema: { tags, summary: 'Platform Sales, Taxes and Donations: one row per tenant; search details.tenantURL', response: { 200: ZTenantSalesList } },
    },
    async (req) => service.listTenantSales({ deps, query: req.query }),
  );

  const platformDownload = (path: string, kind: ExportKind) =>
    r.get(
      path,
      { config: { access: PLATFORM_REPORTS }, schema: { tags, querystring: ZExportQuery, response: { 200: ZExportStatus } } },
      async (req) => exportsService.startExport({ deps, user: platformCtxOf(req).user, actor: platformCtxOf(req).actor, kind, scope: { platform: true }, query: req.query }),
    );
  platformDownload('/api/platform/reports/tenant-list/download', 'tenant-list');
  platformDownload('/api/platform/reports/taxes/download', 'taxes');
  platformDownload('/api/platform/reports/donations/download', 'donations');

  r.get(
    '/api/platform/reports/tenants/:tenantId/event-list/download',
    { config: { access: PLATFORM_REPORTS }, schema: { tags, params: ZTenantParams, querystring: ZExportQuery, response: { 200: ZExportStatus } } },
    async (req) => {
      const { tenantId } = req.params;
      if (!z.uuid().safeParse(tenantId).success || !(await repo.liveTenantExists(deps.db, tenantId))) throw notFound();
      return exportsService.startExport({ deps, user: platformCtxOf(req).user, kind: 'event-list', scope: { tenantId }, query: req.query });
    },
  );

  r.get(
    '/api/platform/reports/exports/:exportId',
    { config: { access: PLATFORM_REPORTS }, schema: { tags, params: ZExportParams, response: { 200: ZExportStatus } } },
    async (req) => exportsService.getExportStatus({ deps, user: platformCtxOf(req).user, exportId: req.params.exportId }),
  );

  // ---- tenant and event ------------------------------------------------------------------------

  r.get(
    '/api/tenants/:tenantId/reports/dashboard',
    { config: { access: TENANT_REPORTS }, schema: { tags, params: ZTenantParams, response: { 200: ZReportDashboard } } },
    async (req) => service.getReportDashboard({ deps, ctx: tenantCtxOf(req) }),
  );
  r.get(
    '/api/tenants/:tenantId/events/:eventId/reports/dashboard',
    { config: { access: EVENT_REPORTS }, schema: { tags, params: ZEventParams, response: { 200: ZReportDashboard } } },
    async (req) => service.getReportDashboard({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  const lists: Array<{ tenantPath?: string; eventPath?: string; kind: ListKind; response: z.ZodTypeAny }> = [
    { tenantPath: 'reports/event-list', kind: 'event-list', response: ZEventSalesList },
    { tenantPath: 'reports/order-list', eventPath: 'reports/order-list', kind: 'orders', response: ZReportOrderList },
    { eventPath: 'reports/tickets', kind: 'tickets', response: ZReportTicketList },
    { tenantPath: 'reports/refunds-list', eventPath: 'reports/refunds-list', kind: 'refunds', response: ZReportRefundList },
    { tenantPath: 'newsletter/subscriber-list', eventPath: 'newsletter/subscriber-list', kind: 'subscribers', response: ZReportSubscriberList },
  ];
  for (const { tenantPath, eventPath, kind, response } of lists) {
    if (tenantPath) {
      r.get(
        `/api/tenants/:tenantId/${tenantPath}`,
        { config: { access: TENANT_REPORTS }, schema: { tags, params: ZTenantParams, response: { 200: response } } },
        async (req) => service.listTenantReport({ deps, ctx: tenantCtxOf(req), kind, query: req.query }),
      );
      r.get(
        `/api/tenants/:tenantId/${tenantPath}/download`,
        { config: { access: TENANT_REPORTS }, schema: { tags, params: ZTenantParams, querystring: ZExportQuery, response: { 200: ZExportStatus } } },
        async (req) => {
          const ctx = tenantCtxOf(req);
          const scope = await service.reportScope({ deps, ctx });
          return exportsService.startExport({ deps, user: ctx.user, actor: ctx.actor, kind, scope, query: req.query });
        },
      );
    }
    if (eventPath) {
      r.get(
        `/api/tenants/:tenantId/events/:eventId/${eventPath}`,
        { config: { access: EVENT_REPORTS }, schema: { tags, params: ZEventParams, response: { 200: response } } },
        async (req) => service.listTenantReport({ deps, ctx: tenantCtxOf(req), kind, eventId: req.params.eventId, query: req.query }),
      );
      r.get(
        `/api/tenants/:tenantId/events/:eventId/${eventPath}/download`,
        { config: { access: EVENT_REPORTS }, schema: { tags, params: ZEventParams, querystring: ZExportQuery, response: { 200: ZExportStatus } } },
        async (req) => {
          const ctx = tenantCtxOf(req);
          const scope = await service.reportScope({ deps, ctx, eventId: req.params.eventId });
          return exportsService.startExport({ deps, user: ctx.user, actor: ctx.actor, kind, scope, query: req.query });
        },
      );
    }
  }

  for (const level of ['tenant', 'event'] as const) {
    const base = level === 'tenant' ? '/api/tenants/:tenantId/reports' : '/api/tenants/:tenantId/events/:eventId/reports';
    const access = level === 'tenant' ? TENANT_REPORTS : EVENT_REPORTS;
    const params = level === 'tenant' ? ZTenantParams : ZEventParams;
    const eventOf = (p: unknown) => (p as { eventId?: string }).eventId;
    r.get(
      `${base}/charts/sales-over-time`,
      { config: { access }, schema: { tags, params, querystring: ZSalesOverTimeQuery, response: { 200: ZSalesOverTime } } },
      async (req) => service.getSalesOverTime({ deps, ctx: tenantCtxOf(req), eventId: eventOf(req.params), query: req.query }),
    );
    r.get(
      `${base}/charts/ticket-types`,
      { config: { access }, schema: { tags, params, response: { 200: ZTicketTypeSalesList } } },
      async (req) => service.getSalesByTicketType({ deps, ctx: tenantCtxOf(req), eventId: eventOf(req.params) }),
    );
  }

  r.get(
    '/api/tenants/:tenantId/reports/exports/:exportId',
    { config: { access: TENANT_REPORTS }, schema: { tags, params: ZTenantExportParams, response: { 200: ZExportStatus } } },
    async (req) => {
      const ctx = tenantCtxOf(req);
      return exportsService.getExportStatus({ deps, user: ctx.user, exportId: req.params.exportId, tenantId: ctx.tenantId });
    },
  );
  r.get(
    '/api/tenants/:tenantId/events/:eventId/reports/exports/:exportId',
    { config: { access: EVENT_REPORTS }, schema: { tags, params: ZEventExportParams, response: { 200: ZExportStatus } } },
    async (req) => {
      const ctx = tenantCtxOf(req);
      return exportsService.getExportStatus({ deps, user: ctx.user, exportId: req.params.exportId, tenantId: ctx.tenantId, eventId: req.params.eventId });
    },
  );

  // The signed download URL: the CSV once written, 202 with the status until then (docs/decisions.md "Report exports").
  r.get(
    '/api/report-exports/:exportId/file',
    { config: { access: { kind: 'user' } }, schema: { tags, params: ZExportParams, querystring: ZSigned } },
    async (req, reply) => {
      const file = await exportsService.openExportFile({ deps, user: userOf(req), exportId: req.params.exportId, exp: req.query.exp, sig: req.query.sig });
      if (!file.ready) return reply.status(202).header('retry-after', '2').header('cache-control', 'no-store').send(file.status);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );
}
