import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenEventOnSale, givenTenant, startServer, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { isoWithOffset, jsonForScript, plainText } from './seo.js';

// Server-rendered attendee pages (issue 13): the head a search engine and a chat preview read, the
// data inline for the app, robots.txt and sitemap.xml per tenant host.
const webDist = mkdtempSync(path.join(os.tmpdir(), 'marquee-web-'));
// The shape Vite builds apps/web/index.html into.
writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>Marquee</title>\n    <script type="module" crossorigin src="/assets/index-abc.js"></script>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n',
);

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let event: GivenEventOnSale;
let cancelled: GivenEventOnSale;
let draft: GivenEventOnSale;

beforeAll(async () => {
  server = await startServer({ webDist });
  tenant = await givenTenant(server, { name: 'Acme Live' });
  other = await givenTenant(server);
  event = await givenEventOnSale(server, tenant.id, {
    name: 'Summer </script><b>Jam</b>',
    timeZone: 'America/Chicago',
    ticketTypes: [
      { name: 'General', price: 4500, quantity: 100 },
      { name: 'VIP', price: 12000, quantity: 10, remaining: 0 },
    ],
  });
  await server.app.deps.db.execute(
    sql`update events set description = ${'<p>An evening of <strong>music</strong> &amp; food.</p>'}, start_date_time = '2026-07-04T00:00:00Z', end_date_time = '2026-07-04T04:00:00Z' where id = ${event.id}`,
  );
  cancelled = await givenEventOnSale(server, tenant.id, { name: 'Rained Out', status: 'cancelled', wasPublished: true });
  draft = await givenEventOnSale(server, tenant.id, { name: 'Secret Draft', status: 'draft' });
});
afterAll(async () => {
  await server.close();
  rmSync(webDist, { recursive: true, force: true });
});

const site = () => server.client(tenant.url);
const origin = () => `http://${tenant.url}.${server.config.baseDomain}:${server.port}`;

function jsonLdOf(html: string): Record<string, any> {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!);
}
function bootOf(html: string): Record<string, any> {
  const m = /<script id="mq-boot" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!);
}
const meta = (html: string, attr: 'name' | 'property', key: string) => new RegExp(`<meta ${attr}="${key}" content="([^"]*)">`).exec(html)?.[1];

/**
 * Google's Event rich result (developers.google.com/search/docs/appearance/structured-data/event):
 * required name, startDate (ISO 8601 with the offset), location (a Place with a PostalAddress);
 * eventStatus one of schema.org's EventStatusType; each Offer with price, priceCurrency,
 * availability (a schema.org ItemAvailability), url, and validFrom as ISO 8601 when given.
 */
