import { ZCreateDiscountCodeRequest, ZDiscountCode, ZDiscountCodeList, ZSuccess, ZUpdateDiscountCodeRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
import { EVENT_READ, EVENT_WRITE } from '../events/access.js';
import * as service from './service.js';

const ZEventParams = z.object({ tenantId: z.string(), eventId: z.uuid() });
const ZCodeParams = ZEventParams.extend({ discountCodeId: z.uuid() });

/** An event's discount codes: percentage or amount, usage limit, validity window, ticket types. */
export function registerDiscountRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['discount codes'];
  const base = '/api/tenants/:tenantId/events/:eventId/discount-codes';

  r.get(
    base,
    { config: { access: EVENT_READ }, schema: { tags, params: ZEventParams, response: { 200: ZDiscountCodeList } } },
    async (req) => service.listDiscountCodes({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, query: req.query }),
  );

  r.post(
    base,
    { config: { access: EVENT_WRITE }, schema: { tags, params: ZEventParams, body: ZCreateDiscountCodeRequest, response: { 201: ZDiscountCode } } },
    async (req, reply) =>
      reply.status(201).send(await service.createDiscountCode({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body.details })),
  );

  r.get(
    `${base}/:discountCodeId`,
    { config: { access: EVENT_READ }, schema: { tags, params: ZCodeParams, response: { 200: ZDiscountCode } } },
    async (req) => service.getDiscountCode({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, discountCodeId: req.params.discountCodeId }),
  );

  r.patch(
    `${base}/:discountCodeId`,
    { config: { access: EVENT_WRITE }, schema: { tags, params: ZCodeParams, body: ZUpdateDiscountCodeRequest, response: { 200: ZDiscountCode } } },
    async (req) =>
      service.updateDiscountCode({
        deps,
        ctx: tenantCtxOf(req),
        eventId: req.params.eventId,
        discountCodeId: req.params.discountCodeId,
        changes: req.body.details,
      }),
  );

  r.delete(
    `${base}/:discountCodeId`,
    { config: { access: EVENT_WRITE }, schema: { tags, params: ZCodeParams, response: { 200: ZSuccess } } },
    async (req) => service.deleteDiscountCode({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, discountCodeId: req.params.discountCodeId }),
  );
}
