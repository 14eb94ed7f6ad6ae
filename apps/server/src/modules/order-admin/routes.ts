import { ZCancellationProgress, ZOrderDetail, ZRefundRequest, ZRefundResponse, ZSettleRefundRequest, ZVoidTicketRequest, ZVoidTicketResponse } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
import { ORDER_ATTEND, ORDER_REFUND, ORDER_VIEW } from './access.js';
import { CANCEL_EVENT_JOB, type CancelEventJob } from '../events/cancellation.js';
import { CANCEL_ORDER_MAIL_JOB, CANCEL_ORDER_REFUND_JOB, type CancelOrderJob } from './cancel-jobs.js';
import { getEventCancellation } from './get-event-cancellation.js';
import { getOrderDetail } from './get-order-detail.js';
import { mailCancelledOrder } from './mail-cancelled-order.js';
import { runCancelRefundJob } from './refund-cancelled-order.js';
import { refundOrder } from './refund-order.js';
import { settleOwedRefund } from './settle-box-office-refund.js';
import { sweepCancelledEvent } from './sweep-cancelled-event.js';
import { voidTicket } from './void-ticket.js';

// Ids that are not ours answer 404 in the service (like another tenant's), never a 400 that tells them apart.
const ZEventParams = z.object({ tenantId: z.string(), eventId: z.string().max(100) });
const ZOrderParams = ZEventParams.extend({ orderUID: z.string().max(100) });

/** The order page and its actions (issue 8): spec reports-payouts-checkout §2, §4, §5 Actions, §7. */
export function registerOrderAdminRoutes(app: FastifyInstance, deps: Deps) {
  deps.jobs.register(CANCEL_EVENT_JOB, async (job: CancelEventJob) => {
    await sweepCancelledEvent({ deps, job });
  });
  deps.jobs.register(CANCEL_ORDER_REFUND_JOB, async (job: CancelOrderJob) => {
    await runCancelRefundJob({ deps, job });
  });
  deps.jobs.register(CANCEL_ORDER_MAIL_JOB, async (job: CancelOrderJob) => {
    await mailCancelledOrder({ deps, job });
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['orders'];

  r.get(
    '/api/tenants/:tenantId/events/:eventId/orders/:orderUID',
    { config: { access: ORDER_VIEW }, schema: { tags, summary: 'One order: breakdown, tickets, refunds, payout state, audit trail', params: ZOrderParams, response: { 200: ZOrderDetail } } },
    async (req) => getOrderDetail({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, orderUid: req.params.orderUID }),
  );

  r.post(
    '/api/tenants/:tenantId/events/:eventId/tickets/void',
    {
      config: { access: ORDER_ATTEND },
      schema: { tags, summary: 'Voids or unvoids a ticket, with a reason (spec §7)', params: ZEventParams, body: ZVoidTicketRequest, response: { 200: ZVoidTicketResponse } },
    },
    async (req) => voidTicket({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body }),
  );

  r.post(
    '/api/tenants/:tenantId/events/:eventId/orders/:orderUID/refunds',
    {
      config: { access: ORDER_REFUND },
      schema: { tags, summary: 'Refunds the whole order, an amount, or chosen tickets', params: ZOrderParams, body: ZRefundRequest, response: { 201: ZRefundResponse } },
    },
    async (req, reply) =>
      reply.status(201).send(await refundOrder({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, orderUid: req.params.orderUID, input: req.body })),
  );

  r.post(
    '/api/tenants/:tenantId/events/:eventId/orders/:orderUID/refunds/:refundId/settle',
    {
      config: { access: ORDER_REFUND },
      schema: {
        tags,
        summary: "Settles a refund owed at the box office (a cash or card-terminal order of a cancelled event): cash from the settler's open drawer, or the terminal's refund reference; 409 REFUND_NOT_OWED once settled",
        params: ZOrderParams.extend({ refundId: z.string().max(100) }),
        body: ZSettleRefundRequest,
        response: { 200: ZRefundResponse },
      },
    },
    async (req) =>
      settleOwedRefund({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, orderUid: req.params.orderUID, refundId: req.params.refundId, input: req.body }),
  );

  r.get(
    '/api/tenants/:tenantId/events/:eventId/cancellation',
    { config: { access: ORDER_VIEW }, schema: { tags, summary: "A cancelled event's refunds (what cancelling would refund, before it): orders by state, amounts left to refund, failed orders", params: ZEventParams, response: { 200: ZCancellationProgress } } },
    async (req) => getEventCancellation({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );
}
