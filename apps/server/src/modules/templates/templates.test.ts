import { M, TEMPLATE_THUMBNAIL_MAX_BYTES } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenActors, signedIn, statusesOf, type Actors } from '../../../test/actors.js';
import { givenEvent, givenPlatformAdmin, givenTenant, givenUser, notFoundError, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { DEMO_TEMPLATE_FILES, storedZip } from './demo.js';
import { buildZip, GOOD_TEMPLATE_FILES, type ZipEntry } from '../../../test/fixtures/template-zips.js';

let server: TestServer;
let admin: Client;
let tenant: GivenTenant;
let actors: Actors;

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0e4e7a50000000049454e44ae426082', 'hex');

beforeAll(async () => {
  server = await startServer();
  const user = await givenPlatformAdmin(server);
  admin = server.client();
  await admin.login(user.email);
  tenant = await givenTenant(server);
  actors = await givenActors(server, tenant, await givenTenant(server));
});
afterAll(async () => {
  await server.close();
});

const request = (name = 'Summer fair', description = 'Bright and simple') => ({ siteTemplateRequest: { name, description } });

async function create(name?: string) {
  const res = await admin.post('/api/site/templates', request(name));
  expect(res.status).toBe(201);
  return res.body as { id: string; postUrl: string };
}

/** PUT to a postUrl, as the browser does: any client, no session needed. */
const putTo = (postUrl: string, bytes: Buffer, type = 'application/zip') => server.client().put(postUrl, bytes, { 'content-type': type });

const without = (name: string) => GOOD_TEMPLATE_FILES.filter((f) => f.name !== name);
const zipOf = (extra: ZipEntry[] = [], base = GOOD_TEMPLATE_FILES) => buildZip([...base, ...extra]);

async function download(fetchUrl: string) {
  const res = await server.client().get(fetchUrl);
  expect(res.status).toBe(200);
  return res.raw;
}

describe('site templates (spec accounts §7 templates)', () => {
  it('creates, accepts a zip as v1, a new zip as v2, and keeps both downloadable', async () => {
    const { id, postUrl } = await create('Versioned');
    expect(postUrl).toMatch(/^\/api\/site\/template-uploads\//);
    expect((await admin.get(`/api/site/templates/${id}`)).body.details.version).toBeNull();

    const first = await zipOf();
    const up = await putTo(postUrl, first);
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ success: true, version: 'v1' });
    expect((await admin.get(`/api/site/templates/${id}`)).body.details).toMatchObject({ name: 'Versioned', description: 'Bright and simple', version: 'v1' });

    // Editing without a zip keeps the version (spec §4).
    const edit = await admin.put('/api/site/templates', { siteTemplateRequest: { templateId: id, name: 'Versioned 2', description: 'New words', version: 'v1' } });
    expect(edit.status).toBe(200);
    expect(edit.body.id).toBe(id);
    expect((await admin.get(`/api/site/templates/${id}`)).body.details).toMatchObject({ name: 'Versioned 2', version: 'v1' });

    const second = await zipOf([{ name: 'img/logo.txt', data: 'second' }]);
    expect((await putTo(edit.body.postUrl, second)).body).toEqual({ success: true, version: 'v2' });
    expect((await admin.get(`/api/site/templates/${id}`)).body.details.version).toBe('v2');

    const versions = await admin.get(`/api/site/templates/${id}/versions`);
    expect(versions.body.result.map((v: { version: string }) => v.version)).toEqual(['v2', 'v1']);
    const v1 = await admin.get(`/api/site/templates/${id}/v1`);
    expect(v1.status).toBe(200);
    expect(Buffer.compare(await download(v1.body.result[0].fetchUrl), first)).toBe(0);
    const v2 = await admin.get(`/api/site/templates/${id}/2`);
    expect(Buffer.compare(await download(v2.body.result[0].fetchUrl), second)).toBe(0);
    expect((await admin.get(`/api/site/templates/${id}/v3`)).body).toEqual(notFoundError);
    expect((await admin.get(`/api/site/templates/${id}/latest`)).status).toBe(404);
  });

  it('a postUrl works once, and not with a changed signature or after deletion', async () => {
    const { id, postUrl } = await create();
    const zip = await zipOf();
    const forged = postUrl.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await putTo(forged, zip)).status).toBe(404);
    expect((await putTo(postUrl, zip)).status).toBe(200);
    const again = await putTo(postUrl, zip);
    expect(again.status).toBe(410);
    expect(again.body.error.message).toBe(M.templateUploadExpired);
    const next = await admin.put('/api/site/templates', { siteTemplateRequest: { templateId: id, ...request().siteTemplateRequest } });
    expect((await admin.delete(`/api/site/templates/${id}`)).body).toEqual({ success: true });
    expect((await putTo(next.body.postUrl, zip)).status).toBe(410);
    expect((await admin.get(`/api/site/templates/${id}`)).status).toBe(404);
  });

  it('validates the request with the spec’s messages', async () => {
    const res = await admin.post('/api/site/templates', { siteTemplateRequest: { name: ' ', description: '' } });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toMatchObject({ 'siteTemplateRequest.name': M.templateName, 'siteTemplateRequest.description': M.templateDescription });
    const unknown = await admin.put('/api/site/templates', { siteTemplateRequest: { templateId: '00000000-0000-4000-8000-000000000000', name: 'a', description: 'b' } });
    expect(unknown.status).toBe(404);
  });

  it('lists with search and cursor paging', async () => {
    for (const n of ['Paging alpha', 'Paging beta', 'Paging gamma']) await create(n);
    const page1 = await admin.get('/api/site/templates?limit=2&filters=details.name%3DPaging');
    expect(page1.body.count).toBe(3);
    expect(page1.body.result.map((t: { details: { name: string } }) => t.details.name)).toEqual(['Paging alpha', 'Paging beta']);
    const page2 = await admin.get(`/api/site/templates?limit=2&filters=details.name%3DPaging&cursor=${encodeURIComponent(page1.body.cursor)}`);
    expect(page2.body.result.map((t: { details: { name: string } }) => t.details.name)).toEqual(['Paging gamma']);
    expect(page2.body.cursor).toBeNull();
  });

  it('only platform writers change templates; readers read; tenants see only templates with a zip', async () => {
    const { id, postUrl } = await create('Access');
    const refused = { platform_report: 403, platform_user: 403, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 403, attendee: 403, anonymous: 401 };
    expect(await statusesOf(actors, 'platform', (c) => c.post('/api/site/templates', request('x')))).toEqual({ super_user: 201, platform_manager: 201, ...refused });
    expect(await statusesOf(actors, 'platform', (c) => c.delete(`/api/site/templates/${id}`), ['platform_user', 'tenant_admin', 'anonymous'])).toEqual({
      platform_user: 403,
      tenant_admin: 403,
      anonymous: 401,
    });
    expect(await statusesOf(actors, 'platform', (c) => c.get(`/api/site/templates/${id}`))).toEqual({ ...refused, super_user: 200, platform_manager: 200, platform_user: 200 });
    // Platform routes do not exist on a tenant's host.
    expect((await actors.tenant_admin.tenant.get('/api/site/templates')).status).toBe(404);
    const organiser = actors.tenant_admin.tenant;
    const before = await organiser.get(`/api/tenants/${tenant.id}/site-templates?filters=details.name%3DAccess`);
    expect(before.body.count).toBe(0);
    await putTo(postUrl, await zipOf());
    const after = await organiser.get(`/api/tenants/${tenant.id}/site-templates?filters=details.name%3DAccess`);
    expect(after.body.result.map((t: { id: string }) => t.id)).toEqual([id]);
    expect((await actors.other_tenant_admin.tenant.get(`/api/tenants/${tenant.id}/site-templates`)).status).toBe(404);
    // An event manager builds their event's page, so picks from the templates too; tenant staff do not.
    const event = await givenEvent(server, tenant.id);
    const manager = await signedIn(server, await givenUser(server, { event: { tenantId: tenant.id, eventId: event.id, roles: ['event_manager'] } }), tenant.url);
    expect((await manager.get(`/api/tenants/${tenant.id}/site-templates`)).status).toBe(200);
    expect((await actors.tenant_staff.tenant.get(`/api/tenants/${tenant.id}/site-templates`)).status).toBe(403);
  });
});

