import {
  ZCheckinCounters,
  ZCheckinManifest,
  ZCheckinScanAnswer,
  ZCheckinScanParams,
  ZCheckinScanRequest,
  ZCheckinSearchQuery,
  ZCheckinSearchResponse,
  ZCheckinSyncRequest,
  ZCheckinSyncResponse,
  ZCheckinUndoRequest,
  ZCheckinUndoResponse,
  type TCheckinScanAnswer,
} from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
import { CHECKIN } from './access.js';
import * as checkin from './service.js';

export { CHECKIN };

// Ids that are not ours answer 404 in the service (like another tenant's), never a 400 that tells them apart.
const ZEventParams = z.object({ tenantId: z.string(), eventId: z.string().max(100) });
const BASE = '/api/tenants/:tenantId/events/:eventId/checkin';

/** Door check-in: the device's ticket list, scans (one, or a queue made offline), undo, search, counters. */
export function registerCheckinRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['checkin'];
  const config = { access: CHECKIN };

  r.get(
    `${BASE}/manifest`,
    { config, schema: { tags, summary: "The event's tickets as the door sees them, the ticket types' counts and the public key that verifies ticket codes", params: ZEventParams, response: { 200: ZCheckinManifest } } },
    async (req) => checkin.getManifest({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.post(
    `${BASE}/scans`,
    {
      config: { ...config, sessionInHandler: true },
      // The answer is built by this module in exactly its schema's shape (TCheckinScanAnswer, checked by
      // the compiler): written as it is, without zod parsing it again at every scan (issue 26). The
      // schema below still documents it.
      serializerCompiler: () => (answer: TCheckinScanAnswer) => JSON.stringify(answer),
      schema: {
        tags,
        summary: 'Scans a ticket code or checks a ticket in by id: admitted, or why not (a refusal is a 200 with its result); the same clientScanId again gives the same answer',
        params: ZEventParams,
        body: ZCheckinScanRequest,
        response: { 200: ZCheckinScanAnswer },
      },
    },
    // The session is read in the scan's own statement (config.sessionInHandler: one round trip a scan).
    async (req) =>
      req.deferredGuard
        ? checkin.scanTicketGuarded({ deps, guard: req.deferredGuard, eventId: req.params.eventId, input: req.body })
        : checkin.scanTicket({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body }),
  );

  r.post(
    `${BASE}/scans/:scanId/undo`,
    { config, schema: { tags, summary: 'Takes back an admission', params: ZCheckinScanParams, body: ZCheckinUndoRequest, response: { 200: ZCheckinUndoResponse } } },
    async (req) => checkin.undoScan({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, scanId: req.params.scanId, deviceId: req.body.deviceId }),
  );

  r.post(
    `${BASE}/sync`,
    {
      config,
      schema: {
        tags,
        summary: "A device's scans made offline, answered in order; a ticket another door admitted first answers already_used",
        params: ZEventParams,
        body: ZCheckinSyncRequest,
        response: { 200: ZCheckinSyncResponse },
      },
    },
    async (req) => checkin.syncScans({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body }),
  );

  r.get(
    `${BASE}/search`,
    { config, schema: { tags, summary: 'Tickets by name, e-mail, Order ID or Ticket ID (at most 20)', params: ZEventParams, querystring: ZCheckinSearchQuery, response: { 200: ZCheckinSearchResponse } } },
    async (req) => checkin.searchTickets({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, q: req.query.q }),
  );

  r.get(
    `${BASE}/counters`,
    { config, schema: { tags, summary: 'Checked in and sold, in all and per ticket type', params: ZEventParams, response: { 200: ZCheckinCounters } } },
    async (req) => checkin.getCounters({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );
}
