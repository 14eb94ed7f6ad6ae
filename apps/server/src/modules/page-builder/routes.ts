import { ZEventPage, ZEventPageDraft, ZEventPageRollback, ZEventPageStart } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { EVENT_READ, EVENT_WRITE } from '../events/access.js';
import * as pages from './service.js';

const ZParams = z.object({ tenantId: z.string(), eventId: z.uuid() });
const tags = ['event pages'];

/** The event page builder's API (issue 10) and the published page on the attendee site. */
export function registerPageBuilderRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/tenants/:tenantId/events/:eventId/page';

  r.get(base, { config: { access: EVENT_READ }, schema: { tags, summary: 'The event page: draft, live version, published versions', params: ZParams, response: { 200: ZEventPage } } }, async (req) =>
    pages.getEventPage({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.post(
    `${base}/start`,
    { config: { access: EVENT_WRITE }, schema: { tags, summary: 'Start the draft from a template', params: ZParams, body: ZEventPageStart, response: { 200: ZEventPage } } },
    async (req) => pages.startEventPage({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, templateId: req.body.templateId }),
  );

  r.put(
    `${base}/draft`,
    {
      config: { access: EVENT_WRITE },
      bodyLimit: 8 * 1024 * 1024,
      schema: { tags, summary: 'Autosave the draft (GrapesJS project, HTML, CSS)', params: ZParams, body: ZEventPageDraft, response: { 200: z.object({ draftSavedAt: z.string() }) } },
    },
    async (req) => pages.saveEventPageDraft({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, draft: req.body }),
  );

  r.post(
    `${base}/publish`,
    { config: { access: EVENT_WRITE }, schema: { tags, summary: 'Publish the draft, sanitised, as the next version', params: ZParams, response: { 200: ZEventPage } } },
    async (req) => pages.publishEventPage({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.post(
    `${base}/rollback`,
    { config: { access: EVENT_WRITE }, schema: { tags, summary: 'Put an earlier published version back live', params: ZParams, body: ZEventPageRollback, response: { 200: ZEventPage } } },
    async (req) => pages.rollbackEventPage({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, version: req.body.version }),
  );

  r.post(
    `${base}/unpublish`,
    { config: { access: EVENT_WRITE }, schema: { tags, summary: 'Take the page offline (the default event home shows again)', params: ZParams, response: { 200: ZEventPage } } },
    async (req) => pages.unpublishEventPage({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.get(
    '/api/p/events/:eventName/page',
    {
      config: { access: { kind: 'site' } },
      schema: {
        tags,
        summary: "The event's published page (sanitised HTML and CSS), 404 when it has none",
        params: z.object({ eventName: z.string().min(1).max(100) }),
        response: { 200: z.object({ version: z.number().int(), html: z.string(), css: z.string() }) },
      },
    },
    async (req) => {
      const page = await pages.getPublishedEventPage({ deps, site: siteCtxOf(req), eventName: req.params.eventName });
      if (!page) throw notFound();
      return page;
    },
  );
}