describe('zip checks: a bad zip is refused with its message and nothing is stored', () => {
  async function refused(bytes: Buffer) {
    const { id, postUrl } = await create('Refused');
    const res = await putTo(postUrl, bytes);
    expect((await admin.get(`/api/site/templates/${id}`)).body.details.version).toBeNull();
    expect((await admin.get(`/api/site/templates/${id}/versions`)).body.result).toEqual([]);
    return res;
  }

  it('refuses a zip without a required file, naming it', async () => {
    const res = await refused(await zipOf([], without('metadata.json')));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(`${M.templateZipMissing} metadata.json`);
  });

  it('accepts the demo seed’s zip (written without a zip package)', async () => {
    const { postUrl } = await create('Demo zip');
    expect((await putTo(postUrl, storedZip(DEMO_TEMPLATE_FILES))).body).toEqual({ success: true, version: 'v1' });
  });

  it('accepts the files inside one top folder', async () => {
    const { postUrl } = await create('Folder');
    const zip = await buildZip(GOOD_TEMPLATE_FILES.map((f) => ({ ...f, name: `my-template/${f.name}` })));
    expect((await putTo(postUrl, zip)).body).toEqual({ success: true, version: 'v1' });
  });

  it('refuses JSON that does not parse', async () => {
    const res = await refused(await zipOf([{ name: 'config.json', data: '{ not json' }], without('config.json')));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(`${M.templateZipBadJson} config.json`);
  });

  it('refuses zip-slip (../), absolute paths and symbolic links', async () => {
    for (const name of ['../evil.txt', 'assets/../../evil.txt', '/etc/cron.d/evil']) {
      const res = await refused(await zipOf([{ name, data: 'x' }]));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(`${M.templateZipUnsafePath} ${name}`);
    }
    const link = await refused(await zipOf([{ name: 'assets/link', data: '/etc/passwd', mode: 0o120777 }]));
    expect(link.status).toBe(400);
    expect(link.body.error.message).toBe(`${M.templateZipUnsafePath} assets/link`);
  });

  it('refuses a zip bomb while inflating it (compression ratio), and an entry past the size limit', async () => {
    const bomb = await refused(await zipOf([{ name: 'assets/zeros.bin', data: Buffer.alloc(8 * 1024 * 1024) }]));
    expect(bomb.status).toBe(413);
    expect(bomb.body.error.message).toBe(M.templateZipTooBig);
    const huge = await refused(await zipOf([{ name: 'assets/big.bin', data: Buffer.alloc(21 * 1024 * 1024, 7), store: true }]));
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toBe(M.templateZipTooBig);
  });

  it('refuses too many entries', async () => {
    const many = Array.from({ length: 2001 }, (_, i) => ({ name: `assets/f${i}.txt`, data: '' }));
    const res = await refused(await zipOf(many));
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe(M.templateZipTooBig);
  });

  it('refuses a broken zip and a file that is no zip at all', async () => {
    const good = await zipOf();
    const truncated = await refused(good.subarray(0, good.length - 30));
    expect(truncated.status).toBe(400);
    expect(truncated.body.error.message).toBe(M.templateZipBroken);
    const corrupt = Buffer.from(good);
    corrupt.fill(0x41, 40, 120); // inside the first entry's data: its CRC no longer matches
    const crc = await refused(corrupt);
    expect(crc.status).toBe(400);
    expect(crc.body.error.message).toBe(M.templateZipBroken);
    const text = await refused(Buffer.from('hello, this is not a zip'));
    expect(text.status).toBe(400);
    expect(text.body.error.message).toBe(M.templateZipBroken);
  });

  it('refuses a body sent as JSON or text', async () => {
    const { postUrl } = await create();
    expect((await server.client().put(postUrl, { zip: true })).status).toBe(415);
    expect((await server.client().put(postUrl, Buffer.from('x'), { 'content-type': 'text/plain' })).status).toBe(415);
  });
});

