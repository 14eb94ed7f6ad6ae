import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { M } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../../test/actors.js';
import { givenEventOnSale, givenPlatformAdmin, givenTenant, givenUser, startServer, type Client, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { buildZip, GOOD_TEMPLATE_FILES } from '../../../test/fixtures/template-zips.js';
import { sanitizePageCss, sanitizePageHtml } from './sanitize.js';

let server: TestServer;
let tenant: GivenTenant;
let organiser: Client;
let event: GivenEventOnSale;
let templateId: string;

const HOSTILE = [
  '<h1 onclick="alert(1)" onmouseover="steal()">Welcome</h1>',
  '<script>alert("owned")</script>',
  '<img src="x.png" onerror="alert(2)" alt="hero">',
  '<a href="javascript:alert(3)">click</a>',
  '<a href="JaVaScRiPt&colon;alert(4)">encoded</a>',
  '<iframe src="https://evil.example/"></iframe>',
  '<object data="evil.swf"></object>',
  '<form action="https://evil.example/"><input name="card"></form>',
  '<a href="https://example.org/more" target="_blank">More</a>',
  '<div data-marquee-tickets></div>',
].join('');

beforeAll(async () => {
  // The event home is the built app's document with the published page in it: a minimal build.
  const webDist = mkdtempSync(path.join(os.tmpdir(), 'marquee-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>Marquee</title>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n');
  server = await startServer({ webDist });
  const admin = server.client();
  await admin.login((await givenPlatformAdmin(server)).email);
  const created = await admin.post('/api/site/templates', { siteTemplateRequest: { name: 'Page base', description: 'For event pages' } });
  templateId = created.body.id;
  await server.client().put(created.body.postUrl, await buildZip(GOOD_TEMPLATE_FILES), { 'content-type': 'application/zip' });
  tenant = await givenTenant(server);
  event = await givenEventOnSale(server, tenant.id, { name: 'Harbour Nights' });
  organiser = await signedIn(server, await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } }), tenant.url);
});
afterAll(async () => {
  await server.close();
});

const pageUrl = (e = event.id, t = tenant.id) => `/api/tenants/${t}/events/${e}/page`;

