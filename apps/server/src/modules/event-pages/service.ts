import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TPublicEvent, TPublicEventList, TSiteContext } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { HostTenant, SiteCtx } from '../../platform/auth/context.js';
import { AppError } from '../../platform/errors.js';
import { listUpcomingEvents, servePublicEvent, snapshotUntil } from '../public-site/service.js';
import { listPublicEvents } from './repository.js';
import { escapeHtml, eventHead, eventsHead, headHtml, jsonForScript, type EventPage } from './seo.js';
import { siteRendererFor } from './ssr.js';
import { readSeatPreview, seatPreviewPath } from '../seating/seat-preview.js';

// The attendee site's pages as HTML with their head (title, description, canonical, Open Graph,
// Twitter card, schema.org Event) and the data the app starts from inline, so the first paint asks
// the API nothing (issue 13 "Server-rendered event pages"). The event comes from the same per-event
// snapshot as GET /api/p/events/{name}.

export type PublishedPage = { version: number; html: string; css: string };

/**
 * What the web app reads from <script id="mq-boot"> instead of asking /api/site/context and the
 * event: also the event home's published page (null: none), and for the tenant's public /events
 * page (a console path otherwise) `site` and the list.
 */
export type Boot = { context: TSiteContext; event?: TPublicEvent; page?: PublishedPage | null; site?: true; events?: TPublicEventList };

type Shell = { html: string; mtimeMs: number; hash: string; checkedAt: number };
const shells = new Map<string, Shell>();

/** The built index.html, re-read when the build changes it (looked at at most once a second: a stat per page was a hot spot in a rush, issue 26 reads). */
function shellOf(webDist: string): Shell | null {
  const file = path.join(webDist, 'index.html');
  const known = shells.get(file);
  const now = performance.now();
  if (known && now - known.checkedAt < 1000) return known;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return null;
  }
  if (known && known.mtimeMs === mtimeMs) {
    known.checkedAt = now;
    return known;
  }
  const html = readFileSync(file, 'utf8');
  const shell = { html, mtimeMs, hash: createHash('sha1').update(html).digest('base64url').slice(0, 10), checkedAt: now };
  shells.set(file, shell);
  return shell;
}

export function originOf(deps: Deps, host: string): string {
  return `${deps.config.publicScheme}://${host}`;
}

function contextOf(deps: Deps, tenant: HostTenant): TSiteContext {
  return { mode: 'tenant', tenant: { ...tenant, brandColor: tenant.brandColor ?? null }, mailOutbox: !deps.config.smtpUrl } as TSiteContext;
}

/** The shell with the page's head, and in #root the server-rendered app (marked data-ssr: the client hydrates it), when there is one. */
function inject(shell: string, head: string, boot: Boot, rootHtml?: string): string {
  const withHead = shell.replace(/<title>[^<]*<\/title>/, () => head);
  const root = rootHtml === undefined ? '<div id="root"></div>' : `<div id="root" data-ssr>${rootHtml}</div>`;
  return withHead.replace('<div id="root"></div>', () => `${root}\n    <script id="mq-boot" type="application/json">${jsonForScript(boot)}</script>`);
}

export type RenderedPage = {
  status: number;
  html: string;
  etag: string | null;
  published: PublishedPage | null;
  /** Issue 27 (paint): the page shows a seated event's map preview, whose image (the seats' states now) is placed inline per answer (withSeatPreview). */
  seatPreview?: { tenantId: string; eventId: string; src: string };
};

// Rendered pages by the snapshot's ETag (what they show) and the page: a snapshot re-read with the
// same content keeps its pages; a change is a new ETag. The promise is kept, so a rush that arrives
// as a snapshot changes renders each page once, not once per request.
const rendered = new Map<string, Promise<RenderedPage>>();
const RENDERED_MAX = 1000;

/**
 * /{eventName}/ and /{eventName}/tickets on a tenant's host, rendered by the attendee site's own
 * React components when the build has its server renderer (ssr.ts); /cart and /account (what the
 * browser alone knows, the cart, decides them) and builds without it get the app shell with the
 * head and boot data. Null when the app is not built (the caller answers as for any other path).
 * An event the public may not see is the app's not-found page, 404. `published`: the event home's
 * published page (issue 10), asked for once the event is known.
 */
export async function renderEventPage(opts: {
  deps: Deps;
  site: SiteCtx;
  host: string;
  eventName: string;
  page: EventPage;
  published?: () => Promise<PublishedPage | null>;
}): Promise<{ page: RenderedPage; until: number } | null> {
  const { deps, site } = opts;
  const shell = shellOf(deps.config.webDist);
  if (!shell) return null;
  const context = contextOf(deps, site.tenant);
  let snap;
  try {
    snap = await servePublicEvent({ deps, site, eventName: opts.eventName });
  } catch (err) {
    if (err instanceof AppError && err.status === 404) {
      return { until: -Infinity, page: { status: 404, etag: null, published: null, html: inject(shell.html, `<title>${escapeHtml(site.tenant.name)}</title>\n    <meta name="robots" content="noindex">`, { context }) } };
    }
    throw err;
  }
  const published = (opts.page === 'home' && snap.value.details.status !== 'cancelled' && (await opts.published?.())) || null;
  const key = `${snap.etag} ${shell.hash} ${opts.page} ${opts.host} ${site.tenant.name} ${published?.version ?? '-'}`;
  let page = rendered.get(key);
  if (!page) {
    if (rendered.size >= RENDERED_MAX) rendered.delete(rendered.keys().next().value!);
    page = renderPage({ ...opts, shell, context, event: snap.value, etag: snap.etag, published });
    rendered.set(key, page);
    page.catch(() => rendered.delete(key));
  }
  // The same object each time: its compressed forms are kept with it (routes.ts).
  return { page: await page, until: snapshotUntil(deps, snap) };
}