describe('template thumbnails (spec §5, §9: an image, at most 20 MB)', () => {
  it('takes {mimeType}, then an image judged by its bytes', async () => {
    const { id } = await create('Thumb');
    const notImage = await admin.post(`/api/site/templates/${id}/thumbnail`, { mimeType: 'application/pdf' });
    expect(notImage.status).toBe(400);
    expect(notImage.body.error.message).toBe(M.templateImageType);
    const grant = await admin.post(`/api/site/templates/${id}/thumbnail`, { mimeType: 'image/png' });
    expect(grant.status).toBe(200);
    const fake = await putTo(grant.body.postUrl, Buffer.from('GIF? no, plain text'), 'image/png');
    expect(fake.status).toBe(415);
    expect(fake.body.error.message).toBe(M.templateImageType);

    const again = await admin.post(`/api/site/templates/${id}/thumbnail`, { mimeType: 'image/png' });
    expect((await putTo(again.body.postUrl, PNG, 'image/png')).status).toBe(200);
    const thumb = (await admin.get(`/api/site/templates/${id}`)).body.details;
    expect(thumb.mime).toBe('image/png');
    const img = await server.client().get(thumb.thumbnail);
    expect(img.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(img.raw, PNG)).toBe(0);
  });

  it('refuses an image past 20 MB', async () => {
    const { id } = await create('Big thumb');
    const grant = await admin.post(`/api/site/templates/${id}/thumbnail`, { mimeType: 'image/png' });
    const big = Buffer.concat([PNG, Buffer.alloc(TEMPLATE_THUMBNAIL_MAX_BYTES)]);
    const res = await putTo(grant.body.postUrl, big, 'image/png');
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe(M.templateImageSize);
    expect((await admin.get(`/api/site/templates/${id}`)).body.details.thumbnail).toBeNull();
  });

  it('answers 404 for an unknown template', async () => {
    const res = await admin.post('/api/site/templates/00000000-0000-4000-8000-000000000000/thumbnail', { mimeType: 'image/png' });
    expect(res.body).toEqual(notFoundError);
  });
});
