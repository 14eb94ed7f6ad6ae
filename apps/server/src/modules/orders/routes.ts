import { ZCartConflict, ZCreateOrderRequest, ZCreateOrderResponse, ZError, ZPublicOrder } from '@marquee/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { discountCodeLimit, field } from './code-limit.js';
import * as service from './service.js';

const ZOrderParams = z.object({ tenantId: z.string().max(100), eventId: z.uuid() });

/** The attendee's order (spec reports-payouts-checkout §7 Create order) and the jobs that keep holds honest. */
export function registerOrderRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['checkout'];
  // PLACE ORDER holds tickets and opens a payment session: a cap per client address, high enough
  // for a family or an office behind one NAT, keeps one client from holding a sale's stock hostage.
  const ordersPerAddress = {
    max: deps.config.rateLimitOrdersPerMinute,
    timeWindow: 60_000,
    keyGenerator: (req: FastifyRequest) => `${req.routeOptions.url}|${req.ip}`,
  };
  const codeLimit = discountCodeLimit(deps, (body) => field(field(body, 'order'), 'discountCode'));

  deps.jobs.register(service.HOLD_EXPIRY_JOB, async (payload: { orderId: string }) => {
    await service.expireHold({ deps, orderId: payload.orderId });
  });
  deps.jobs.register(service.RECONCILE_JOB, async () => {
    await service.reconcileHolds({ deps });
  });
  // Every start makes sure a reconcile run is queued (a lost chain of re-enqueues restarts here).
  app.addHook('onReady', async () => {
    try {
      await service.scheduleReconcile(deps, Date.now() + 5_000);
    } catch (err) {
      deps.log.error({ err }, 'could not schedule the hold reconciliation');
    }
  });

  r.post(
    '/api/p/tenants/:tenantId/events/:eventId/orders',
    {
      config: { access: { kind: 'public' }, rateLimit: ordersPerAddress },
      ...codeLimit,
      schema: {
        tags,
        summary: 'PLACE ORDER: holds the tickets and answers the payment URL in `message`',
        params: ZOrderParams,
        body: ZCreateOrderRequest,
        response: { 201: ZCreateOrderResponse, 409: z.union([ZCartConflict, ZError]) },
      },
    },
    async (req, reply) => {
      try {
        const answer = await service.createOrder({
          deps,
          hostTenant: req.ctx.hostTenant,
          host: req.ctx.host,
          tenantId: req.params.tenantId,
          eventId: req.params.eventId,
          input: req.body,
          userId: req.ctx.user?.id ?? null,
        });
        return reply.status(201).send(answer);
      } catch (err) {
        if (!(err instanceof service.CartConflictError)) throw err;
        const v = err.validation;
        return reply.status(409).send({
          error: { code: err.code, message: err.message },
          title: v.title ?? err.message,
          problems: v.problems,
          blockReason: v.blockReason,
          remainingCapacity: v.remainingCapacity,
        });
      }
    },
  );

  r.get(
    '/api/p/orders/:orderUID',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags,
        summary: "The success page's order: 'processing' until paid; needs the token answered at creation",
        params: z.object({ orderUID: z.string().max(40) }),
        querystring: z.object({ token: z.string().max(200).default('') }),
        response: { 200: ZPublicOrder },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return service.getPublicOrder({ deps, hostTenant: req.ctx.hostTenant, orderUid: req.params.orderUID, token: req.query.token });
    },
  );
}
