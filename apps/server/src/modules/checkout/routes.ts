import { ZCartConflict, ZCreateOrderRequest, ZCreateOrderResponse, ZError, ZHoldCartRequest, ZHoldCartResponse } from '@marquee/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { createInFlightLimit } from '../../platform/in-flight.js';
import { discountCodeLimit, field } from './code-limit.js';
import { holdCart } from './hold-cart.js';
import { placeAppOrder } from './place-app-order.js';
import { createOrder } from './place-order.js';
import { assertAdmitted } from '../waiting-room/service.js';
import { waitingRoomTokens } from '../waiting-room/visitor-token.js';

const ZOrderParams = z.object({ tenantId: z.string().max(100), eventId: z.uuid() });

/** PLACE ORDER (spec reports-payouts-checkout §7 Create order). */
export function registerCheckoutRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // PLACE ORDER holds tickets and opens a payment session: a cap per client address, high enough
  // for a family or an office behind one NAT, keeps one client from holding a sale's stock hostage.
  const ordersPerAddress = {
    max: deps.config.rateLimitOrdersPerMinute,
    timeWindow: 60_000,
    keyGenerator: (req: FastifyRequest) => `${req.routeOptions.url}|${req.ip}`,
  };
  const codeLimit = discountCodeLimit(deps, (body) => field(field(body, 'order'), 'discountCode'));
  // Issue 26 (reads4): the routes that take tickets share one limit of ORDERS_IN_FLIGHT past their
  // first checks (the guard and the per-address cap, onRequest); the others wait their turn before
  // their body is parsed, so that a rush's orders do not fill every turn of the event loop.
  const limit = deps.config.ordersInFlight > 0 ? createInFlightLimit(deps.config.ordersInFlight) : null;
  const inFlight = limit ? { preParsing: limit.preParsing } : {};
  if (limit) {
    deps.metrics.gauge('marquee_orders_running', 'Orders and checkout holds past their first checks on this node now (at most ORDERS_IN_FLIGHT).', () => limit.stats().running);
    deps.metrics.gauge('marquee_orders_waiting', 'Orders and checkout holds waiting for their turn on this node (ORDERS_IN_FLIGHT running).', () => limit.stats().waiting);
  }

  r.post(
    '/api/p/tenants/:tenantId/events/:eventId/orders',
    {
      config: { access: { kind: 'site' }, rateLimit: ordersPerAddress, countsHolds: true },
      ...inFlight,
      ...codeLimit,
      // The answers are built here to their schemas (kept below for the API document): written as
      // they are, without checking them again with zod on the way out (bench/README.md "Flash sale").
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        tags: ['checkout'],
        summary: 'PLACE ORDER: holds the tickets and answers the payment URL in `message`',
        params: ZOrderParams,
        body: ZCreateOrderRequest,
        response: { 201: ZCreateOrderResponse, 409: z.union([ZCartConflict, ZError]) },
      },
    },
    async (req, reply) => {
      const site = siteCtxOf(req);
      const admission = await assertAdmitted({ deps, tenantId: site.tenant.id, eventId: req.params.eventId, tokens: waitingRoomTokens(req, req.params.eventId) });
      const answer = await createOrder({
        deps,
        site,
        host: req.ctx.host,
        eventId: req.params.eventId,
        input: req.body,
        admission,
      });
      return reply.status(201).send(answer);
    },
  );

  // Issue 21.8: the checkout holds the cart when it opens. The same cap per client address and the
  // same waiting-room admission as PLACE ORDER: it takes tickets exactly as PLACE ORDER does.
  r.post(
    '/api/p/tenants/:tenantId/events/:eventId/holds',
    {
      config: { access: { kind: 'site' }, rateLimit: ordersPerAddress, countsHolds: true },
      ...inFlight,
      schema: {
        tags: ['checkout'],
        summary: 'Holds the cart’s tickets while the buyer fills in the checkout (PLACE ORDER then takes its place)',
        params: ZOrderParams,
        body: ZHoldCartRequest,
        response: { 201: ZHoldCartResponse, 409: z.union([ZCartConflict, ZError]) },
      },
    },
    async (req, reply) => {
      const site = siteCtxOf(req);
      const admission = await assertAdmitted({ deps, tenantId: site.tenant.id, eventId: req.params.eventId, tokens: waitingRoomTokens(req, req.params.eventId) });
      return reply.status(201).send(await holdCart({ deps, site, eventId: req.params.eventId, input: req.body, admission }));
    },
  );

  // Issue 25, the APP channel: PLACE ORDER for an app, with an API key holding `orders:write` (or a
  // tenant admin's session); the order is sold on channel APP. docs/api.md walks through it.
  r.post(
    '/api/tenants/:tenantId/events/:eventId/app-orders',
    {
      config: { access: { kind: 'tenant', roles: ['tenant_admin'], platformRoles: [] }, countsHolds: true },
      ...inFlight,
      ...codeLimit,
      schema: {
        tags: ['checkout'],
        summary: 'PLACE ORDER from an app (channel APP): holds the tickets and answers the payment URL in `message`, where the buyer pays',
        params: z.object({ tenantId: z.string(), eventId: z.uuid() }),
        body: ZCreateOrderRequest,
        response: { 201: ZCreateOrderResponse, 409: z.union([ZCartConflict, ZError]) },
      },
    },
    async (req, reply) => reply.status(201).send(await placeAppOrder({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body })),
  );
}