describe('event pages: draft, publish, rollback', () => {
  it('starts a draft from a template, autosaves, publishes sanitised, and rolls back', async () => {
    expect((await organiser.get(pageUrl())).body).toMatchObject({ draft: null, liveVersion: null, versions: [] });
    const noTemplate = await organiser.post(`${pageUrl()}/start`, { templateId: '00000000-0000-4000-8000-000000000000' });
    expect(noTemplate.status).toBe(400);
    expect(noTemplate.body.error.message).toBe(M.eventPageNoTemplate);
    expect((await organiser.post(`${pageUrl()}/publish`)).body.error.message).toBe(M.eventPageNoDraft);

    const started = await organiser.post(`${pageUrl()}/start`, { templateId });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ templateId, templateVersion: 'v1', liveVersion: null });
    expect(started.body.draft.html).toContain('data-marquee-tickets');

    // Nothing is public before publishing.
    const site = server.client(tenant.url);
    expect((await site.get(`/api/p/events/${event.urlName}/page`)).status).toBe(404);

    expect((await organiser.put(`${pageUrl()}/draft`, { project: '{"pages":[]}', html: '<h1>First</h1>', css: 'h1{color:red}' })).status).toBe(200);
    const v1 = await organiser.post(`${pageUrl()}/publish`);
    expect(v1.body.liveVersion).toBe(1);
    expect((await site.get(`/api/p/events/${event.urlName}/page`)).body).toEqual({ version: 1, html: '<h1>First</h1>', css: 'h1{color:red}' });

    await organiser.put(`${pageUrl()}/draft`, { project: '{}', html: '<h1>Second</h1>', css: '' });
    // The draft is not live until published.
    expect((await site.get(`/api/p/events/${event.urlName}/page`)).body.html).toBe('<h1>First</h1>');
    const v2 = await organiser.post(`${pageUrl()}/publish`);
    expect(v2.body.liveVersion).toBe(2);
    expect(v2.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect((await site.get(`/api/p/events/${event.urlName}/page`)).body.html).toBe('<h1>Second</h1>');

    const back = await organiser.post(`${pageUrl()}/rollback`, { version: 1 });
    expect(back.body.liveVersion).toBe(1);
    expect((await site.get(`/api/p/events/${event.urlName}/page`)).body.html).toBe('<h1>First</h1>');
    const offline = await organiser.post(`${pageUrl()}/unpublish`);
    expect(offline.body).toMatchObject({ liveVersion: null });
    expect((await site.get(`/api/p/events/${event.urlName}/page`)).status).toBe(404);
    await organiser.post(`${pageUrl()}/rollback`, { version: 1 });
    const unknown = await organiser.post(`${pageUrl()}/rollback`, { version: 9 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(M.eventPageVersionUnknown);
  });

  it('neutralises <script>, on* attributes, javascript: URLs and <iframe> on publish, and serves the page under a strict CSP', async () => {
    const e = await givenEventOnSale(server, tenant.id, { name: 'Hostile Page' });
    await organiser.post(`${pageUrl(e.id)}/start`, { templateId });
    await organiser.put(`${pageUrl(e.id)}/draft`, { project: '{}', html: HOSTILE, css: 'h1{color:blue}</style><script>alert(5)</script>@import url(https://evil.example/x.css);' });
    await organiser.post(`${pageUrl(e.id)}/publish`);
    const site = server.client(tenant.url);
    const page = (await site.get(`/api/p/events/${e.urlName}/page`)).body as { html: string; css: string };
    for (const bad of ['<script', 'onclick', 'onmouseover', 'onerror', 'javascript', 'JaVaScRiPt', '<iframe', '<object', '<form', '<input', 'alert(']) {
      expect(page.html).not.toContain(bad);
    }
    expect(page.html).toContain('<h1>Welcome</h1>');
    expect(page.html).toContain('<img src="x.png" alt="hero" />');
    expect(page.html).toContain('<a href="https://example.org/more" target="_blank" rel="noopener noreferrer">More</a>');
    expect(page.html).toContain('<div data-marquee-tickets></div>');
    expect(page.css).not.toMatch(/<\/style|<script|@import/i);

    const home = await site.get(`/${e.urlName}/`);
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(home.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(home.body).toContain('<h1>Welcome</h1>');
    expect(home.body).toContain('<title>Hostile Page · ');
    expect(home.body).not.toContain('<script>alert');
    expect(home.body).not.toContain('onerror');
  });

  it('an event without a page keeps the default home; a draft event shows nothing', async () => {
    const plain = await givenEventOnSale(server, tenant.id, { name: 'Plain' });
    const site = server.client(tenant.url);
    const home = await site.get(`/${plain.urlName}/`);
    expect(home.headers['content-security-policy']).not.toContain("frame-src 'none'");
    expect((await site.get(`/api/p/events/${plain.urlName}/page`)).status).toBe(404);
    const draft = await givenEventOnSale(server, tenant.id, { name: 'Not yet', status: 'draft' });
    await organiser.post(`${pageUrl(draft.id)}/start`, { templateId });
    await organiser.post(`${pageUrl(draft.id)}/publish`);
    expect((await site.get(`/api/p/events/${draft.urlName}/page`)).status).toBe(404);
  });

  it('another tenant’s event is 404, to its admin and on another host', async () => {
    const other = await givenTenant(server);
    const otherAdmin = await signedIn(server, await givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } }), other.url);
    expect((await otherAdmin.get(pageUrl(event.id, other.id))).status).toBe(404);
    expect((await otherAdmin.post(`${pageUrl(event.id, other.id)}/publish`)).status).toBe(404);
    expect((await otherAdmin.get(pageUrl())).status).toBe(404);
    expect((await server.client(other.url).get(`/api/p/events/${event.urlName}/page`)).status).toBe(404);
  });
});

describe('the allow-list', () => {
  it('keeps layout and drops everything that runs', () => {
    expect(sanitizePageHtml('<section class="a" style="color:red"><p>x</p></section>')).toBe('<section class="a" style="color:red"><p>x</p></section>');
    expect(sanitizePageHtml('<svg><script>alert(1)</script></svg><math></math>')).toBe('');
    expect(sanitizePageHtml('<img src="data:image/png;base64,AAAA"><a href="data:text/html,x">d</a>')).toBe('<img src="data:image/png;base64,AAAA" /><a>d</a>');
    expect(sanitizePageCss('a{background:url(javascript:alert(1))}')).toBe('a{background:url()}');
  });
});
