import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../db/schema/index.js';
import { givenEventOnSale, givenHeldOrder, givenTenant, givenUser, startServer, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { givenEventActors, signedIn, type EventActors } from '../../../test/actors.js';
import { FULFIL_JOB } from '../fulfilment/service.js';
import { coverStorageKey } from './cover-image.js';
import { GIF_1PX, PNG_1PX } from '../../../test/fixtures/images.js';

// Issue 15: an event's cover image, through HTTP against a real database and the real storage.

const webDist = mkdtempSync(path.join(os.tmpdir(), 'marquee-web-'));
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>Marquee</title>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n');

let server: TestServer;
let tenant: GivenTenant;
let actors: EventActors;
let event: GivenEventOnSale;
let otherEvent: GivenEventOnSale;
let foreign: { tenant: GivenTenant; event: GivenEventOnSale; admin: Awaited<ReturnType<typeof signedIn>> };

/** A photo as a phone takes it: stored sideways (EXIF orientation 6) with a camera and a place in its metadata. */
let sidewaysJpeg: Buffer;
let png: Buffer;
let webp: Buffer;

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 120 } } }).composite([
    { input: { create: { width: Math.round(width / 2), height: Math.round(height / 2), channels: 3, background: { r: 20, g: 30, b: 200 } } }, left: 0, top: 0 },
  ]);

beforeAll(async () => {
  server = await startServer({ webDist });
  tenant = await givenTenant(server, { name: 'Cover Co' });
  event = await givenEventOnSale(server, tenant.id, { name: 'Harbour Lights' });
  otherEvent = await givenEventOnSale(server, tenant.id, { name: 'Other Night' });
  actors = await givenEventActors(server, tenant, event.id, otherEvent.id);
  const otherTenant = await givenTenant(server);
  foreign = {
    tenant: otherTenant,
    event: await givenEventOnSale(server, otherTenant.id),
    admin: await signedIn(server, await givenUser(server, { tenant: { id: otherTenant.id, roles: ['tenant_admin'] } }), otherTenant.url),
  };
  // Stored 1000 wide and 2000 high, shown (orientation 6: turned 90° clockwise) 2000 by 1000: the hero's 2:1 whole.
  sidewaysJpeg = await picture(1000, 2000)
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: 'PhoneCo', Model: 'Secret Model 9' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
    .toBuffer();
  const meta = await sharp(sidewaysJpeg).metadata();
  expect([meta.orientation, meta.exif?.includes('Secret Model 9')]).toEqual([6, true]);
  png = await picture(1000, 500).png().toBuffer();
  webp = await picture(2000, 1000).webp().toBuffer();
});
afterAll(async () => {
  await server.close();
  rmSync(webDist, { recursive: true, force: true });
});

const coverOf = (e: { id: string }, tenantId = tenant.id) => `/api/tenants/${tenantId}/events/${e.id}/cover`;
const upload = (c: EventActors['admin'], bytes: Buffer, name = 'cover.jpg', type = 'image/jpeg', e: { id: string } = event) => c.upload(coverOf(e), 'file', name, bytes, type);
const site = () => server.client(tenant.url);

