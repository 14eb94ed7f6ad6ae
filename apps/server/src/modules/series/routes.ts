import { ZAddSeriesDateRequest, ZCancelSeriesDateRequest, ZCreateSeriesRequest, ZMoveSeriesDateRequest, ZSeries, ZSeriesList, ZSeriesTicketTypeUpdate, ZUpdateSeriesTicketTypeRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { EVENTS_READ, EVENTS_WRITE } from '../events/access.js';
import { TENANT_REPORTS } from '../reports/access.js';
import { addSeriesDate } from './add-date.js';
import { cancelSeriesDate } from './cancel-date.js';
import { createSeries } from './create-series.js';
import { registerDateMovedJob } from './date-moved-mail.js';
import { getSeries, listSeries } from './get-series.js';
import { moveSeriesDate } from './move-date.js';
import { exportSeries, SERIES_EXPORT_KINDS } from './export.js';
import { renderSeriesPage } from './public-page.js';
import { updateSeriesTicketType } from './update-ticket-type.js';

const ZTenantParams = z.object({ tenantId: z.string() });
const ZSeriesParams = z.object({ tenantId: z.string(), seriesId: z.uuid() });
const ZTypeParams = z.object({ tenantId: z.string(), seriesId: z.uuid(), seriesTicketTypeId: z.uuid() });
const ZDateParams = z.object({ tenantId: z.string(), seriesId: z.uuid(), eventId: z.uuid() });
const SERIES_NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Issue 28: event series (docs/decisions.md "Issue 28: event series"). */
export function registerSeriesRoutes(app: FastifyInstance, deps: Deps) {
  registerDateMovedJob(deps);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['series'];

  r.get(
    '/api/tenants/:tenantId/series',
    { config: { access: EVENTS_READ }, schema: { tags, summary: 'The tenant’s event series', params: ZTenantParams, response: { 200: ZSeriesList } } },
    async (req) => listSeries({ deps, ctx: tenantCtxOf(req) }),
  );

  r.post(
    '/api/tenants/:tenantId/series',
    {
      config: { access: EVENTS_WRITE },
      schema: {
        tags,
        summary: 'Creates a series and its dates (a list of dates and/or a weekly rule, optional timed-entry slots); each date is an event with copies of the ticket types',
        params: ZTenantParams,
        body: ZCreateSeriesRequest,
        response: { 201: ZSeries },
      },
    },
    async (req, reply) => reply.status(201).send(await createSeries({ deps, ctx: tenantCtxOf(req), input: req.body.details })),
  );

  r.get(
    '/api/tenants/:tenantId/series/:seriesId',
    { config: { access: EVENTS_READ }, schema: { tags, summary: 'The series with each date’s sold and left, and the whole series’ sums', params: ZSeriesParams, response: { 200: ZSeries } } },
    async (req) => getSeries({ deps, ctx: tenantCtxOf(req), seriesId: req.params.seriesId }),
  );

  r.patch(
    '/api/tenants/:tenantId/series/:seriesId/ticket-types/:seriesTicketTypeId',
    {
      config: { access: EVENTS_WRITE },
      schema: {
        tags,
        summary: 'Changes a series ticket type; each date not cancelled or over whose copy still has the old value follows (a per-date change is kept); `kept` lists the dates whose quantity stayed because they sold more',
        params: ZTypeParams,
        body: ZUpdateSeriesTicketTypeRequest,
        response: { 200: ZSeriesTicketTypeUpdate },
      },
    },
    async (req) => updateSeriesTicketType({ deps, ctx: tenantCtxOf(req), seriesId: req.params.seriesId, ticketTypeId: req.params.seriesTicketTypeId, changes: req.body.details }),
  );

  for (const kind of SERIES_EXPORT_KINDS) {
    r.get(
      `/api/tenants/:tenantId/series/:seriesId/export/${kind}`,
      {
        config: { access: TENANT_REPORTS },
        schema: { tags, summary: `The whole series’ ${kind} as one CSV (the event export’s columns with the date first)`, params: ZSeriesParams, response: { 200: z.any().describe('text/csv') } },
      },
      async (req, reply) => {
        const { body, fileName } = await exportSeries({ deps, ctx: tenantCtxOf(req), seriesId: req.params.seriesId, kind });
        return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`).header('cache-control', 'no-store').send(body);
      },
    );
  }

  r.post(
    '/api/tenants/:tenantId/series/:seriesId/dates',
    { config: { access: EVENTS_WRITE }, schema: { tags, summary: 'Adds one date (or slot) to the series', params: ZSeriesParams, body: ZAddSeriesDateRequest, response: { 201: ZSeries } } },
    async (req, reply) => reply.status(201).send(await addSeriesDate({ deps, ctx: tenantCtxOf(req), seriesId: req.params.seriesId, input: req.body.details })),
  );

  r.post(
    '/api/tenants/:tenantId/series/:seriesId/dates/:eventId/move',
    {
      config: { access: EVENTS_WRITE },
      schema: { tags, summary: 'Moves one date to a new day and time; its buyers are mailed the new time', params: ZDateParams, body: ZMoveSeriesDateRequest, response: { 200: ZSeries } },
    },
    async (req) => moveSeriesDate({ deps, ctx: tenantCtxOf(req), seriesId: req.params.seriesId, eventId: req.params.eventId, input: req.body.details }),
  );

  r.post(
    '/api/tenants/:tenantId/series/:seriesId/dates/:eventId/cancel',
    {
      config: { access: EVENTS_WRITE },
      schema: { tags, summary: 'Cancels one date: only its buyers are refunded and told', params: ZDateParams, body: ZCancelSeriesDateRequest, response: { 200: ZSeries } },
    },
    async (req) => cancelSeriesDate({ deps, ctx: tenantCtxOf(req), seriesId: req.params.seriesId, eventId: req.params.eventId, message: req.body?.message }),
  );

  // The public page, on a tenant's host only (the guard's site rule), like the event pages.
  app.get('/series/:seriesName', { config: { access: { kind: 'site', offSite: 'app' }, sessionless: true }, schema: { hide: true } }, async (req, reply) => {
    const { seriesName } = req.params as { seriesName: string };
    if (!SERIES_NAME_RE.test(seriesName) || seriesName.length > 60) return reply.callNotFound();
    const html = await renderSeriesPage({ deps, site: siteCtxOf(req), urlName: seriesName });
    if (!html) return reply.callNotFound();
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
}
