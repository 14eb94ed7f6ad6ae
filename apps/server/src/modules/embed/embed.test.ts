import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { M, M_EMBED } from '@marquee/core';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, embedOrigins } from '../../db/schema/index.js';
import { checkoutPayload, givenEventOnSale, givenTenantWithAdmin, givenUser, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { signedIn } from '../../../test/actors.js';
import { WIDGET_JS } from './widget-script.js';

// Issue 28, selling on the organiser's website: the tenant's allowed websites (validated,
// normalised, another tenant's a 404), the embeddable pages' frame-ancestors (those pages only),
// the widget's script, and a checkout that may return to an allowed website only.

let server: TestServer;
let acme: { tenant: GivenTenant; admin: Client };
let other: { tenant: GivenTenant; admin: Client };
let webDist: string;
const settings = (tenantId: string) => `/api/tenants/${tenantId}/embed-settings`;
const put = (c: Client, tenantId: string, origins: unknown[]) => c.put(settings(tenantId), { details: { origins } });

beforeAll(async () => {
  // The embeddable pages are the web app's document: a stand-in for the build.
  webDist = mkdtempSync(path.join(os.tmpdir(), 'marquee-embed-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html><head><title>Marquee</title></head><body><div id="root"></div></body></html>');
  server = await startServer({ webDist });
  acme = await givenTenantWithAdmin(server);
  other = await givenTenantWithAdmin(server);
});
afterAll(async () => {
  await server?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('the websites allowed to embed', () => {
  it('starts empty, saves a list normalised to origins (one of each), and reads it back in order', async () => {
    const empty = await acme.admin.get(settings(acme.tenant.id));
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ id: acme.tenant.id, details: { origins: [] } });
    const saved = await put(acme.admin, acme.tenant.id, ['https://WWW.Example.com/', 'https://shop.example.org:8443', 'https://www.example.com:443', 'http://localhost:5173']);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toEqual({
      success: true,
      message: M_EMBED.saved,
      settings: { id: acme.tenant.id, details: { origins: ['https://www.example.com', 'https://shop.example.org:8443', 'http://localhost:5173'] } },
    });
    expect((await acme.admin.get(settings(acme.tenant.id))).body.details.origins).toEqual(['https://www.example.com', 'https://shop.example.org:8443', 'http://localhost:5173']);
    const [entry] = await server.app.deps.db.select().from(auditLog).where(eq(auditLog.tenantId, acme.tenant.id)).orderBy(sql`${auditLog.createdAt} desc`).limit(1);
    expect(entry?.action).toBe('embed.origins_changed');
  });

  it.each([
    ['www.example.com', M_EMBED.originInvalid],
    ['ftp://example.com', M_EMBED.originInvalid],
    ['https://example.com/tickets', M_EMBED.originInvalid],
    ['https://example.com/?a=1', M_EMBED.originInvalid],
    ['https://example.com#x', M_EMBED.originInvalid],
    ['https://user:secret@example.com', M_EMBED.originInvalid],
    ['javascript:alert(1)', M_EMBED.originInvalid],
    ['https://', M_EMBED.originInvalid],
    ['', M_EMBED.originInvalid],
    ['http://example.com', M_EMBED.originHttps],
    ['http://127.0.0.1.example.com', M_EMBED.originHttps],
  ])('refuses %j with a clear message, and keeps the list it had', async (origin, message) => {
    const before = (await acme.admin.get(settings(acme.tenant.id))).body.details.origins;
    const res = await put(acme.admin, acme.tenant.id, ['https://ok.example.com', origin]);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION', message, fields: { 'details.origins.1': message } });
    expect((await acme.admin.get(settings(acme.tenant.id))).body.details.origins).toEqual(before);
  });

  it('refuses more than 20 websites, and a body that is not a list', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`);
    const res = await put(acme.admin, acme.tenant.id, many);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(M_EMBED.originsTooMany);
    for (const body of [{ details: { origins: 'https://a.example.com' } }, { details: {} }, {}, { details: { origins: [42] } }]) {
      const bad = await acme.admin.put(settings(acme.tenant.id), body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('allows http:// only for localhost on a server that runs on https', async () => {
    const secure = await startServer({ publicScheme: 'https' });
    try {
      const t = await givenTenantWithAdmin(secure);
      const res = await put(t.admin, t.tenant.id, ['http://localhost:5173']);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(M_EMBED.originHttps);
      expect((await put(t.admin, t.tenant.id, ['https://localhost:5173'])).status).toBe(200);
    } finally {
      await secure.close();
    }
  });

  it("is another tenant's 404: neither read nor changed", async () => {
    await put(acme.admin, acme.tenant.id, ['https://www.example.com']);
    const read = await other.admin.get(settings(acme.tenant.id));
    expect(read.status).toBe(404);
    expect(JSON.stringify(read.body)).not.toContain('example.com');
    const write = await put(other.admin, acme.tenant.id, ['https://evil.example']);
    expect(write.status).toBe(404);
    // Even on the victim's host, with the other tenant's own session there.
    const onVictimHost = await signedIn(server, { email: (await givenUser(server, { tenant: { id: other.tenant.id, roles: ['tenant_admin'] } })).email }, acme.tenant.url);
    expect((await put(onVictimHost, acme.tenant.id, ['https://evil.example'])).status).toBe(404);
    const rows = await server.app.deps.db.select().from(embedOrigins).where(eq(embedOrigins.tenantId, acme.tenant.id));
    expect(rows.map((r) => r.origin)).toEqual(['https://www.example.com']);
  });

  it('is for the tenant admin: staff and anonymous visitors are refused', async () => {
    const staff = await givenUser(server, { tenant: { id: acme.tenant.id, roles: ['tenant_staff'] } });
    const c = await signedIn(server, staff, acme.tenant.url);
    expect((await c.get(settings(acme.tenant.id))).status).toBe(403);
    expect((await put(c, acme.tenant.id, ['https://evil.example'])).status).toBe(403);
    expect((await server.client(acme.tenant.url).get(settings(acme.tenant.id))).status).toBe(401);
  });
});

describe('the embeddable pages and the widget script', () => {
  it('lets the allowed websites frame /embed/… only; every other page still refuses framing', async () => {
    await put(acme.admin, acme.tenant.id, ['https://www.example.com', 'http://localhost:5173']);
    const site = server.client(acme.tenant.url);
    for (const url of ['/embed/gala/tickets', '/embed/gala', '/embed/gala/success?orderID=x']) {
      const res = await site.get(url);
      expect(res.status, url).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain('frame-ancestors https://www.example.com http://localhost:5173');
      expect(csp).not.toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.raw.toString()).toContain('<meta name="mq-embed-origins" content="https://www.example.com http://localhost:5173">');
    }
    // Another tenant's embeddable pages: its own list (none), so nobody may frame them.
    const otherPage = await server.client(other.tenant.url).get('/embed/gala/tickets');
    expect(otherPage.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(otherPage.raw.toString()).not.toContain('example.com');
    // The tenant's other pages and the API keep refusing every frame.
    for (const url of ['/', '/login', '/gala/tickets', '/api/site/context']) {
      const res = await site.get(url);
      expect(String(res.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
    // The platform host has no embeddable pages.
    const platform = await server.client().get('/embed/gala/tickets');
    expect(String(platform.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('serves widget.js to any website, cacheable', async () => {
    const res = await server.client(acme.tenant.url).get('/widget.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.raw.toString()).toBe(WIDGET_JS);
    expect(res.raw.length).toBeLessThan(4096);
    const again = await server.client(acme.tenant.url).get('/widget.js', { 'if-none-match': String(res.headers.etag) });
    expect(again.status).toBe(304);
  });
});

describe("a widget checkout's return address", () => {
  it("may be an allowed website of this tenant, never another website or another tenant's", async () => {
    await put(acme.admin, acme.tenant.id, ['https://www.example.com']);
    await put(other.admin, other.tenant.id, ['https://other.example']);
    const event = await givenEventOnSale(server, acme.tenant.id, { ticketTypes: [{ name: 'GA', price: 2500, quantity: 50 }] });
    const path = `/api/p/tenants/${acme.tenant.id}/events/${event.id}/orders`;
    const lines = [{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 }];
    const site = server.client(acme.tenant.url);
    const ok = await site.post(path, {
      ...checkoutPayload(lines),
      successUrl: `https://www.example.com/shows/gala?mq_event=${event.urlName}`,
      cancelUrl: `https://www.example.com/shows/gala?mq_event=${event.urlName}&mq_step=account`,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const sessionId = new URL(ok.body.message).pathname.split('/').pop()!;
    const rows = await server.app.deps.db.execute(sql`select success_url, cancel_url from test_checkout_sessions where id = ${sessionId}`);
    const session = (rows as unknown as { rows: Array<{ success_url: string; cancel_url: string }> }).rows[0]!;
    expect(session.success_url).toBe(`https://www.example.com/shows/gala?mq_event=${event.urlName}&orderID=${ok.body.orderUID}`);
    expect(session.cancel_url).toBe(`https://www.example.com/shows/gala?mq_event=${event.urlName}&mq_step=account`);
    for (const url of ['https://other.example/x', 'http://www.example.com/x', 'https://www.example.com.evil.example/x', 'https://evil.example/?https://www.example.com']) {
      const bad = await site.post(path, { ...checkoutPayload(lines), successUrl: url });
      expect(bad.status, url).toBe(400);
      expect(bad.body.error.message).toBe(M.redirectUrlInvalid);
    }
  });
});