describe('POST /api/tenants/:tenantId/events/:eventId/cover', () => {
  it('takes a JPEG: crops it upright, strips its metadata, and the public event data carries the hero and social card URLs', async () => {
    const res = await upload(actors.admin, sidewaysJpeg);
    expect(res.status).toBe(200);
    const d = res.body.details;
    expect(d.coverImageUrl).toMatch(new RegExp(`^/${event.urlName}/assets/cover-[0-9a-f]{16}-hero-1600\\.webp$`));
    expect(d.coverImageSmallUrl).toBe(d.coverImageUrl.replace('hero-1600', 'hero-800'));
    expect(d.socialImageUrl).toBe(d.coverImageUrl.replace('hero-1600.webp', 'social.jpg'));

    const pub = await site().get(`/api/p/events/${event.urlName}`);
    expect(pub.body.details).toMatchObject({ coverImageUrl: d.coverImageUrl, coverImageSmallUrl: d.coverImageSmallUrl, socialImageUrl: d.socialImageUrl });

    const expected: Array<[string, string, number, number, string]> = [
      [d.coverImageUrl, 'image/webp', 1600, 800, 'webp'],
      [d.coverImageSmallUrl, 'image/webp', 800, 400, 'webp'],
      [d.socialImageUrl, 'image/jpeg', 1200, 630, 'jpeg'],
    ];
    for (const [url, type, width, height, format] of expected) {
      const img = await site().get(url);
      expect(img.status, url).toBe(200);
      expect(img.headers['content-type']).toBe(type);
      expect(img.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(img.raw).metadata();
      expect(meta).toMatchObject({ width, height, format });
      expect(meta.exif, 'EXIF stripped').toBeUndefined();
      expect(meta.orientation ?? 1).toBe(1);
    }
    // Upright: the stored top-left quarter was blue; turned, it is the top-right one, and the rest is pink.
    const hero = await sharp((await site().get(d.coverImageUrl)).raw).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...hero.data.subarray((y * hero.info.width + x) * hero.info.channels, (y * hero.info.width + x) * hero.info.channels + 3)];
    const blue = (p: number[]) => p[2]! > 150 && p[0]! < 80;
    const pink = (p: number[]) => p[0]! > 150 && p[2]! < 160;
    expect(blue(pixel(1590, 10)), 'top right').toBe(true);
    expect(blue(pixel(810, 390)), 'middle of the top right quarter').toBe(true);
    expect(pink(pixel(10, 10)), 'top left').toBe(true);
    expect(pink(pixel(1590, 790)), 'bottom right').toBe(true);
    // The bytes mention neither the camera nor where it was.
    expect((await site().get(d.socialImageUrl)).raw.includes('Secret Model 9')).toBe(false);
  });

  it('takes a PNG and a WebP, judged by their bytes whatever their name; a replaced cover stops being served', async () => {
    const first = await upload(actors.admin, png, 'poster.png', 'image/png');
    expect(first.status).toBe(200);
    const second = await upload(actors.eventManager, webp, 'wrong-name.jpg', 'image/jpeg');
    expect(second.status).toBe(200);
    expect(second.body.details.coverImageUrl).not.toBe(first.body.details.coverImageUrl);
    expect((await site().get(first.body.details.coverImageUrl)).status).toBe(404);
    expect((await site().get(second.body.details.coverImageUrl)).status).toBe(200);
    // The first cover's files are gone from storage, not just unlinked.
    const firstId = /cover-([0-9a-f]{16})-/.exec(first.body.details.coverImageUrl)![1]!;
    expect(await server.app.deps.storage.get(coverStorageKey(tenant.id, event.id, firstId, 'hero-1600.webp'))).toBeNull();
  });

  it('refuses a text file named .jpg, a GIF and a missing file with the type message (415), never storing anything', async () => {
    const before = (await actors.admin.get(`/api/tenants/${tenant.id}/events/${event.id}`)).body.details.coverImageUrl;
    for (const [bytes, name, type] of [
      [Buffer.from('this is not a picture, just words in a file'), 'cover.jpg', 'image/jpeg'],
      [GIF_1PX, 'cover.gif', 'image/gif'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="900" height="450"/>'), 'cover.png', 'image/png'],
    ] as const) {
      const res = await upload(actors.admin, bytes, name, type);
      expect(res.status, name).toBe(415);
      expect(res.body.error.message).toBe(M.coverType);
    }
    const notMultipart = await actors.admin.post(coverOf(event), { file: 'x' });
    expect(notMultipart.status).toBe(415);
    expect((await actors.admin.get(`/api/tenants/${tenant.id}/events/${event.id}`)).body.details.coverImageUrl).toBe(before);
  });

  it('refuses a file over 10 MB (413) with the size message', async () => {
    const big = Buffer.concat([sidewaysJpeg, Buffer.alloc(10 * 1024 * 1024)]);
    const res = await upload(actors.admin, big);
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe(M.coverSize);
  });

  it('refuses a truncated or corrupt image (400): it must decode in full', async () => {
    const cases = {
      'truncated JPEG': sidewaysJpeg.subarray(0, Math.floor(sidewaysJpeg.length / 2)),
      'truncated PNG': png.subarray(0, Math.floor(png.length * 0.6)),
      'truncated WebP': webp.subarray(0, Math.floor(webp.length / 2)),
      'JPEG header only': sidewaysJpeg.subarray(0, 600),
    };
    for (const [what, bytes] of Object.entries(cases)) {
      const res = await upload(actors.admin, bytes);
      expect(res.status, what).toBe(400);
      expect(res.body.error.message, what).toBe(M.coverUnreadable);
    }
  });

  it('refuses a picture smaller than 800x400 (400) and one over 50 megapixels without decoding it (413)', async () => {
    const small = await upload(actors.admin, await picture(799, 600).jpeg().toBuffer());
    expect(small.status).toBe(400);
    expect(small.body.error.message).toBe(M.coverTooSmall);
    // A PNG that claims 10000x6000 (60 MP): refused from its header, before a pixel is decoded.
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(10000, 0);
    ihdr.writeUInt32BE(6000, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([len, body, crc]);
    };
    const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const bomb = Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(30_001))), chunk('IEND', Buffer.alloc(0))]);
    expect(bomb.length).toBeLessThan(200);
    const res = await upload(actors.admin, bomb, 'bomb.png', 'image/png');
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe(M.coverTooManyPixels);
  });

  it.each([
    ['no boundary', 'multipart/form-data', '\x89PNG\r\n'],
    ['not multipart at all', 'multipart/form-data; boundary=zz', 'garbage'],
    ['a part that never ends', 'multipart/form-data; boundary=zz', '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc'],
  ])('answers 400 with the type message to a malformed upload: %s', async (_, contentType, body) => {
    const res = await actors.admin.request('POST', coverOf(event), Buffer.from(body), { 'content-type': contentType });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: { code: 'BAD_REQUEST', message: M.coverType } } });
  });

  it("answers 404 for another tenant's event, 403 to tenant staff and check-in staff, as the seat map does", async () => {
    expect((await upload(actors.admin, png, 'c.png', 'image/png', foreign.event)).status).toBe(404);
    // Whatever is sent: another tenant's id is not found before the body is looked at.
    expect((await actors.admin.post(coverOf(foreign.event), { file: 'not multipart' })).status).toBe(404);
    expect((await actors.admin.upload(coverOf(event, foreign.tenant.id), 'file', 'c.png', png, 'image/png')).status).toBe(404);
    expect((await foreign.admin.upload(coverOf(event), 'file', 'c.png', png, 'image/png')).status).toBe(404);
    expect((await actors.outsider.upload(coverOf(event), 'file', 'c.png', png, 'image/png')).status).toBe(404);
    expect((await actors.outsider.delete(coverOf(event))).status).toBe(404);
    expect((await actors.staff.upload(coverOf(event), 'file', 'c.png', png, 'image/png')).status).toBe(403);
    expect((await actors.checkin.upload(coverOf(event), 'file', 'c.png', png, 'image/png')).status).toBe(403);
    expect((await actors.otherEventManager.upload(coverOf(event), 'file', 'c.png', png, 'image/png')).status).toBe(403);
    expect((await actors.staff.delete(coverOf(event))).status).toBe(403);
    expect((await actors.anonymous.upload(coverOf(event), 'file', 'c.png', png, 'image/png')).status).toBe(401);
    expect((await actors.admin.upload(`/api/tenants/${tenant.id}/events/${crypto.randomUUID()}/cover`, 'file', 'c.png', png, 'image/png')).status).toBe(404);
    // Another tenant's site never serves this event's cover.
    const url = (await actors.admin.get(`/api/tenants/${tenant.id}/events/${event.id}`)).body.details.coverImageUrl;
    expect(url).toBeTruthy();
    expect((await server.client(foreign.tenant.url).get(url)).status).toBe(404);
    expect((await server.client().get(url)).status).toBe(404);
  });
});

