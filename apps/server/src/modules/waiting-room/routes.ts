import { WAITING_ROOM_HEADER, ZWaitingRoomPlace, ZWaitingRoomSettings, ZWaitingRoomSettingsResponse, waitingRoomCookie } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { EVENT_READ, EVENT_WRITE } from '../events/access.js';
import * as service from './service.js';
import { waitingRoomToken } from './visitor-token.js';

const ZEventParams = z.object({ tenantId: z.string().max(100), eventId: z.uuid() });
const tags = ['waiting-room'];

/** The optional waiting room of an event's on-sale (issue 13). */
export function registerWaitingRoomRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/tenants/:tenantId/events/:eventId/waiting-room',
    { config: { access: EVENT_READ }, schema: { tags, summary: "The event's waiting room settings (null when never set)", params: ZEventParams, response: { 200: ZWaitingRoomSettingsResponse } } },
    async (req) => service.getWaitingRoom({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.put(
    '/api/tenants/:tenantId/events/:eventId/waiting-room',
    {
      config: { access: EVENT_WRITE },
      schema: { tags, summary: 'Turns the waiting room on or off, with its opening time and admissions per minute', params: ZEventParams, body: ZWaitingRoomSettings, response: { 200: ZWaitingRoomSettingsResponse } },
    },
    async (req) => service.setWaitingRoom({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, settings: req.body }),
  );

  r.post(
    '/api/p/tenants/:tenantId/events/:eventId/waiting-room',
    {
      config: { access: { kind: 'site' } },
      schema: {
        tags,
        summary: 'Joins the line (or answers the place held, from the cookie or x-waiting-room header): position, estimate, admitted',
        params: ZEventParams,
        response: { 200: ZWaitingRoomPlace },
      },
    },
    async (req, reply) => {
      const { eventId } = req.params;
      const { place, token } = await service.enterWaitingRoom({ deps, tenantId: siteCtxOf(req).tenant.id, eventId, token: waitingRoomToken(req, eventId), address: req.ip });
      if (token) {
        reply.setCookie(waitingRoomCookie(eventId), token, { path: '/', httpOnly: true, sameSite: 'lax', maxAge: 2 * 24 * 3600, secure: deps.config.publicScheme === 'https' });
        reply.header(WAITING_ROOM_HEADER, token);
      }
      return place;
    },
  );
}