async function renderPage(opts: {
  deps: Deps;
  site: SiteCtx;
  host: string;
  page: EventPage;
  shell: Shell;
  context: TSiteContext;
  event: TPublicEvent;
  etag: string;
  published: PublishedPage | null;
}): Promise<RenderedPage> {
  const { deps, site, shell, context, published } = opts;
  const origin = originOf(deps, opts.host);
  let head = headHtml(eventHead(opts.event, { origin, organizer: site.tenant.name, page: opts.page }), site.tenant.name);
  const ssrPage = opts.page === 'home' || opts.page === 'tickets' ? opts.page : null;
  const renderer = ssrPage ? await siteRendererFor(deps.config.webDist) : null;
  let html: string;
  if (renderer && ssrPage) {
    const boot: Boot = { context, event: opts.event, ...(ssrPage === 'home' ? { page: published } : {}) };
    const url = `/${opts.event.details.urlName}/${ssrPage === 'tickets' ? 'tickets' : ''}`;
    const root = await renderer.render({ url, context, event: opts.event, page: boot.page });
    head += `\n    ${renderer.headLinks(ssrPage)}`;
    html = inject(shell.html, head, boot, root);
  } else {
    html = inject(shell.html, head, { context, event: opts.event });
  }
  const src = `src="${seatPreviewPath(opts.event.tenantId, opts.event.id)}"`;
  const seatPreview = opts.event.details.seating && html.includes(src) ? { tenantId: opts.event.tenantId, eventId: opts.event.id, src } : undefined;
  return { status: 200, html, published, seatPreview, etag: `"${opts.etag.slice(1, -1)}-${shell.hash}-${opts.page}${published ? `-p${published.version}` : ''}"` };
}

// The pages with a seat map's preview as sent, by the page's and the image's ETags (each keeps its compressed forms).
const withPreviews = new Map<string, RenderedPage>();

/**
 * Issue 27 (paint): a page showing a seated event's map preview with the image of the seats' states
 * now inline (a data: URL), so the map paints with the page, before any script or other request (and
 * without JavaScript). The page's ETag then names the image too. The page itself is unchanged for
 * anything else (the app's <img> would ask the same image by its address).
 */
export async function withSeatPreview(deps: Deps, page: RenderedPage): Promise<RenderedPage> {
  const spot = page.seatPreview;
  if (!spot) return page;
  let preview;
  try {
    preview = await readSeatPreview({ deps, tenantId: spot.tenantId, eventId: spot.eventId });
  } catch (err) {
    // The seating went away since the snapshot: the <img> asks its address (a 404 shows nothing).
    if (err instanceof AppError && err.status === 404) return page;
    throw err;
  }
  const etag = page.etag ? `"${page.etag.slice(1, -1)}-${preview.etag.slice(1, -1)}"` : null;
  const key = `${etag ?? page.html.length}|${preview.etag}`;
  let hit = withPreviews.get(key);
  if (!hit) {
    const html = page.html.replace(spot.src, () => `src="data:image/png;base64,${preview.png.toString('base64')}"`);
    hit = { ...page, html, etag };
    if (withPreviews.size >= RENDERED_MAX) withPreviews.delete(withPreviews.keys().next().value!);
    withPreviews.set(key, hit);
  }
  return hit;
}

/**
 * The tenant host's public /events page (issue 13): the organiser's upcoming events, rendered by
 * the attendee site's component, with its head (an ItemList of the events in JSON-LD). Null when
 * the app is not built.
 */
export async function renderPublicEventsPage(opts: { deps: Deps; site: SiteCtx; host: string }): Promise<string | null> {
  const { deps, site } = opts;
  const shell = shellOf(deps.config.webDist);
  if (!shell) return null;
  const context = contextOf(deps, site.tenant);
  const events = await listUpcomingEvents({ deps, site });
  const origin = originOf(deps, opts.host);
  let head = headHtml(eventsHead(events.result, { origin, organizer: site.tenant.name }), site.tenant.name);
  const boot: Boot = { context, site: true, events };
  const renderer = await siteRendererFor(deps.config.webDist);
  if (!renderer) return inject(shell.html, head, boot);
  const root = await renderer.render({ url: '/events', context, events });
  head += `\n    ${renderer.headLinks('events')}`;
  return inject(shell.html, head, boot, root);
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