describe('DELETE /api/tenants/:tenantId/events/:eventId/cover', () => {
  it('removes the cover: the URLs are null and its files are gone', async () => {
    const up = await upload(actors.admin, png, 'c.png', 'image/png', otherEvent);
    const url = up.body.details.coverImageUrl;
    expect((await site().get(url)).status).toBe(200);
    // A manager of a different event may not remove it; the tenant admin may.
    expect((await actors.eventManager.delete(coverOf(otherEvent))).status).toBe(403);
    const removed = await actors.admin.delete(coverOf(otherEvent));
    expect(removed.status).toBe(200);
    expect(removed.body.details).toMatchObject({ coverImageUrl: null, coverImageSmallUrl: null, socialImageUrl: null });
    expect((await site().get(url)).status).toBe(404);
    expect((await site().get(`/api/p/events/${otherEvent.urlName}`)).body.details.coverImageUrl).toBeNull();
    // Removing what is not there is fine.
    expect((await actors.admin.delete(coverOf(otherEvent))).status).toBe(200);
  });
});

describe('who sees a cover', () => {
  it("a draft's cover shows to its staff (preview, never cached) and to nobody else; published, to everyone", async () => {
    const draft = await givenEventOnSale(server, tenant.id, { name: 'Hidden Gem', status: 'draft' });
    const up = await upload(actors.admin, png, 'c.png', 'image/png', draft);
    expect(up.status).toBe(200);
    const url = up.body.details.coverImageUrl;
    const mine = await actors.admin.get(url);
    expect(mine.status).toBe(200);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect((await actors.staff.get(url)).status).toBe(200);
    const preview = await actors.admin.get(`/api/p/events/${draft.urlName}?preview=1`);
    expect(preview.body.details.coverImageUrl).toBe(url);
    for (const [who, c] of [
      ['anonymous', actors.anonymous],
      ['other event manager', actors.otherEventManager],
      ['outsider', actors.outsider],
    ] as const) {
      expect((await c.get(url)).status, who).toBe(404);
    }
    expect((await actors.admin.post(`/api/tenants/${tenant.id}/events/${draft.id}/publish`)).status).toBe(200);
    const open = await actors.anonymous.get(url);
    expect(open.status).toBe(200);
    expect(open.headers['cache-control']).toContain('public');
    // A made-up id or crop name is not found.
    expect((await site().get(url.replace(/cover-[0-9a-f]{16}/, 'cover-0123456789abcdef'))).status).toBe(404);
    expect((await site().get(url.replace('hero-1600.webp', 'original.jpg'))).status).toBe(404);
    expect((await site().get(url.replace('hero-1600.webp', 'ticket.jpg'))).status).toBe(200);
  });

  it("a cancelled event's cover and seat map show to its staff in the console; to the public only the cover of one that was public", async () => {
    const seatMapOf = (e: { id: string }) => `/api/tenants/${tenant.id}/events/${e.id}/seatmap`;
    for (const wasPublished of [false, true]) {
      const e = await givenEventOnSale(server, tenant.id, { status: 'draft' });
      const cover = (await upload(actors.admin, png, 'c.png', 'image/png', e)).body.details.coverImageSmallUrl as string;
      const seatMap = (await actors.admin.upload(seatMapOf(e), 'file', 'map.png', PNG_1PX, 'image/png')).body.details.seatMap as string;
      if (wasPublished) expect((await actors.admin.post(`/api/tenants/${tenant.id}/events/${e.id}/publish`)).status).toBe(200);
      expect((await actors.admin.post(`/api/tenants/${tenant.id}/events/${e.id}/cancel`)).status).toBe(200);
      for (const url of [cover, seatMap]) {
        const mine = await actors.admin.get(url);
        expect(mine.status, url).toBe(200);
        // What only its staff see is never cached.
        if (!wasPublished || url === seatMap) expect(mine.headers['cache-control'], url).toBe('private, no-store');
        expect((await actors.staff.get(url)).status, url).toBe(200);
        expect((await actors.otherEventManager.get(url)).status, url).toBe(wasPublished && url === cover ? 200 : 404);
        expect((await actors.anonymous.get(url)).status, url).toBe(wasPublished && url === cover ? 200 : 404);
      }
    }
  });

  it('the event page head gives link previews the social card as an absolute og:image and twitter:image', async () => {
    const d = (await actors.admin.get(`/api/tenants/${tenant.id}/events/${event.id}`)).body.details;
    const page = await site().get(`/${event.urlName}/`, { accept: 'text/html' });
    expect(page.status).toBe(200);
    const html = page.raw.toString('utf8');
    const origin = `http://${tenant.url}.${server.config.baseDomain}:${server.port}`;
    const og = /<meta property="og:image" content="([^"]*)">/.exec(html)?.[1];
    expect(og).toBe(`${origin}${d.socialImageUrl}`);
    expect(/<meta name="twitter:image" content="([^"]*)">/.exec(html)?.[1]).toBe(og);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    // What a crawler fetches, with no cookie: the card itself.
    const card = await site().get(new URL(og!).pathname);
    expect(card.status).toBe(200);
    expect(card.headers['content-type']).toBe('image/jpeg');
  });

  it("the ticket PDF prints the cover's ticket crop in its header", async () => {
    const withCover = await givenHeldOrder(server, tenant.id, { eventId: event.id, status: 'processing' });
    const plain = await givenHeldOrder(server, tenant.id, { status: 'processing' });
    for (const o of [withCover, plain]) {
      await server.app.deps.jobs.enqueue(server.app.deps.db, FULFIL_JOB, { tenantId: tenant.id, orderId: o.orderId }, { dedupeKey: `fulfil:${o.orderId}` });
    }
    await server.app.deps.jobs.drain();
    const pdfOf = async (o: { eventId: string; orderUid: string }) => {
      const res = await actors.admin.post(`/api/tenants/${tenant.id}/events/${o.eventId}/download`, { orderUID: o.orderUid });
      expect(res.status).toBe(200);
      return res.raw.toString('latin1');
    };
    const pdf = await pdfOf(withCover);
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf).toMatch(/\/Subtype \/Image/);
    expect(pdf).toMatch(/\/Width 600\s*\/Height 300|\/Height 300[\s\S]{0,80}\/Width 600|\/Width 600[\s\S]{0,80}\/Height 300/);
    expect(pdf).toContain('/DCTDecode');
    expect(await pdfOf(plain)).not.toMatch(/\/Subtype \/Image/);
  });

  it('deleting an event deletes its cover files', async () => {
    const res = await actors.admin.post(`/api/tenants/${tenant.id}/events`, { details: { name: 'Short Lived' } });
    const up = await upload(actors.admin, png, 'c.png', 'image/png', res.body);
    const id = /cover-([0-9a-f]{16})-/.exec(up.body.details.coverImageUrl)![1]!;
    expect(await server.app.deps.storage.get(coverStorageKey(tenant.id, res.body.id, id, 'social.jpg'))).not.toBeNull();
    expect((await actors.admin.delete(`/api/tenants/${tenant.id}/events/${res.body.id}`)).status).toBe(200);
    expect(await server.app.deps.storage.get(coverStorageKey(tenant.id, res.body.id, id, 'social.jpg'))).toBeNull();
    expect((await server.app.deps.db.select().from(events).where(eq(events.id, res.body.id))).length).toBe(0);
  });
});
