import { createHash } from 'node:crypto';
import { PLATFORM_WRITE, ZEmbedSettings, ZEmbedSettingsAnswer, ZEmbedSettingsRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { embedOriginsOf } from './allowed-origins.js';
import { appDocument, embedCsp, embedDocument } from './embed-page.js';
import { getEmbedSettings } from './get-embed-settings.js';
import { updateEmbedSettings } from './update-embed-settings.js';
import { WIDGET_JS } from './widget-script.js';

const tags = ['embed'];
const WIDGET_ETAG = `"${createHash('sha256').update(WIDGET_JS).digest('base64url').slice(0, 16)}"`;

/** Issue 28: selling on the organiser's website (docs/embed.md). */
export function registerEmbedRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_WRITE } } as const;
  const params = z.object({ tenantId: z.string() });
  r.get(
    '/api/tenants/:tenantId/embed-settings',
    { config, schema: { tags, summary: 'The websites allowed to embed the tenant’s events', params, response: { 200: ZEmbedSettings } } },
    async (req) => getEmbedSettings({ deps, ctx: tenantCtxOf(req) }),
  );
  r.put(
    '/api/tenants/:tenantId/embed-settings',
    {
      config,
      schema: { tags, summary: 'Replaces the websites allowed to embed the tenant’s events', params, body: ZEmbedSettingsRequest, response: { 200: ZEmbedSettingsAnswer } },
    },
    async (req) => updateEmbedSettings({ deps, ctx: tenantCtxOf(req), input: req.body }),
  );

  // The snippet's script: the same for every tenant, cached by browsers and proxies for an hour,
  // and loadable from any website (Cross-Origin-Resource-Policy: cross-origin).
  app.get('/widget.js', { config: { access: { kind: 'public' } }, schema: { hide: true } }, async (req, reply) => {
    reply.header('cross-origin-resource-policy', 'cross-origin').header('cache-control', 'public, max-age=3600').header('etag', WIDGET_ETAG);
    if (req.headers['if-none-match'] === WIDGET_ETAG) return reply.status(304).send();
    return reply.type('text/javascript; charset=utf-8').send(WIDGET_JS);
  });

  // The embeddable pages: the app's document, framable by the tenant's websites only.
  const page = async (req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    const html = await appDocument(deps.config.webDist);
    if (!html) return reply.callNotFound();
    const origins = await embedOriginsOf(deps.db, siteCtxOf(req).tenant.id);
    const csp = String(reply.getHeader('content-security-policy') ?? '');
    reply.removeHeader('x-frame-options');
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', embedCsp(csp, origins))
      .header('cache-control', 'no-cache')
      .send(embedDocument(html, origins));
  };
  const pageOpts = { config: { access: { kind: 'site', offSite: 'app' } as const }, schema: { hide: true } };
  app.get('/embed/:eventName', pageOpts, page);
  app.get('/embed/:eventName/*', pageOpts, page);
}
