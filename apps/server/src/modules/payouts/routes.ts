import {
  PAYOUT_PATHS,
  PLATFORM_ANY,
  PLATFORM_WRITE,
  ZCompletedPayoutList,
  ZExportQuery,
  ZExportStatus,
  ZPayout,
  ZPayoutBalance,
  ZPayoutBreakdownList,
  ZPayoutHoldAnswer,
  ZPayoutHoldRequest,
  ZPayoutOrderList,
  ZPayoutSettings,
  ZTransferRequest,
  ZTransferResult,
} from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { platformCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { PAYOUT_LINES_JOB } from '../orders/payment.js';
import * as exportsSvc from './exports.js';
import { AUTOMATIC_JOB, getPayoutSettings, PAYOUT_TICK_JOB, payoutTick, runAutomaticPayouts, scheduleTick, updatePayoutSettings } from './automatic-payouts.js';
import { holdPayout } from './hold-payout.js';
import { getPayout, getPayoutBalance, listCompletedPayouts, listPayoutOrders, listPendingPayouts } from './read-payouts.js';
import { runPayoutLinesJobs } from './sync-payout-lines.js';
import { createBatcher } from '../../platform/batcher.js';
import { transferPayoutOrders } from './transfer-payouts.js';

const tags = ['payouts'];
const ZPayoutParams = z.object({ payoutId: z.string().max(100) });
const ZTenantPayoutParams = z.object({ tenantId: z.string(), payoutId: z.string().max(100) });
const ZExportParams = z.object({ exportId: z.string().uuid() });
const ZTenantExportParams = z.object({ tenantId: z.string(), exportId: z.string().uuid() });
// spec §6: tenant users see their own completed payouts; platform operators see every tenant's.
const TENANT_READ = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_ANY } as const;

/** Payout lines jobs running at once on a node (their lane); those that run at once share their statements. */
const PAYOUT_LINES_LANE = 16;

