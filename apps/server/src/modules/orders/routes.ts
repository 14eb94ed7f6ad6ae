import { ZPublicOrder } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf } from '../../platform/auth/guard.js';
import { registerHoldJobs } from './holds.js';
import { getPublicOrder } from './public-order.js';
import { registerReconcileJobs } from './reconcile.js';

/** An order's life after PLACE ORDER: the jobs that keep holds honest, and the success page's read. */
export function registerOrderRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerHoldJobs(deps);
  registerReconcileJobs(app, deps);

  r.get(
    '/api/p/orders/:orderUID',
    {
      config: { access: { kind: 'site' } },
      schema: {
        tags: ['checkout'],
        summary: "The success page's order: 'processing' until paid; needs the token answered at creation",
        params: z.object({ orderUID: z.string().max(40) }),
        querystring: z.object({ token: z.string().max(200).default('') }),
        response: { 200: ZPublicOrder },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return getPublicOrder({ deps, site: siteCtxOf(req), orderUid: req.params.orderUID, token: req.query.token });
    },
  );
}
