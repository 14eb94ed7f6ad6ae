import { ZResendTicketsResponse, ZTicketsRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
// spec: reports-payouts-checkout §6, resend and download are order actions (docs/decisions.md, order management).
import { ORDER_ATTEND as TICKET_ACTIONS } from '../order-admin/access.js';
import { registerOrderNoticeJobs } from './order-notices.js';
import { registerAppleWebServiceRoutes } from './apple-web-service-routes.js';
import { closePdfWorkers, mailComposer, usePdfWorkers } from './pdf-workers.js';
import {
  downloadTickets,
  FULFIL_JOB,
  FULFIL_RECONCILE_JOB,
  fulfilmentBatches,
  reconcileFulfilment,
  resendTickets,
  scheduleFulfilmentReconcile,
} from './service.js';

const RECONCILE_FIRST_DELAY_MS = 60_000;
/**
 * Orders fulfilled together in one batch (issue 26 "mail4": the statements of one order serve them
 * all), and batches at once on a node besides the main loop (their PDFs are built on the PDF worker
 * threads, pdf-workers.ts): the fulfil lane runs up to FULFIL_BATCH * FULFIL_BATCHES jobs at once.
 */
export const FULFIL_BATCH = 16;
const FULFIL_BATCHES = 2;

const ZEventParams = z.object({ tenantId: z.string(), eventId: z.string().max(100) });

/** Ticket fulfilment: the orders.fulfil job, and resend / download of an order's tickets. */
export function registerFulfilmentRoutes(app: FastifyInstance, deps: Deps) {
  // The ticket PDFs on worker threads of their own (issue 26), stopped with the app.
  usePdfWorkers(deps.config.pdfWorkers);
  // The mails' MIME sources on the same worker threads as the PDFs (none: composed inline).
  deps.mailer.composeWith(mailComposer());
  app.addHook('onClose', closePdfWorkers);
  // The jobs a lane claims together (it starts them in one turn) are fulfilled in one batch.
  const fulfil = fulfilmentBatches(deps, FULFIL_BATCH);
  deps.jobs.register(FULFIL_JOB, async ({ tenantId, orderId }: { tenantId: string; orderId: string }) => {
    await fulfil({ tenantId, orderId });
  });
  // Fulfilment (the PDF and .ics built, the mail queued) runs in a lane of its own as well as in the
  // main loop, so that a sale's paid orders are not fulfilled one at a time behind every other job.
  deps.jobs.lane([FULFIL_JOB], FULFIL_BATCH * FULFIL_BATCHES);
  deps.jobs.register(FULFIL_RECONCILE_JOB, async () => {
    await reconcileFulfilment({ deps });
  });
  registerOrderNoticeJobs(deps);
  registerAppleWebServiceRoutes(app, deps);
  // Every start makes sure a reconcile run is queued (a lost chain of re-enqueues restarts here).
  app.addHook('onReady', async () => {
    try {
      await scheduleFulfilmentReconcile(deps, Date.now() + RECONCILE_FIRST_DELAY_MS);
    } catch (err) {
      deps.log.error({ err }, 'could not schedule the fulfilment reconciliation');
    }
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/tenants/:tenantId/events/:eventId/resend',
    {
      config: { access: TICKET_ACTIONS },
      schema: { tags: ['tickets'], params: ZEventParams, body: ZTicketsRequest, response: { 200: ZResendTicketsResponse } },
    },
    async (req) =>
      resendTickets({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, orderUid: req.body.orderUID, email: req.body.email }),
  );

  r.post(
    '/api/tenants/:tenantId/events/:eventId/download',
    {
      config: { access: TICKET_ACTIONS },
      schema: {
        tags: ['tickets'],
        params: ZEventParams,
        body: ZTicketsRequest,
        response: { 200: z.any().describe('application/pdf: tickets_{orderUID}.pdf') },
      },
    },
    async (req, reply) => {
      const { filename, bytes } = await downloadTickets({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, orderUid: req.body.orderUID });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );
}