function googleEventProblems(ld: Record<string, any>): string[] {
  const problems: string[] = [];
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
  if (ld['@context'] !== 'https://schema.org') problems.push('@context');
  if (ld['@type'] !== 'Event') problems.push('@type');
  if (typeof ld.name !== 'string' || !ld.name) problems.push('name');
  if (!iso.test(ld.startDate ?? '')) problems.push('startDate');
  if (ld.endDate !== undefined && !iso.test(ld.endDate)) problems.push('endDate');
  const statuses = ['EventScheduled', 'EventCancelled', 'EventPostponed', 'EventRescheduled', 'EventMovedOnline'].map((s) => `https://schema.org/${s}`);
  if (ld.eventStatus !== undefined && !statuses.includes(ld.eventStatus)) problems.push('eventStatus');
  const loc = ld.location;
  if (!loc || loc['@type'] !== 'Place' || typeof loc.name !== 'string' || loc.address?.['@type'] !== 'PostalAddress') problems.push('location');
  if (ld.image !== undefined && !(Array.isArray(ld.image) && ld.image.every((u: unknown) => typeof u === 'string' && /^https?:\/\//.test(u)))) problems.push('image');
  const availability = ['InStock', 'SoldOut', 'PreOrder', 'LimitedAvailability', 'OutOfStock'].map((s) => `https://schema.org/${s}`);
  for (const [i, o] of (ld.offers ?? []).entries()) {
    if (o['@type'] !== 'Offer') problems.push(`offers[${i}].@type`);
    if (!/^\d+(\.\d{1,2})?$/.test(o.price ?? '')) problems.push(`offers[${i}].price`);
    if (!/^[A-Z]{3}$/.test(o.priceCurrency ?? '')) problems.push(`offers[${i}].priceCurrency`);
    if (!availability.includes(o.availability)) problems.push(`offers[${i}].availability`);
    if (!/^https?:\/\//.test(o.url ?? '')) problems.push(`offers[${i}].url`);
    if (o.validFrom !== undefined && !iso.test(o.validFrom)) problems.push(`offers[${i}].validFrom`);
  }
  if (ld.organizer !== undefined && (typeof ld.organizer.name !== 'string' || !/^https?:\/\//.test(ld.organizer.url ?? ''))) problems.push('organizer');
  return problems;
}

describe('event page HTML', () => {
  it('arrives with its head: title, description, canonical, Open Graph, Twitter card, escaped', async () => {
    const res = await site().get(`/${event.urlName}/`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body as string;
    expect(html).toContain('<title>Summer &lt;/script&gt;&lt;b&gt;Jam&lt;/b&gt; · Acme Live</title>');
    expect(html).not.toContain('<b>Jam</b>');
    const description = meta(html, 'name', 'description')!;
    expect(description).toContain('Jul 3, 2026'); // 7 pm in Chicago on the 3rd
    expect(description).toContain('The Hall, Springfield');
    expect(description).toContain('An evening of music &amp; food.');
    expect(html).toContain(`<link rel="canonical" href="${origin()}/${event.urlName}/">`);
    expect(meta(html, 'property', 'og:title')).toBe('Summer &lt;/script&gt;&lt;b&gt;Jam&lt;/b&gt; · Acme Live');
    expect(meta(html, 'property', 'og:url')).toBe(`${origin()}/${event.urlName}/`);
    expect(meta(html, 'name', 'twitter:card')).toBe('summary');
    // The app's own script stays.
    expect(html).toContain('src="/assets/index-abc.js"');
  });

  it('carries the data the app starts from, escaped against </script>, equal to the API', async () => {
    const html = (await site().get(`/${event.urlName}/tickets`)).body as string;
    expect(html).toContain(`<link rel="canonical" href="${origin()}/${event.urlName}/tickets">`);
    expect(html.match(/<\/script>/g)!.length).toBe(3); // the app, the JSON-LD, the boot data: nothing ends early
    const boot = bootOf(html);
    expect(boot.context).toEqual((await site().get('/api/site/context')).body);
    expect(boot.event).toEqual((await site().get(`/api/p/events/${event.urlName}`)).body);
    expect(boot.event.details.name).toBe('Summer </script><b>Jam</b>');
  });

  it('has schema.org Event JSON-LD in the shape Google documents, with offers, location and the start with its offset', async () => {
    const ld = jsonLdOf((await site().get(`/${event.urlName}/`)).body);
    expect(googleEventProblems(ld)).toEqual([]);
    expect(ld).toMatchObject({
      name: 'Summer </script><b>Jam</b>',
      startDate: '2026-07-03T19:00:00-05:00',
      endDate: '2026-07-03T23:00:00-05:00',
      eventStatus: 'https://schema.org/EventScheduled',
      location: { '@type': 'Place', name: 'The Hall', address: { streetAddress: '10 Main St', addressLocality: 'Springfield', addressRegion: 'NY', postalCode: '10001' } },
      description: 'An evening of music & food.',
      organizer: { name: 'Acme Live', url: `${origin()}/events` },
    });
    expect(ld.offers).toEqual([
      expect.objectContaining({ name: 'General', price: '45.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock', url: `${origin()}/${event.urlName}/tickets` }),
      expect.objectContaining({ name: 'VIP', price: '120.00', availability: 'https://schema.org/SoldOut' }),
    ]);
    // The validator catches what Google would refuse.
    expect(googleEventProblems({ ...ld, startDate: '2026-07-03 19:00' })).toEqual(['startDate']);
  });

  it('is sent compressed to a browser that accepts it, the same page', async () => {
    const plain = await site().get(`/${event.urlName}/`);
    const br = await site().get(`/${event.urlName}/`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.raw).toString('utf8')).toBe(plain.body);
    const gz = await site().get(`/${event.urlName}/`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.raw).toString('utf8')).toBe(plain.body);
    expect(gz.raw.length).toBeLessThan(Buffer.byteLength(plain.body) / 2);
  });

  it('says a cancelled event is cancelled', async () => {
    const html = (await site().get(`/${cancelled.urlName}/`)).body as string;
    const ld = jsonLdOf(html);
    expect(googleEventProblems(ld)).toEqual([]);
    expect(ld.eventStatus).toBe('https://schema.org/EventCancelled');
    expect(ld.offers).toBeUndefined();
    expect(meta(html, 'name', 'description')).toMatch(/^Cancelled\. /);
  });

  it('answers 304 to its ETag, and a new ETag when the event changes', async () => {
    const first = await site().get(`/${event.urlName}/`);
    expect(first.headers.etag).toBeTruthy();
    expect(first.headers['cache-control']).toContain('s-maxage=1');
    expect((await site().get(`/${event.urlName}/`, { 'if-none-match': first.headers.etag! })).status).toBe(304);
    // The cart and checkout have their head too.
    expect((await site().get(`/${event.urlName}/cart`)).body).toContain(`<link rel="canonical" href="${origin()}/${event.urlName}/cart">`);
    expect((await site().get(`/${event.urlName}/account`)).body).toContain(`<link rel="canonical" href="${origin()}/${event.urlName}/account">`);
    // The ticket menu is another page with its own tag.
    expect((await site().get(`/${event.urlName}/tickets`)).headers.etag).not.toBe(first.headers.etag);
    await server.app.deps.db.execute(sql`update ticket_types set remaining = remaining - 1 where event_id = ${event.id} and name = 'General'`);
    expect((await site().get(`/${event.urlName}/`, { 'if-none-match': first.headers.etag! })).status).toBe(200);
  });

  it("is the app's not-found page (404, noindex) for a draft, an unknown name and another tenant's event", async () => {
    for (const [client, name] of [
      [site(), draft.urlName],
      [site(), 'no-such-event'],
      [server.client(other.url), event.urlName],
    ] as const) {
      const res = await client.get(`/${name}/`);
      expect(res.status).toBe(404);
      expect(res.body).toContain('<meta name="robots" content="noindex">');
      expect(res.body).not.toContain('Secret Draft');
      expect(bootOf(res.body).event).toBeUndefined();
    }
  });

  it('leaves the consoles and the platform host to the app', async () => {
    const login = await site().get('/login');
    expect(login.status).toBe(200);
    expect(login.body).toContain('<title>Marquee</title>');
    const platform = await server.client().get(`/${event.urlName}/`);
    expect(platform.body).toContain('<title>Marquee</title>');
    expect(platform.body).not.toContain('mq-boot');
    expect((await site().get('/api')).status).toBe(404);
  });
});

describe('robots.txt and sitemap.xml', () => {
  it("lets crawlers read a tenant's event pages and names its sitemap; the platform host is not for search", async () => {
    const robots = await site().get('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toContain('Disallow: /api/');
    expect(robots.body).toContain(`Sitemap: ${origin()}/sitemap.xml`);
    expect((await server.client().get('/robots.txt')).body).toBe('User-agent: *\nDisallow: /\n');
  });

  it("lists the tenant's public events, not drafts nor other tenants' events", async () => {
    const theirs = await givenEventOnSale(server, other.id, { name: 'Elsewhere' });
    const res = await site().get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const xml = res.raw.toString('utf8');
    expect(xml).toContain(`<loc>${origin()}/${event.urlName}/</loc>`);
    expect(xml).toContain(`<loc>${origin()}/${event.urlName}/tickets</loc>`);
    expect(xml).toContain(`<loc>${origin()}/${cancelled.urlName}/</loc>`);
    expect(xml).not.toContain(`${cancelled.urlName}/tickets`);
    expect(xml).not.toContain(draft.urlName);
    expect(xml).not.toContain(theirs.urlName);
    expect((await server.client().get('/sitemap.xml')).status).toBe(404);
  });
});

describe('head helpers', () => {
  it('writes a start with the offset in force on that date', () => {
    expect(isoWithOffset('2026-01-15T18:30:00Z', 'America/New_York')).toBe('2026-01-15T13:30:00-05:00');
    expect(isoWithOffset('2026-07-15T18:30:00Z', 'America/New_York')).toBe('2026-07-15T14:30:00-04:00');
    expect(isoWithOffset('2026-07-15T18:30:00Z', 'Asia/Kolkata')).toBe('2026-07-16T00:00:00+05:30');
    expect(isoWithOffset('2026-07-15T18:30:00Z', 'Not/AZone')).toBe('2026-07-15T18:30:00+00:00');
  });
  it('keeps JSON in a script element inert and descriptions plain', () => {
    expect(jsonForScript({ a: '</script><!--\u2028' })).toBe('{"a":"\\u003c/script\\u003e\\u003c!--\\u2028"}');
    expect(plainText('<p>a&nbsp;<em>b</em></p>\n<p>c</p>')).toBe('a b c');
    expect(plainText('word '.repeat(50), 20)).toBe('word word word…');
  });
});

describe('the app document', () => {
  it('is asked for again on every visit (it names the current build’s files); only hashed assets are kept for a year', async () => {
    mkdirSync(path.join(webDist, 'assets'), { recursive: true });
    for (const [host, url] of [
      [tenant.url, '/'],
      [tenant.url, '/login'],
      [tenant.url, '/index.html'],
      [undefined, '/'],
      [undefined, '/tenants'],
    ] as const) {
      const res = await server.client(host).get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], `${host ?? 'platform'} ${url}`).toBe('no-cache');
    }
  });
});
