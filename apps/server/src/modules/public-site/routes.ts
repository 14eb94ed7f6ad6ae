import { ZBreakdown, ZCartRequest, ZCartValidation, ZPriceRequest, ZPublicEvent, ZPublicEventSettings } from '@marquee/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { eventPreviewCheck, siteCtxOf } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { routeOf } from '../../platform/request-context.js';
import { discountCodeLimit, field } from '../checkout/code-limit.js';
import * as service from './service.js';
import { remember } from './fast-path.js';
import { acceptedEncoding, compressedBody, matchesEtag, PUBLIC_READ_CACHE } from './snapshots.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Which public snapshots a successful change expires, by the route it went through: the event's under
 * an event's console path (ticket types, edits, publish, cancel, seat map...), every event of the
 * tenant under the tenant's other console paths (fees, charity, settings, new events), every event
 * of every tenant for the platform's fee rules, global settings and charities; null for the rest
 * (the attendee site's holds and orders, payments, accounts, check-in scans).
 */
export function snapshotScopeOf(url: string | undefined, params: unknown): service.SnapshotScope | null {
  if (!url) return null;
  const { tenantId, eventId } = (params ?? {}) as { tenantId?: string; eventId?: string };
  if (url.startsWith('/api/tenants/:tenantId') && tenantId) {
    if (!eventId) return { tenantId };
    return url.includes('/checkin/') ? null : { tenantId, eventId };
  }
  if (url.startsWith('/api/global/') || url.startsWith('/api/platform/charities') || url.startsWith('/api/platform/tenants/rules')) return 'all';
  return null;
}

const ZEventNameParams = z.object({ eventName: z.string().min(1).max(100) });
const ZPreviewQuery = z.object({ preview: z.enum(['1', '0']).optional() });

/** The attendee site's API on the tenant's host (spec reports-payouts-checkout §2, §5, §7). */
export function registerPublicSiteRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['event site'];
  const access = { kind: 'site' } as const;
  // A change that went through this node expires the snapshots of what it touched at once; other
  // nodes see it within PUBLIC_SNAPSHOT_MS. Holds, orders and payments only move remaining counts:
  // those may be that stale (issue 13 "at most about a second"), so an on-sale does not rebuild
  // the snapshot on every order.
  // (Synchronous, in callback style: it runs on every answer of the server. Issue 23 perreq.)
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!MUTATING.has(req.method) || reply.statusCode >= 400) return done(null, payload);
    const route = routeOf(req);
    const scope = snapshotScopeOf(route.url, req.params);
    if (scope) service.expirePublicSnapshots(deps, scope);
    // Issue 26 reads: a hold that leaves none of what the snapshot shows expires it (a sold-out shows at once).
    if (route.config?.countsHolds) {
      const { tenantId, eventId } = (req.params ?? {}) as { tenantId?: string; eventId?: string };
      const lines = (req.body as { lines?: unknown } | undefined)?.lines;
      if (tenantId && eventId && Array.isArray(lines)) service.noteHeld(deps, { tenantId, eventId, lines: lines as Array<{ ticketTypeId: string; quantity: number }> });
    }
    done(null, payload);
  });
  // Cart validation takes no discount code; pricing does, and so answers whether one is valid.
  const codeLimit = discountCodeLimit(deps, (body) => field(body, 'discountCode'));

  r.get(
    '/api/p/events/:eventName',
    {
      config: { access, sessionless: true },
      schema: { tags, summary: 'Event home and ticket menu (?preview=1: a draft, for its staff)', params: ZEventNameParams, querystring: ZPreviewQuery, response: { 200: ZPublicEvent } },
    },
    async (req, typedReply) => {
      const reply = typedReply as unknown as FastifyReply;
      if (req.query.preview === '1') {
        // A draft preview is never cached or shared (issue 15); the public read below is.
        const event = await service.getPublicEvent({ deps, site: siteCtxOf(req), eventName: req.params.eventName, canPreview: eventPreviewCheck(req) });
        if (event.details.status === 'draft') reply.header('cache-control', 'private, no-store');
        return reply.send(event);
      }
      // Answers its own bytes or a 304, not the schema's object (the schema still documents the 200).
      const snap = await service.servePublicEvent({ deps, site: siteCtxOf(req), eventName: req.params.eventName });
      reply.header('etag', snap.etag).header('cache-control', PUBLIC_READ_CACHE).header('vary', 'accept-encoding');
      if (matchesEtag(req.headers['if-none-match'], snap.etag)) return reply.status(304).send();
      // Already JSON (the snapshot's own bytes), compressed once per snapshot: sent as they are.
      reply.type('application/json; charset=utf-8');
      remember(deps, req, reply, { tenantId: siteCtxOf(req).tenant.id, owner: snap, etag: snap.etag, until: service.snapshotUntil(deps, snap) });
      const encoding = acceptedEncoding(req.headers['accept-encoding']);
      if (!encoding) return reply.send(snap.body);
      return reply.header('content-encoding', encoding).send(await compressedBody(snap, encoding));
    },
  );

  r.get(
    '/api/p/events',
    { config: { access }, schema: { tags, summary: "The organiser's upcoming events on sale, soonest first (the public /events page)" } },
    async (_req, reply) => reply.header('cache-control', PUBLIC_READ_CACHE).send(await service.listUpcomingEvents({ deps, site: siteCtxOf(_req) })),
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

  // Not under /api: the event site's own path (spec §7), on a tenant's host only: the seat map's
  // four file names, and the cover image's crops (issue 15), named by upload so cached for good.
  app.get('/:eventName/assets/:file', { config: { access }, schema: { hide: true } }, async (req, reply) => {
    const { eventName, file } = req.params as { eventName: string; file: string };
    const args = { deps, site: siteCtxOf(req), eventName, file, canPreview: eventPreviewCheck(req) };
    const cover = file.startsWith('cover-') ? await service.getCoverImage(args) : null;
    const image = cover ?? (await service.getSeatMapImage(args));
    if (!image) throw notFound();
    const publicCache = cover ? 'public, max-age=31536000, immutable' : 'public, max-age=300';
    return reply
      .type(image.contentType)
      .header('cache-control', image.previewing ? 'private, no-store' : publicCache)
      .header('x-content-type-options', 'nosniff')
      .send(image.bytes);
  });
}
