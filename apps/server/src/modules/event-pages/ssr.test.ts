import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../../test/actors.js';
import { givenEventOnSale, givenPlatformAdmin, givenTenant, givenUser, startServer, type Client, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { buildZip, GOOD_TEMPLATE_FILES } from '../../../test/fixtures/template-zips.js';

// The attendee site rendered by its own React components on the server (issue 13): the real web
// build (client and server renderer, as `npm run build` makes them) into a scratch directory.
const webRoot = mkdtempSync(path.join(os.tmpdir(), 'marquee-ssr-'));
const webDist = path.join(webRoot, 'dist');

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let event: GivenEventOnSale;
let published: GivenEventOnSale;
let organiser: Client;

beforeAll(async () => {
  const web = path.resolve(import.meta.dirname, '../../../../web');
  const vite = path.join(web, 'node_modules/.bin/vite');
  const bin = (() => {
    try {
      execFileSync(vite, ['--version'], { stdio: 'ignore' });
      return vite;
    } catch {
      return path.resolve(web, '../../node_modules/.bin/vite');
    }
  })();
  execFileSync(bin, ['build', '--outDir', webDist, '--emptyOutDir', '--logLevel', 'error'], { cwd: web, stdio: 'inherit' });
  execFileSync(bin, ['build', '--ssr', 'src/modes/site/ssr-entry.tsx', '--outDir', path.join(webRoot, 'dist-ssr'), '--emptyOutDir', '--logLevel', 'error'], { cwd: web, stdio: 'inherit' });

  server = await startServer({ webDist });
  tenant = await givenTenant(server, { name: 'Harbour Live' });
  other = await givenTenant(server, { name: 'Other Org' });
  event = await givenEventOnSale(server, tenant.id, {
    name: 'Lighthouse Sessions',
    timeZone: 'America/Chicago',
    ticketTypes: [
      { name: 'Standing', price: 2500, quantity: 100 },
      { name: 'Balcony', price: 4750, quantity: 20 },
    ],
  });
  await server.app.deps.db.execute(
    sql`update events set venue_name = 'Pier 9 Hall', city = 'Chicago', description = 'Songs by the water.', start_date_time = '2030-07-04T00:00:00Z', end_date_time = '2030-07-04T04:00:00Z' where id = ${event.id}`,
  );
  published = await givenEventOnSale(server, tenant.id, { name: 'Built Page Night' });
  await server.app.deps.db.execute(sql`update events set start_date_time = '2030-08-01T00:00:00Z' where id = ${published.id}`);

  // An organiser's published page on the second event (issue 10), through the console's own flow.
  const admin = server.client();
  await admin.login((await givenPlatformAdmin(server)).email);
  const created = await admin.post('/api/site/templates', { siteTemplateRequest: { name: 'Base', description: 'For pages' } });
  await server.client().put(created.body.postUrl, await buildZip(GOOD_TEMPLATE_FILES), { 'content-type': 'application/zip' });
  organiser = await signedIn(server, await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } }), tenant.url);
  const pageUrl = `/api/tenants/${tenant.id}/events/${published.id}/page`;
  expect((await organiser.post(`${pageUrl}/start`, { templateId: created.body.id })).status).toBe(200);
  expect((await organiser.put(`${pageUrl}/draft`, { html: '<h1>Our own page</h1><div data-marquee-tickets></div>', css: 'h1{color:teal}', project: '{}' })).status).toBe(200);
  expect((await organiser.post(`${pageUrl}/publish`)).status).toBe(200);

  // Not on the public list: a draft, a past event, a cancelled one, another tenant's.
  await givenEventOnSale(server, tenant.id, { name: 'Secret Draft', status: 'draft' });
  await givenEventOnSale(server, tenant.id, { name: 'Called Off', status: 'cancelled', wasPublished: true });
  const past = await givenEventOnSale(server, tenant.id, { name: 'Last Year Gala' });
  await server.app.deps.db.execute(sql`update events set start_date_time = '2020-01-01T00:00:00Z', end_date_time = '2020-01-01T04:00:00Z' where id = ${past.id}`);
  await givenEventOnSale(server, other.id, { name: 'Not Ours Fest' });
}, 300_000);
afterAll(async () => {
  await server?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const site = () => server.client(tenant.url);
const rootOf = (html: string) => {
  const m = /<div id="root" data-ssr>([\s\S]*?)<\/div>\n\s*<script id="mq-boot"/.exec(html);
  expect(m, 'the page has a server-rendered root').not.toBeNull();
  return m![1]!;
};
const bootOf = (html: string) => JSON.parse(/<script id="mq-boot" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!);

describe('server-rendered event pages', () => {
  it('the event home arrives with its content rendered by the app: title, date, venue, description, prices, and its styles linked', async () => {
    const res = await site().get(`/${event.urlName}/`);
    expect(res.status).toBe(200);
    const html = res.body as string;
    const root = rootOf(html);
    expect(root).toContain('Lighthouse Sessions');
    expect(root).toContain('Wednesday, July 3, 2030');
    expect(root).toContain('7:00 PM CDT');
    expect(root).toContain('Pier 9 Hall');
    expect(root).toContain('Songs by the water.');
    expect(root).toContain('Standing');
    expect(root).toContain('$25.00');
    expect(root).toContain('$47.50');
    expect(root).toContain('data-testid="get-tickets"');
    // The page's own stylesheets and chunks are in the head: styled before any script runs.
    // Issue 27 (paint2): the styles are in the page itself (no request before the first paint), each
    // with a disabled <link> to its file (not fetched; the app's chunk loader finds it and fetches nothing).
    expect(html).toMatch(/<style data-href="\/assets\/event-home-page-[\w-]+\.css">[^]+?<\/style><link rel="stylesheet" crossorigin href="\/assets\/event-home-page-[\w-]+\.css" disabled>/);
    // The site app (src/modes/site/site-app.tsx) is bundled in the `site` chunk (apps/web/vite.config.ts SITE_CHUNKS).
    expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/site-[\w-]{8}\.js">/);
    expect(html).toMatch(/<style data-href="\/assets\/site-[\w-]+\.css">[^]+?<\/style><link rel="stylesheet" crossorigin href="\/assets\/site-[\w-]+\.css" disabled>/);
    expect(html).not.toMatch(/<link rel="stylesheet" crossorigin href="[^"]+">/);
    // The data the app hydrates from, and the head as before.
    const boot = bootOf(html);
    expect(boot.event.details.name).toBe('Lighthouse Sessions');
    expect(boot.page).toBeNull();
    expect(html).toContain('<title>Lighthouse Sessions · Harbour Live</title>');
    expect(html).toContain('"@type":"Event"');
  });

  it('the ticket menu arrives with every ticket type, its price and its quantity buttons', async () => {
    const root = rootOf((await site().get(`/${event.urlName}/tickets`)).body as string);
    expect(root).toContain('data-testid="ticket-type-Standing"');
    expect(root).toContain('data-testid="ticket-type-Balcony"');
    expect(root).toContain('$25.00');
    expect(root).toContain('$47.50');
    expect(root).toContain('data-testid="view-cart"');
    expect(root).toContain('aria-label="Add one Standing"');
  });

  it('an event with a published page shows that page, rendered, with the ticket menu, under the page CSP', async () => {
    const res = await site().get(`/${published.urlName}/`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    const root = rootOf(res.body as string);
    expect(root).toContain('<h1>Our own page</h1>');
    expect(root).toContain('h1{color:teal}');
    expect(root).toContain('data-testid="ticket-type-');
    expect(bootOf(res.body as string).page).toMatchObject({ html: '<h1>Our own page</h1><div data-marquee-tickets></div>' });
  });

  it('the cart and checkout stay client-rendered (the browser alone knows the cart), with their head and boot data', async () => {
    const html = (await site().get(`/${event.urlName}/cart`)).body as string;
    expect(html).toContain('<div id="root"></div>');
    expect(bootOf(html).event.details.name).toBe('Lighthouse Sessions');
  });
});

describe("a seated event's ticket menu (issue 27 paint)", () => {
  it("carries the seat map's preview inline: the seats' states of the moment as a PNG, so the map paints with the page", async () => {
    // Its own tenant (the lists above stay as they are).
    const hall = await givenTenant(server, { name: 'Round Hall' });
    const boss = await signedIn(server, await givenUser(server, { tenant: { id: hall.id, roles: ['tenant_admin'] } }), hall.url);
    const seated = await givenEventOnSale(server, hall.id, { name: 'In The Round', ticketTypes: [{ name: 'Stalls', price: 4000, quantity: 12 }] });
    const layout = await boss.post(`/api/tenants/${hall.id}/venue-layouts`, { name: 'Round', sections: [{ name: 'Stalls', category: 'Stalls', rows: 2, seatsPerRow: 6 }] });
    expect(layout.status).toBe(201);
    expect((await boss.put(`/api/tenants/${hall.id}/events/${seated.id}/seating`, { layoutId: layout.body.id, categories: [{ category: 'Stalls', ticketTypeId: seated.ticketTypeIds[0] }] })).status).toBe(200);
    const visitor = server.client(hall.url);
    const imageOf = (html: string) => {
      const m = /<img[^>]*src="data:image\/png;base64,([A-Za-z0-9+/=]+)"[^>]*elementtiming="mq-seat-map-preview"/.exec(rootOf(html));
      expect(m, 'the ticket menu carries the preview image inline').not.toBeNull();
      return Buffer.from(m![1]!, 'base64');
    };
    const page = await visitor.get(`/${seated.urlName}/tickets`);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(rootOf(page.body as string)).toContain('data-testid="seat-map-preview"');
    expect(bootOf(page.body as string).event.details.seating).toEqual({ version: expect.any(String) });
    // The image inline is the preview route's, byte for byte.
    const route = await visitor.request('GET', `/api/p/tenants/${hall.id}/events/${seated.id}/seat-preview.png`);
    expect(imageOf(page.body as string).equals(route.raw)).toBe(true);
    // A seat taken since: the next page shows it taken, under another ETag (an If-None-Match of the old page is not a 304).
    expect((await visitor.post(`/api/p/tenants/${hall.id}/events/${seated.id}/seat-holds`, { seats: [0, 1] })).status).toBe(201);
    const next = await visitor.request('GET', `/${seated.urlName}/tickets`, undefined, { 'if-none-match': String(page.headers.etag) });
    expect(next.status).toBe(200);
    expect(next.headers.etag).not.toBe(page.headers.etag);
    const taken = await visitor.request('GET', `/api/p/tenants/${hall.id}/events/${seated.id}/seat-preview.png`);
    expect(taken.raw.equals(route.raw)).toBe(false);
    expect(imageOf(next.body as string).equals(taken.raw)).toBe(true);
    expect((await visitor.request('GET', `/${seated.urlName}/tickets`, undefined, { 'if-none-match': String(next.headers.etag) })).status).toBe(304);
    // An event without seats has no preview.
    const plain = rootOf((await site().get(`/${event.urlName}/tickets`)).body as string);
    expect(plain).not.toContain('seat-map-preview');
  });
});

describe("the tenant host's /events", () => {
  it('is the public list of upcoming events for a visitor: name, date, venue, price from, link; with its head and an ItemList', async () => {
    const res = await site().get('/events');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/cookie/i);
    const html = res.body as string;
    const root = rootOf(html);
    expect(root).toContain('Upcoming events');
    expect(root).toContain('Lighthouse Sessions');
    expect(root).toContain('Built Page Night');
    expect(root).toContain('Pier 9 Hall, Chicago');
    expect(root).toContain('Wed, Jul 3, 2030');
    expect(root).toContain('From <strong>$25.00</strong>');
    expect(root).toContain(`href="/${event.urlName}/"`);
    // Soonest first; no draft, past, cancelled or other tenant's event.
    expect(root.indexOf('Lighthouse Sessions')).toBeLessThan(root.indexOf('Built Page Night'));
    for (const hidden of ['Secret Draft', 'Last Year Gala', 'Called Off', 'Not Ours Fest']) expect(html).not.toContain(hidden);
    expect(html).toContain('<title>Upcoming events · Harbour Live</title>');
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!);
    expect(ld['@type']).toBe('ItemList');
    expect(ld.itemListElement[0]).toMatchObject({ '@type': 'ListItem', position: 1, item: { '@type': 'Event', name: 'Lighthouse Sessions', startDate: '2030-07-03T19:00:00-05:00' } });
    expect(ld.itemListElement).toHaveLength(2);
    expect(bootOf(html)).toMatchObject({ site: true, events: { count: 2 } });
  });

  it("is the console's events list for the tenant's staff, and the public page again when they ask for it (?public)", async () => {
    const consolePage = await organiser.get('/events');
    expect(consolePage.status).toBe(200);
    expect(consolePage.body).not.toContain('data-ssr');
    expect(consolePage.body).not.toContain('Upcoming events');
    const publicPage = await organiser.get('/events?public');
    expect(rootOf(publicPage.body as string)).toContain('Lighthouse Sessions');
    // Staff of another tenant are visitors here.
    const stranger = await signedIn(server, await givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } }), tenant.url);
    expect(rootOf((await stranger.get('/events')).body as string)).toContain('Lighthouse Sessions');
  });

  it('answers the same list as JSON at GET /api/p/events, per tenant host', async () => {
    const res = await site().get('/api/p/events');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.result[0]).toMatchObject({ urlName: event.urlName, name: 'Lighthouse Sessions', venueName: 'Pier 9 Hall', priceFrom: 2500, status: 'published' });
    const theirs = await server.client(other.url).get('/api/p/events');
    expect(theirs.body.result.map((e: { name: string }) => e.name)).toEqual(['Not Ours Fest']);
    expect((await server.client().get('/api/p/events')).status).toBe(404);
  });
});
