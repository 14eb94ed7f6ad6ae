import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TPublicEvent, TSiteContext } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { HostTenant, SiteCtx } from '../../platform/auth/context.js';
import { AppError } from '../../platform/errors.js';
import { servePublicEvent } from '../public-site/service.js';
import { listPublicEvents } from './repository.js';
import { escapeHtml, eventHead, headHtml, jsonForScript, type EventPage } from './seo.js';

// The attendee site's pages as HTML with their head (title, description, canonical, Open Graph,
// Twitter card, schema.org Event) and the data the app starts from inline, so the first paint asks
// the API nothing (issue 13 "Server-rendered event pages"). The event comes from the same per-event
// snapshot as GET /api/p/events/{name}.

/** What the web app reads from <script id="mq-boot"> instead of asking /api/site/context and the event. */
export type Boot = { context: TSiteContext; event?: TPublicEvent };

type Shell = { html: string; mtimeMs: number; hash: string };
const shells = new Map<string, Shell>();

/** The built index.html, re-read when the build changes it. */
function shellOf(webDist: string): Shell | null {
  const file = path.join(webDist, 'index.html');
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return null;
  }
  const hit = shells.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit;
  const html = readFileSync(file, 'utf8');
  const shell = { html, mtimeMs, hash: createHash('sha1').update(html).digest('base64url').slice(0, 10) };
  shells.set(file, shell);
  return shell;
}

export function originOf(deps: Deps, host: string): string {
  return `${deps.config.publicScheme}://${host}`;
}

function contextOf(deps: Deps, tenant: HostTenant): TSiteContext {
  return { mode: 'tenant', tenant, mailOutbox: !deps.config.smtpUrl } as TSiteContext;
}

function inject(shell: string, head: string, boot: Boot): string {
  const withHead = shell.replace(/<title>[^<]*<\/title>/, head);
  return withHead.replace('<div id="root"></div>', `<div id="root"></div>\n    <script id="mq-boot" type="application/json">${jsonForScript(boot)}</script>`);
}

export type RenderedPage = { status: number; html: string; etag: string | null };

// Rendered pages by the snapshot they were made from: a new snapshot (any change) is a new key, and
// the old one's pages go with it.
const rendered = new WeakMap<object, Map<string, RenderedPage>>();

/**
 * /{eventName}/ and /{eventName}/tickets on a tenant's host. Null when the app is not built (the
 * caller answers as for any other path). An event the public may not see is the app's not-found page, 404.
 */
export async function renderEventPage(opts: { deps: Deps; site: SiteCtx; host: string; eventName: string; page: EventPage }): Promise<RenderedPage | null> {
  const { deps, site } = opts;
  const shell = shellOf(deps.config.webDist);
  if (!shell) return null;
  const context = contextOf(deps, site.tenant);
  let snap;
  try {
    snap = await servePublicEvent({ deps, site, eventName: opts.eventName });
  } catch (err) {
    if (err instanceof AppError && err.status === 404) {
      return { status: 404, etag: null, html: inject(shell.html, `<title>${escapeHtml(site.tenant.name)}</title>\n    <meta name="robots" content="noindex">`, { context }) };
    }
    throw err;
  }
  let pages = rendered.get(snap);
  if (!pages) rendered.set(snap, (pages = new Map()));
  const key = `${shell.hash} ${opts.page} ${opts.host} ${site.tenant.name}`;
  const hit = pages.get(key);
  if (hit) return hit;
  const origin = originOf(deps, opts.host);
  const head = headHtml(eventHead(snap.value, { origin, organizer: site.tenant.name, page: opts.page }), site.tenant.name);
  const html = inject(shell.html, head, { context, event: snap.value });
  const page = { status: 200, html, etag: `"${snap.etag.slice(1, -1)}-${shell.hash}-${opts.page}"` };
  if (pages.size < 50) pages.set(key, page);
  return page;
}

const xml = (s: string) => escapeHtml(s);

/** robots.txt: a tenant's host lets crawlers read its event pages and names its sitemap; the platform host is not for search. */
export function robotsTxt(opts: { origin: string; tenant: HostTenant | null }): string {
  if (!opts.tenant) return 'User-agent: *\nDisallow: /\n';
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', '', `Sitemap: ${opts.origin}/sitemap.xml`, ''].join('\n');
}

/** sitemap.xml: the tenant's public event pages and their ticket menus. */
export async function sitemapXml(opts: { deps: Deps; tenant: HostTenant; origin: string }): Promise<string> {
  const rows = await listPublicEvents(opts.deps.db, opts.tenant.id);
  const urls = rows.flatMap((r) => {
    const lastmod = `<lastmod>${r.updatedAt.toISOString()}</lastmod>`;
    const home = `  <url><loc>${xml(`${opts.origin}/${r.urlName}/`)}</loc>${lastmod}</url>`;
    return r.status === 'published' ? [home, `  <url><loc>${xml(`${opts.origin}/${r.urlName}/tickets`)}</loc>${lastmod}</url>`] : [home];
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}
