import { isReservedPath } from '@marquee/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { isHostTenantStaff, siteCtxOf } from '../../platform/auth/guard.js';
import { EVENT_PAGE_CSP, publishedPageFor, withPublishedPage } from '../page-builder/service.js';
import { remember } from '../public-site/fast-path.js';
import { acceptedEncoding, compressedBody, matchesEtag, PUBLIC_READ_CACHE } from '../public-site/snapshots.js';
import type { EventPage } from './seo.js';
import { originOf, renderEventPage, renderPublicEventsPage, robotsTxt, sitemapXml, withSeatPreview } from './service.js';

const EVENT_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/**
 * Server-rendered attendee pages, robots.txt and sitemap.xml on a tenant's host (issue 13). The
 * consoles' paths and the platform host keep the single-page app.
 */
export function registerEventPageRoutes(app: FastifyInstance, deps: Deps) {
  const page = (kind: EventPage) => async (req: FastifyRequest, reply: FastifyReply) => {
    const { eventName } = req.params as { eventName: string };
    if (isReservedPath(eventName.toLowerCase()) || !EVENT_NAME_RE.test(eventName)) {
      // The single-page app's own answer (app.ts's not-found handler), as before these routes.
      return reply.callNotFound();
    }
    const site = siteCtxOf(req);
    const tenant = site.tenant;
    const found = await renderEventPage({
      deps,
      site,
      host: req.ctx.host,
      eventName,
      page: kind,
      published: kind === 'home' ? () => publishedPageFor({ deps, site, eventName }) : undefined,
    });
    if (!found) return reply.callNotFound();
    // Issue 27 (paint): a seated event's map preview shows the seats' states now, so such a page is not remembered.
    const rendered = await withSeatPreview(deps, found.page);
    if (rendered.published) {
      // An organiser's published page (issue 10) replaces the default home, under its strict CSP;
      // rendered in the app when the build has the server renderer, else placed in the shell.
      const html = rendered.html.includes('<div id="root" data-ssr>') ? rendered.html : withPublishedPage(rendered.html, rendered.published);
      return reply.type('text/html; charset=utf-8').header('content-security-policy', EVENT_PAGE_CSP).header('cache-control', 'no-cache').send(html);
    }
    reply.header('vary', 'accept-encoding');
    if (rendered.etag) {
      // A page with the seats' states now (the map's preview) is revalidated by proxies too, not served stale.
      reply.header('etag', rendered.etag).header('cache-control', rendered.seatPreview ? 'no-cache' : PUBLIC_READ_CACHE);
      if (matchesEtag(req.headers['if-none-match'], rendered.etag)) return reply.status(304).send();
    } else {
      reply.header('cache-control', 'no-cache');
    }
    reply.status(rendered.status).type('text/html; charset=utf-8');
    if (rendered.etag && !rendered.seatPreview) remember(deps, req, reply, { tenantId: tenant.id, owner: rendered, etag: rendered.etag, until: found.until });
    const encoding = rendered.etag ? acceptedEncoding(req.headers['accept-encoding']) : null;
    if (!encoding) return reply.send(rendered.html);
    return reply.header('content-encoding', encoding).send(await compressedBody(rendered, encoding));
  };
  // The guard's site rule: these pages exist on a tenant's host; the platform host's paths stay the app's.
  const access = { kind: 'site', offSite: 'app' } as const;
  const siteOpts = { config: { access }, schema: { hide: true } };
  // The event pages are the same for everyone: no session is looked up for them (/events decides by it).
  const pageOpts = { config: { access, sessionless: true }, schema: { hide: true } };
  // robots.txt answers on every host (the platform's forbids crawling); sitemap.xml is a tenant's.
  const anyHost = { config: { access: { kind: 'public' as const } }, schema: { hide: true } };
  app.get('/:eventName', pageOpts, page('home'));
  app.get('/:eventName/', pageOpts, page('home'));
  app.get('/:eventName/tickets', pageOpts, page('tickets'));
  // The cart and checkout judge availability afresh (they refetch); their head and boot data make the first paint.
  app.get('/:eventName/cart', pageOpts, page('cart'));
  app.get('/:eventName/account', pageOpts, page('checkout'));

  // The tenant host's /events is the console's events list for its staff and the organiser's public
  // list of upcoming events for everyone else, and for staff who ask for it (?public; the console
  // links there). docs/decisions.md "/events: the console for staff, the public list otherwise".
  app.get('/events', siteOpts, async (req, reply) => {
    const wantsPublic = Object.hasOwn((req.query ?? {}) as object, 'public');
    if (isHostTenantStaff(req) && !wantsPublic) return reply.callNotFound();
    const html = await renderPublicEventsPage({ deps, site: siteCtxOf(req), host: req.ctx.host });
    if (!html) return reply.callNotFound();
    // One address, two pages: never shared between a signed-in member and a visitor.
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'cookie').send(html);
  });

  app.get('/robots.txt', anyHost, async (req, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robotsTxt({ origin: originOf(deps, req.ctx.host), tenant: req.ctx.hostTenant })),
  );
  app.get('/sitemap.xml', anyHost, async (req, reply) => {
    const tenant = req.ctx.hostTenant;
    if (!tenant) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    const body = await sitemapXml({ deps, tenant, origin: originOf(deps, req.ctx.host) });
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(body);
  });
}
