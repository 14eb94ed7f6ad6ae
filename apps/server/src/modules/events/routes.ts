import { COVER_MAX_BYTES, M, SEATMAP_MAX_BYTES, ZCancelEventRequest, ZCreateEventRequest, ZEvent, ZEventList, ZSuccess, ZUpdateEventRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
import { uploadedFile } from '../../platform/multipart.js';
import { EVENT_LIST_READ, EVENT_READ, EVENT_WRITE, EVENTS_WRITE } from './access.js';
import { changeEventStatus } from './change-event-status.js';
import { createEvent } from './create-event.js';
import { deleteEvent } from './delete-event.js';
import { deleteCoverImage, uploadCoverImage } from './event-cover.js';
import { getEvent } from './get-event.js';
import { listEvents } from './list-events.js';
import { deleteSeatMap, uploadSeatMap } from './seat-map.js';
import { updateEvent } from './update-event.js';

const ZTenantParams = z.object({ tenantId: z.string() });
const ZEventParams = z.object({ tenantId: z.string(), eventId: z.uuid() });

/** The tenant console's events: spec reports-payouts-checkout §7 (event lookups) and issue 4. */
export function registerEventRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['events'];

  r.get(
    '/api/tenants/:tenantId/events',
    {
      config: { access: EVENT_LIST_READ },
      schema: { tags, summary: 'Events of the tenant (for event staff, the events they work on); filters on details.name (contains), details.status, details.urlName', params: ZTenantParams, response: { 200: ZEventList } },
    },
    async (req) => listEvents({ deps, ctx: tenantCtxOf(req), query: req.query }),
  );

  r.post(
    '/api/tenants/:tenantId/events',
    { config: { access: EVENTS_WRITE }, schema: { tags, params: ZTenantParams, body: ZCreateEventRequest, response: { 201: ZEvent } } },
    async (req, reply) => reply.status(201).send(await createEvent({ deps, ctx: tenantCtxOf(req), input: req.body.details })),
  );

  r.get(
    '/api/tenants/:tenantId/events/:eventId',
    { config: { access: EVENT_READ }, schema: { tags, params: ZEventParams, response: { 200: ZEvent } } },
    async (req) => getEvent({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.patch(
    '/api/tenants/:tenantId/events/:eventId',
    { config: { access: EVENT_WRITE }, schema: { tags, params: ZEventParams, body: ZUpdateEventRequest, response: { 200: ZEvent } } },
    async (req) => updateEvent({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, changes: req.body.details }),
  );

  r.delete(
    '/api/tenants/:tenantId/events/:eventId',
    {
      config: { access: EVENTS_WRITE },
      schema: { tags, summary: 'Deletes an event that has no orders (otherwise cancel it)', params: ZEventParams, response: { 200: ZSuccess } },
    },
    async (req) => deleteEvent({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  for (const action of ['publish', 'unpublish'] as const) {
    r.post(
      `/api/tenants/:tenantId/events/:eventId/${action}`,
      { config: { access: EVENT_WRITE }, schema: { tags, params: ZEventParams, response: { 200: ZEvent } } },
      async (req) => changeEventStatus({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, action }),
    );
  }

  r.post(
    '/api/tenants/:tenantId/events/:eventId/cancel',
    {
      config: { access: EVENTS_WRITE },
      schema: {
        tags,
        summary: 'Cancels the event: every paid order is refunded what is left of it and every buyer is told, with the optional message',
        params: ZEventParams,
        body: ZCancelEventRequest,
        response: { 200: ZEvent },
      },
    },
    async (req) => changeEventStatus({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, action: 'cancel', message: req.body?.message }),
  );

  r.post(
    '/api/tenants/:tenantId/events/:eventId/seatmap',
    {
      config: { access: EVENT_WRITE },
      bodyLimit: SEATMAP_MAX_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Seat map image (PNG, JPG or GIF, at most 5 MB), multipart field "file"',
        params: ZEventParams,
        consumes: ['multipart/form-data'],
        response: { 200: ZEvent },
      },
    },
    async (req) => {
      const { bytes, truncated } = await uploadedFile(req, { maxBytes: SEATMAP_MAX_BYTES, typeMessage: M.seatmapType, sizeMessage: M.seatmapSize, notMultipart: 'UNSUPPORTED_MEDIA_TYPE' });
      return uploadSeatMap({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, bytes, truncated });
    },
  );

  r.delete(
    '/api/tenants/:tenantId/events/:eventId/seatmap',
    { config: { access: EVENT_WRITE }, schema: { tags, params: ZEventParams, response: { 200: ZEvent } } },
    async (req) => deleteSeatMap({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.post(
    '/api/tenants/:tenantId/events/:eventId/cover',
    {
      config: { access: EVENT_WRITE },
      bodyLimit: COVER_MAX_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Cover image (JPEG, PNG or WebP, at most 10 MB, at least 800x400), multipart field "file"; cropped for the event page, link previews and tickets',
        params: ZEventParams,
        consumes: ['multipart/form-data'],
        response: { 200: ZEvent },
      },
    },
    async (req) =>
      uploadCoverImage({
        deps,
        ctx: tenantCtxOf(req),
        eventId: req.params.eventId,
        readFile: () => uploadedFile(req, { maxBytes: COVER_MAX_BYTES, typeMessage: M.coverType, sizeMessage: M.coverSize, notMultipart: 'UNSUPPORTED_MEDIA_TYPE' }),
      }),
  );

  r.delete(
    '/api/tenants/:tenantId/events/:eventId/cover',
    { config: { access: EVENT_WRITE }, schema: { tags, params: ZEventParams, response: { 200: ZEvent } } },
    async (req) => deleteCoverImage({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );
}
