import {
  M,
  ZCreateSiteTemplateRequest,
  ZSiteTemplate,
  ZSiteTemplateFetch,
  ZSiteTemplateList,
  ZSiteTemplateSaved,
  ZSiteTemplateVersions,
  ZSuccess,
  ZThumbnailGrant,
  ZThumbnailRequest,
  ZUpdateSiteTemplateRequest,
} from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { Access } from '../../platform/auth/context.js';
import { AppError } from '../../platform/errors.js';
import { PLATFORM_READ, PLATFORM_WRITE } from '../tenants/access.js';
import * as templates from './service.js';

const ZTemplateParams = z.object({ templateId: z.uuid() });
const tags = ['site templates'];
const platformRead: Access = { kind: 'platform', roles: PLATFORM_READ };
const platformWrite: Access = { kind: 'platform', roles: PLATFORM_WRITE };
/** The page builder picks from the templates: whoever may edit an event's page (tenant admins, event managers), and platform readers. */
const tenantPick: Access = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_READ, anyEventRoles: ['event_manager'] };

/** Raw bodies a postUrl takes; the bytes decide what they are, not this header. */
const UPLOAD_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** spec: accounts-admin-fees §2 screen 18, §7 templates. */
export function registerTemplateRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/site/templates',
    { config: { access: platformRead }, schema: { tags, summary: 'Templates: filters on details.name (contains), details.description (contains)', response: { 200: ZSiteTemplateList } } },
    async (req) => templates.listTemplates({ deps, query: req.query }),
  );

  r.get(
    '/api/tenants/:tenantId/site-templates',
    {
      config: { access: tenantPick },
      schema: { tags, summary: 'The templates an event page can start from (those with a zip)', params: z.object({ tenantId: z.string() }), response: { 200: ZSiteTemplateList } },
    },
    async (req) => templates.listTemplates({ deps, query: req.query, withZipOnly: true }),
  );

  r.get(
    '/api/site/templates/:templateId',
    { config: { access: platformRead }, schema: { tags, params: ZTemplateParams, response: { 200: ZSiteTemplate } } },
    async (req) => templates.getTemplate({ deps, templateId: req.params.templateId }),
  );

  r.post(
    '/api/site/templates',
    {
      config: { access: platformWrite },
      schema: { tags, summary: 'Create with siteTemplateRequest; answers the id and the postUrl to PUT the zip to', body: ZCreateSiteTemplateRequest, response: { 201: ZSiteTemplateSaved } },
    },
    async (req, reply) => reply.status(201).send(await templates.createTemplate({ deps, input: req.body.siteTemplateRequest })),
  );

  r.put(
    '/api/site/templates',
    {
      config: { access: platformWrite },
      schema: {
        tags,
        summary: 'Update with siteTemplateRequest{templateId, …}; a zip PUT to the answered postUrl raises the version by one',
        body: ZUpdateSiteTemplateRequest,
        response: { 200: ZSiteTemplateSaved },
      },
    },
    async (req) => {
      const { templateId, ...input } = req.body.siteTemplateRequest;
      return templates.updateTemplate({ deps, templateId, input });
    },
  );

  r.post(
    '/api/site/templates/:templateId/thumbnail',
    {
      config: { access: platformWrite },
      schema: { tags, summary: 'Thumbnail upload: takes {mimeType}, answers the postUrl to PUT the image (<= 20 MB) to', params: ZTemplateParams, body: ZThumbnailRequest, response: { 200: ZThumbnailGrant } },
    },
    async (req) => templates.grantThumbnailUpload({ deps, templateId: req.params.templateId, mimeType: req.body.mimeType }),
  );

  r.get(
    '/api/site/templates/:templateId/versions',
    { config: { access: platformRead }, schema: { tags, summary: 'Every accepted zip, newest first', params: ZTemplateParams, response: { 200: ZSiteTemplateVersions } } },
    async (req) => templates.listVersions({ deps, templateId: req.params.templateId }),
  );

  r.get(
    '/api/site/templates/:templateId/:version',
    {
      config: { access: platformRead },
      schema: { tags, summary: 'result[0].fetchUrl downloads that version’s zip (v1, v2, …)', params: ZTemplateParams.extend({ version: z.string().max(20) }), response: { 200: ZSiteTemplateFetch } },
    },
    async (req) => templates.fetchVersion({ deps, templateId: req.params.templateId, version: req.params.version }),
  );

  r.delete(
    '/api/site/templates/:templateId',
    { config: { access: platformWrite }, schema: { tags, summary: 'Delete by id', params: ZTemplateParams, response: { 200: ZSuccess } } },
    async (req) => templates.deleteTemplate({ deps, templateId: req.params.templateId }),
  );

  // The postUrl: signed, short-lived, single use. Its own scope holds the only parser that hands
  // the body over as a stream, so the zip is counted and written as it arrives, never buffered.
  app.register(async (scope) => {
    scope.addContentTypeParser(UPLOAD_TYPES, { bodyLimit: 60 * 1024 * 1024 }, (_req, payload, done) => done(null, payload));
    scope.withTypeProvider<ZodTypeProvider>().put(
      '/api/site/template-uploads/:uploadId',
      {
        config: { access: { kind: 'public' } },
        bodyLimit: 60 * 1024 * 1024,
        schema: {
          tags,
          summary: 'The postUrl: PUT the zip (application/zip) or the thumbnail image',
          params: z.object({ uploadId: z.uuid() }),
          querystring: z.object({ exp: z.string().max(20).optional(), sig: z.string().max(100).optional() }),
          response: { 200: z.object({ success: z.literal(true), version: z.string().nullable() }) },
        },
        onRequest: async (req) => {
          const length = Number(req.headers['content-length']);
          const { uploadId } = req.params as { uploadId: string };
          templates.precheckUpload({ deps, uploadId, query: req.query as { exp?: string; sig?: string }, contentLength: Number.isFinite(length) ? length : null });
        },
      },
      async (req) => {
        const body = req.body as Readable | undefined;
        if (!body || typeof body.pipe !== 'function') throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.fileTypeNotAccepted);
        return templates.receiveUpload({ deps, uploadId: req.params.uploadId, query: req.query, body });
      },
    );
  });
}
