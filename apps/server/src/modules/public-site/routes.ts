import { ZBreakdown, ZCartRequest, ZCartValidation, ZPriceRequest, ZPublicEvent, ZPublicEventSettings } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { eventPreviewCheck, siteCtxOf } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { discountCodeLimit, field } from '../checkout/code-limit.js';
import * as service from './service.js';

const ZEventNameParams = z.object({ eventName: z.string().min(1).max(100) });
const ZPreviewQuery = z.object({ preview: z.enum(['1', '0']).optional() });

/** The attendee site's API on the tenant's host (spec reports-payouts-checkout §2, §5, §7). */
export function registerPublicSiteRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['event site'];
  const access = { kind: 'site' } as const;
  // Cart validation takes no discount code; pricing does, and so answers whether one is valid.
  const codeLimit = discountCodeLimit(deps, (body) => field(body, 'discountCode'));

  r.get(
    '/api/p/events/:eventName',
    {
      config: { access },
      schema: { tags, summary: 'Event home and ticket menu (?preview=1: a draft, for its staff)', params: ZEventNameParams, querystring: ZPreviewQuery, response: { 200: ZPublicEvent } },
    },
    async (req, reply) => {
      const preview = req.query.preview === '1';
      const event = await service.getPublicEvent({ deps, site: siteCtxOf(req), eventName: req.params.eventName, canPreview: preview ? eventPreviewCheck(req) : undefined });
      if (event.details.status === 'draft') reply.header('cache-control', 'private, no-store');
      return event;
    },
  );

  r.get(
    '/api/p/tenants/:tenantId/events/:eventId/setting',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Public settings: remainingCapacity, emailDeliveryVerbiage, COVID safety, the charity receiving donations',
        params: z.object({ tenantId: z.string().max(100), eventId: z.uuid() }),
        response: { 200: ZPublicEventSettings },
      },
    },
    async (req) => service.getPublicSettings({ deps, site: siteCtxOf(req), eventId: req.params.eventId }),
  );

  r.post(
    '/api/p/events/:eventName/cart/validate',
    {
      config: { access },
      schema: { tags, summary: 'Cart validation: per-line problems and whether CONTINUE is blocked', params: ZEventNameParams, body: ZCartRequest, response: { 200: ZCartValidation } },
    },
    async (req) => service.validatePublicCart({ deps, site: siteCtxOf(req), eventName: req.params.eventName, lines: req.body.lines }),
  );

  r.post(
    '/api/p/events/:eventName/price',
    {
      config: { access },
      ...codeLimit,
      schema: { tags, summary: "The cart's breakdown, priced by the server (with the donation, if any)", params: ZEventNameParams, body: ZPriceRequest, response: { 200: ZBreakdown } },
    },
    async (req) =>
      service.priceCart({
        deps,
        site: siteCtxOf(req),
        eventName: req.params.eventName,
        lines: req.body.lines,
        discountCode: req.body.discountCode,
        donation: req.body.donation,
      }),
  );

  // Not under /api: the event site's own path (spec §7), on a tenant's host only, four file names only.
  app.get('/:eventName/assets/:file', { config: { access }, schema: { hide: true } }, async (req, reply) => {
    const { eventName, file } = req.params as { eventName: string; file: string };
    const image = await service.getSeatMapImage({ deps, site: siteCtxOf(req), eventName, file, canPreview: eventPreviewCheck(req) });
    if (!image) throw notFound();
    return reply
      .type(image.contentType)
      .header('cache-control', image.previewing ? 'private, no-store' : 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(image.bytes);
  });
}
