import {
  ZEventSeating,
  ZEventSeatingInput,
  ZSeatHold,
  ZSeatHoldRelease,
  ZSeatHoldRequest,
  ZSeatMap,
  ZSeatStates,
  ZSuccess,
  ZVenueLayout,
  ZVenueLayoutInput,
  ZVenueLayoutList,
} from '@marquee/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gzipSync } from 'node:zlib';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { EVENT_READ, EVENT_WRITE, EVENTS_READ, EVENTS_WRITE } from '../events/access.js';
import { clearEventSeating, getEventSeating, setEventSeating } from './event-seating.js';
import { holdSeats, releaseSeats } from './hold-seats.js';
import { createLayout, deleteLayout, getLayout, listLayouts, updateLayout } from './layouts.js';
import { registerSeatHoldJobs } from './seat-hold-jobs.js';
import { readSeatMap, readSeatStates } from './seat-map.js';
import { readSeatPreview } from './seat-preview.js';

const tags = ['seating'];
const ZTenantParams = z.object({ tenantId: z.string() });
const ZLayoutParams = ZTenantParams.extend({ layoutId: z.uuid() });
const ZEventParams = z.object({ tenantId: z.string(), eventId: z.uuid() });
const ZSiteParams = z.object({ tenantId: z.string().max(100), eventId: z.uuid() });
const ZHoldParams = ZSiteParams.extend({ holdId: z.uuid() });