export function registerPayoutRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  deps.jobs.register(PAYOUT_TICK_JOB, async () => payoutTick({ deps }));
  // Issue 26 "mail4": the payout lines jobs of a sale run in a lane of their own, those running at once
  // in the statements of one (a batch's requests wait while the one before it runs, then go together;
  // a batch that fails runs each alone).
  const payoutLines = createBatcher<{ tenantId?: unknown; orderId?: unknown }, Error | null>((_key, payloads) => runPayoutLinesJobs(deps, payloads), 64);
  deps.jobs.register(PAYOUT_LINES_JOB, async (payload: { tenantId?: unknown; orderId?: unknown }) => {
    const failed = await payoutLines.submit('', payload);
    if (failed) throw failed;
  });
  deps.jobs.lane([PAYOUT_LINES_JOB], PAYOUT_LINES_LANE);
  deps.jobs.register(AUTOMATIC_JOB, async () => {
    await runAutomaticPayouts({ deps });
  });
  deps.jobs.register(exportsSvc.PAYOUT_EXPORT_JOB, async ({ exportId }: { exportId: string }) => exportsSvc.runPayoutExport({ deps, exportId }));
  // Every start makes sure a tick is queued (a lost chain of re-enqueues restarts here).
  app.addHook('onReady', async () => {
    try {
      await scheduleTick(deps, Date.now() + 5_000);
    } catch (err) {
      deps.log.error({ err }, 'could not schedule the payout tick');
    }
  });

  // ---- platform ---------------------------------------------------------------------------------

  r.get(
    PAYOUT_PATHS.pending(),
    { config: { access: { kind: 'platform', roles: PLATFORM_ANY } }, schema: { tags, summary: 'Pending payouts: open payout lines of every tenant', response: { 200: ZPayoutOrderList } } },
    async (req) => listPendingPayouts({ deps, query: req.query }),
  );

  r.get(
    PAYOUT_PATHS.completed(),
    { config: { access: { kind: 'platform', roles: PLATFORM_ANY } }, schema: { tags, summary: 'Completed payouts of every tenant', response: { 200: ZCompletedPayoutList } } },
    async (req) => listCompletedPayouts({ deps, query: req.query }),
  );

  // Every operator who sees Pending Payouts sees whether the weekly run is on; only PLATFORM_WRITE changes it.
  r.get(
    PAYOUT_PATHS.settings(),
    {
      config: { access: { kind: 'platform', roles: PLATFORM_ANY } },
      schema: { tags, summary: 'Payout settings of the platform (weekly automatic run)', response: { 200: ZPayoutSettings } },
    },
    async () => getPayoutSettings({ deps }),
  );

  r.put(
    PAYOUT_PATHS.settings(),
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, body: ZPayoutSettings, response: { 200: ZPayoutSettings } },
    },
    async (req) => updatePayoutSettings({ deps, weeklyAutomatic: req.body.weeklyAutomatic }),
  );

  r.get(
    '/api/platform/payouts/:payoutId',
    { config: { access: { kind: 'platform', roles: PLATFORM_ANY } }, schema: { tags, summary: 'Payout details', params: ZPayoutParams, response: { 200: ZPayout } } },
    async (req) => getPayout({ deps, payoutId: req.params.payoutId }),
  );

  r.get(
    '/api/platform/payouts/:payoutId/orders',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_ANY } },
      schema: { tags, summary: "A payout's order list", params: ZPayoutParams, response: { 200: ZPayoutBreakdownList } },
    },
    async (req) => listPayoutOrders({ deps, payoutId: req.params.payoutId, query: req.query as Record<string, unknown> }),
  );

  // spec §7 POST /platform/transfer/payout-orders
  r.post(
    PAYOUT_PATHS.transfer(),
    {
      config: { access: { kind: 'platform', roles: PLATFORM_WRITE } },
      schema: { tags, summary: 'Transfer the chosen orders, one transfer per tenant', body: ZTransferRequest, response: { 200: ZTransferResult } },
    },
    async (req) => transferPayoutOrders({ deps, user: platformCtxOf(req).user, orderUIDs: req.body.orderUIDs, actor: platformCtxOf(req).actor }),
  );

  // ---- tenant (tenant console, and platform operators per tenant) --------------------------------

  r.get(
    '/api/tenants/:tenantId/payouts/balance',
    {
      config: { access: TENANT_READ },
      schema: {
        tags,
        summary: "What the tenant is due and owes over its lines no payout has taken: its balance owed when its cash and card-terminal orders' platform fees exceed its open sales (issue 23)",
        params: z.object({ tenantId: z.string() }),
        response: { 200: ZPayoutBalance },
      },
    },
    async (req) => getPayoutBalance({ deps, tenantId: tenantCtxOf(req).tenantId }),
  );

  r.get(
    '/api/tenants/:tenantId/payouts/completed',
    { config: { access: TENANT_READ }, schema: { tags, params: z.object({ tenantId: z.string() }), response: { 200: ZCompletedPayoutList } } },
    async (req) => listCompletedPayouts({ deps, tenantId: tenantCtxOf(req).tenantId, query: req.query }),
  );

  r.get(
    '/api/tenants/:tenantId/payouts/:payoutId',
    { config: { access: TENANT_READ }, schema: { tags, params: ZTenantPayoutParams, response: { 200: ZPayout } } },
    async (req) => getPayout({ deps, tenantId: tenantCtxOf(req).tenantId, payoutId: req.params.payoutId }),
  );

  r.get(
    '/api/tenants/:tenantId/payouts/:payoutId/orders',
    { config: { access: TENANT_READ }, schema: { tags, params: ZTenantPayoutParams, response: { 200: ZPayoutBreakdownList } } },
    async (req) => listPayoutOrders({ deps, tenantId: tenantCtxOf(req).tenantId, payoutId: req.params.payoutId, query: req.query as Record<string, unknown> }),
  );

  // spec §7 POST /tenants/{tenantId}/payout/hold: platform operators who may change things (§6).
  r.post(
    '/api/tenants/:tenantId/payout/hold',
    {
      config: { access: { kind: 'tenant', roles: [], platformRoles: PLATFORM_WRITE } },
      schema: { tags, summary: "Hold or release an order's payout", params: z.object({ tenantId: z.string() }), body: ZPayoutHoldRequest, response: { 200: ZPayoutHoldAnswer } },
    },
    async (req) => holdPayout({ deps, ctx: tenantCtxOf(req), input: req.body }),
  );

  // ---- the four payout downloads (spec §7) --------------------------------------------------------

  const platformStatus = (exportId: string) => PAYOUT_PATHS.platformExport(exportId);
  const platformDownload = (path: string, kind: exportsSvc.PayoutExportKind) =>
    r.get(
      path,
      { config: { access: { kind: 'platform', roles: PLATFORM_ANY } }, schema: { tags, querystring: ZExportQuery, params: z.object({ payoutId: z.string().max(100) }).partial(), response: { 200: ZExportStatus } } },
      async (req) =>
        exportsSvc.startPayoutExport({
          deps,
          kind,
          tenantId: null,
          params: { ...req.query, payoutId: (req.params as { payoutId?: string }).payoutId },
          userId: platformCtxOf(req).user.id,
          actor: platformCtxOf(req).actor,
          statusPath: platformStatus,
        }),
    );
  platformDownload(PAYOUT_PATHS.transactionsDownload(), 'payout-transactions');
  platformDownload(PAYOUT_PATHS.collectionDownload(), 'payouts-collection');
  platformDownload('/api/platform/reports/payouts-collection/:payoutId/download', 'payout-orders');

  r.get(
    '/api/platform/payouts/exports/:exportId',
    { config: { access: { kind: 'platform', roles: PLATFORM_ANY } }, schema: { tags, params: ZExportParams, response: { 200: ZExportStatus } } },
    async (req) => exportsSvc.exportStatus({ deps, exportId: req.params.exportId, tenantId: null, userId: platformCtxOf(req).user.id, statusPath: platformStatus }),
  );

  r.get(
    '/api/tenants/:tenantId/reports/collections/payout-transactions/download',
    { config: { access: TENANT_READ }, schema: { tags, params: z.object({ tenantId: z.string() }), querystring: ZExportQuery, response: { 200: ZExportStatus } } },
    async (req) => {
      const ctx = tenantCtxOf(req);
      return exportsSvc.startPayoutExport({
        deps,
        kind: 'tenant-payout-transactions',
        tenantId: ctx.tenantId,
        params: req.query,
        userId: ctx.user.id,
        actor: ctx.actor,
        statusPath: (id) => PAYOUT_PATHS.tenantExport(ctx.tenantId, id),
      });
    },
  );

  r.get(
    '/api/tenants/:tenantId/payouts/exports/:exportId',
    { config: { access: TENANT_READ }, schema: { tags, params: ZTenantExportParams, response: { 200: ZExportStatus } } },
    async (req) => {
      const ctx = tenantCtxOf(req);
      return exportsSvc.exportStatus({ deps, exportId: req.params.exportId, tenantId: ctx.tenantId, userId: ctx.user.id, statusPath: (id) => PAYOUT_PATHS.tenantExport(ctx.tenantId, id) });
    },
  );
}