/** Issue 27: venue layouts (console), an event's seating (console), the seat map and seat holds (attendee site). */
export function registerSeatingRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerSeatHoldJobs(app, deps);

  const layouts = '/api/tenants/:tenantId/venue-layouts';
  r.get(layouts, { config: { access: EVENTS_READ }, schema: { tags, summary: "The tenant's venue layouts", params: ZTenantParams, response: { 200: ZVenueLayoutList } } }, async (req) =>
    listLayouts({ deps, ctx: tenantCtxOf(req) }),
  );
  r.post(
    layouts,
    { config: { access: EVENTS_WRITE }, schema: { tags, summary: 'Creates a venue layout from its sections’ grids', params: ZTenantParams, body: ZVenueLayoutInput, response: { 201: ZVenueLayout } } },
    async (req, reply) => reply.status(201).send(await createLayout({ deps, ctx: tenantCtxOf(req), input: req.body })),
  );
  r.get(`${layouts}/:layoutId`, { config: { access: EVENTS_READ }, schema: { tags, params: ZLayoutParams, response: { 200: ZVenueLayout } } }, async (req) =>
    getLayout({ deps, ctx: tenantCtxOf(req), layoutId: req.params.layoutId }),
  );
  r.put(
    `${layouts}/:layoutId`,
    {
      config: { access: EVENTS_WRITE },
      schema: { tags, summary: 'Saves the whole layout (events that copied it keep their seats)', params: ZLayoutParams, body: ZVenueLayoutInput, response: { 200: ZVenueLayout } },
    },
    async (req) => updateLayout({ deps, ctx: tenantCtxOf(req), layoutId: req.params.layoutId, input: req.body }),
  );
  r.delete(`${layouts}/:layoutId`, { config: { access: EVENTS_WRITE }, schema: { tags, params: ZLayoutParams, response: { 200: ZSuccess } } }, async (req) =>
    deleteLayout({ deps, ctx: tenantCtxOf(req), layoutId: req.params.layoutId }),
  );

  const seating = '/api/tenants/:tenantId/events/:eventId/seating';
  r.get(seating, { config: { access: EVENT_READ }, schema: { tags, params: ZEventParams, response: { 200: ZEventSeating } } }, async (req) =>
    getEventSeating({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );
  r.put(
    seating,
    {
      config: { access: EVENT_WRITE },
      schema: { tags, summary: 'The event sells seats: copies the layout, each category selling as a ticket type (refused once a seat is held or sold)', params: ZEventParams, body: ZEventSeatingInput, response: { 200: ZEventSeating } },
    },
    async (req) => setEventSeating({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body }),
  );
  r.delete(seating, { config: { access: EVENT_WRITE }, schema: { tags, summary: 'Back to general admission (refused once a seat is held or sold)', params: ZEventParams, response: { 200: ZEventSeating } } }, async (req) =>
    clearEventSeating({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  // The attendee site. The plan is cached by the browser until the seating changes (its version);
  // the states are polled with If-None-Match.
  const site = '/api/p/tenants/:tenantId/events/:eventId';
  r.get(`${site}/seat-map`, { config: { access: { kind: 'site' } }, schema: { tags, params: ZSiteParams, response: { 200: ZSeatMap } } }, async (req, reply) => {
    const map = await readSeatMap({ deps, tenantId: siteCtxOf(req).tenant.id, eventId: req.params.eventId });
    return etagged(req, reply, `"m${map.version}"`, map);
  });
  r.get(`${site}/seat-states`, { config: { access: { kind: 'site' } }, schema: { tags, params: ZSiteParams, response: { 200: ZSeatStates } } }, async (req, reply) => {
    const states = await readSeatStates({ deps, tenantId: siteCtxOf(req).tenant.id, eventId: req.params.eventId });
    return etagged(req, reply, `"s${states.version}"`, states);
  });
  // Issue 27 (paint): the map as a small image of the seats' states now (the ticket menu shows it until the interactive map paints).
  r.get(
    `${site}/seat-preview.png`,
    { config: { access: { kind: 'site' } }, schema: { tags, summary: "The seat map's preview: a PNG of every seat in its state's colour", params: ZSiteParams } },
    async (req, reply) => {
      const preview = await readSeatPreview({ deps, tenantId: siteCtxOf(req).tenant.id, eventId: req.params.eventId });
      reply.header('ETag', preview.etag).header('Cache-Control', 'no-cache');
      if (req.headers['if-none-match'] === preview.etag) return reply.status(304).send();
      return reply.type('image/png').send(preview.png);
    },
  );
  const perAddress = { max: deps.config.rateLimitOrdersPerMinute, timeWindow: 60_000, keyGenerator: (req: FastifyRequest) => `${req.routeOptions.url}|${req.ip}` };
  r.post(
    `${site}/seat-holds`,
    {
      config: { access: { kind: 'site' }, rateLimit: perAddress },
      schema: { tags, summary: 'Holds seats picked on the map, or the best N together of a ticket type, for the checkout', params: ZSiteParams, body: ZSeatHoldRequest, response: { 201: ZSeatHold } },
    },
    async (req, reply) => reply.status(201).send(await holdSeats({ deps, tenantId: siteCtxOf(req).tenant.id, eventId: req.params.eventId, input: req.body })),
  );
  r.post(
    `${site}/seat-holds/:holdId/release`,
    { config: { access: { kind: 'site' } }, schema: { tags, summary: 'Gives the held seats back', params: ZHoldParams, body: ZSeatHoldRelease, response: { 200: ZSuccess } } },
    async (req) => releaseSeats({ deps, site: siteCtxOf(req), eventId: req.params.eventId, holdId: req.params.holdId, token: req.body.token }),
  );
}

/** gzip forms of the plans and states answered lately, by path and ETag (a 20,000-seat plan is ~540 KB of JSON, ~60 KB gzipped). */
const gzipped = new Map<string, Buffer>();
const GZIPPED_KEPT = 64;

function etagged<T>(req: FastifyRequest, reply: import('fastify').FastifyReply, etag: string, body: T) {
  reply.header('ETag', etag).header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding');
  if (req.headers['if-none-match'] === etag) return reply.status(304).send();
  // Issue 27 (Lighthouse): the plan and the states go compressed to a browser that accepts gzip,
  // compressed once per version (each answer's shape is the schema's: plain JSON of the same object).
  if (!/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return body;
  const key = `${req.url.split('?')[0]}|${etag}`;
  let packed = gzipped.get(key);
  if (!packed) {
    packed = gzipSync(JSON.stringify(body), { level: 6 });
    if (gzipped.size >= GZIPPED_KEPT) gzipped.delete(gzipped.keys().next().value!);
    gzipped.set(key, packed);
  }
  return reply.header('Content-Encoding', 'gzip').type('application/json; charset=utf-8').send(packed);
}
