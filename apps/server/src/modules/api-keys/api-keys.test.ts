import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { M, passAlongOption, REPORT_PATHS, type TReportDashboard } from '@marquee/core';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditLog, orders, ticketSettings } from '../../db/schema/index.js';
import {
  checkoutPayload,
  givenTenantAdmin,
  givenTenantWithSettings,
  givenUser,
  givenPlatformAdmin,
  startServer,
  type Client,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { signedIn } from '../../../test/actors.js';
import { givenTwoTenants } from '../../../test/fixtures/two-tenants.js';

// Issue 25: API keys through the one guard, the APP channel, and the audit log.

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let admin: Client;
let otherAdmin: Client;
let event: GivenEventOnSale;
let otherEvent: GivenEventOnSale;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString());
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const keysUrl = (t = tenant) => `/api/tenants/${t.id}/api-keys`;

// The app's own webhook receiver (issue 25's Done-when): it keeps each request's headers and raw body.
type Received = { headers: http.IncomingHttpHeaders; body: string };
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/marquee`;
  // Tests may send webhooks to loopback (docs/webhooks.md "Where messages can go").
  server = await startServer({ webhooks: { allowPrivate: true, timeoutMs: 2000 } });
  ({ tenant, other, admin, otherAdmin, event, otherEvent } = await givenTwoTenants(server, {
    names: ['Keyed Presents', 'Other Presents'],
    event: { ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 100 }] },
    otherEvent: {},
  }));
  // The tenant passes fees along differently on each channel: the APP option is 3, ONLINE stays 1.
  await server.app.deps.db.update(ticketSettings).set({ serviceFeePassAlongOptionApp: passAlongOption('APP', 3) }).where(eq(ticketSettings.tenantId, tenant.id));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/**
 * The Standard Webhooks check written from docs/webhooks.md "Verifying a webhook" alone, with
 * node:crypto (not the library): HMAC-SHA256, keyed by the secret after `whsec_` base64-decoded,
 * over `{webhook-id}.{webhook-timestamp}.{raw body}`, base64, against each `v1,` signature in
 * constant time; a timestamp more than 5 minutes away is refused.
 */
function verifyFromDocs(secret: string, headers: http.IncomingHttpHeaders, rawBody: string): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const timestamp = String(headers['webhook-timestamp'] ?? '');
  if (!id || !/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mine = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((entry) => {
      const comma = entry.indexOf(',');
      const given = Buffer.from(entry.slice(comma + 1), 'base64');
      return entry.slice(0, comma) === 'v1' && given.length === mine.length && timingSafeEqual(given, mine);
    });
}

async function createKey(c: Client, details: Record<string, unknown>, t = tenant) {
  const res = await c.post(keysUrl(t), { details });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string; details: { prefix: string; status: string } };
}

/** A client with no cookie: what an app is. */
const app = (t?: GivenTenant) => server.client(t?.url);

describe('issue 25: the integrated path', () => {
  it('a tenant admin creates a key; an app places and pays an APP order with it; its receiver gets order.paid, signed; its refund is in the audit log with its actor; the revoked key gets 401', async () => {
    // The app listens for paid orders on its own receiver (the admin adds the endpoint; its secret is shown once).
    const hook = await admin.post(`/api/tenants/${tenant.id}/webhooks/endpoints`, { url: receiverUrl, description: 'The app', eventTypes: ['order.paid'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const signingSecret = hook.body.secret as string;
    expect(signingSecret).toMatch(/^whsec_/);

    const key = await createKey(admin, { name: 'Box office app', scopes: ['read', 'orders:write'] });
    expect(key.secret).toMatch(/^mq_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(key.secret.startsWith(key.details.prefix)).toBe(true);
    // Stored hashed: the secret is nowhere in the row.
    const [row] = await server.app.deps.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(JSON.stringify(row)).not.toContain(key.secret.slice('mq_'.length + 12 + 1));

    // The app, from the platform host with no cookie, places the order on behalf of a buyer.
    const placed = await app().post(
      `/api/tenants/${tenant.id}/events/${event.id}/app-orders`,
      checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 2 }], { email: 'app-buyer@example.test' }),
      bearer(key.secret),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const payUrl = new URL(placed.body.message);
    // The buyer pays on the payment page (the test gateway's), as on the website.
    const buyer = server.client(tenant.url);
    const paid = await buyer.request('POST', payUrl.pathname, form({ cardNumber: '4242424242424242', expiry: '11/39', cvc: '999' }), FORM);
    expect(paid.status).toBe(303);
    await server.app.deps.jobs.drain();
    const [order] = await server.app.deps.db.select().from(orders).where(eq(orders.orderUid, placed.body.orderUID));
    expect(order).toMatchObject({ status: 'completed', channel: 'APP', email: 'app-buyer@example.test', userId: null });
    // Priced with the APP pass-along option through the one pricing function.
    expect(JSON.parse(order!.breakdown!).passAlongOption).toBe(3);

    // The receiver got order.paid for it, and the signature verifies by the docs' algorithm; a
    // tampered body or another secret does not.
    const paidHooks = received.filter((r) => JSON.parse(r.body).type === 'order.paid');
    expect(paidHooks).toHaveLength(1);
    const message = paidHooks[0]!;
    expect(JSON.parse(message.body)).toMatchObject({
      id: message.headers['webhook-id'],
      type: 'order.paid',
      version: 1,
      tenantId: tenant.id,
      data: { order: { uid: order!.orderUid, channel: 'APP', totalAmount: order!.totalAmount, buyer: { email: 'app-buyer@example.test' } } },
    });
    expect(verifyFromDocs(signingSecret, message.headers, message.body)).toBe(true);
    expect(verifyFromDocs(signingSecret, message.headers, message.body.replace('app-buyer', 'bad-buyer'))).toBe(false);
    expect(verifyFromDocs(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, message.headers, message.body)).toBe(false);

    // The order shows with its channel on the dashboard (issue 25: "in every list, dashboard and export").
    const dashboard = (await admin.get(REPORT_PATHS.eventDashboard(tenant.id, event.id))).body as TReportDashboard;
    expect(dashboard.channels.find((c) => c.channel === 'APP')).toMatchObject({ orders: 1, gross_sales: order!.totalAmount, tickets_sold: 2 });

    // The same key refunds it (write orders): the audit log names the key and who it acts for.
    const refund = await app().post(
      `/api/tenants/${tenant.id}/events/${event.id}/orders/${order!.orderUid}/refunds`,
      { mode: 'full', reason: 'Changed plans' },
      bearer(key.secret),
    );
    expect(refund.status, JSON.stringify(refund.body).slice(0, 300)).toBe(201);
    const log = await admin.get(`/api/tenants/${tenant.id}/audit-log?filters=details.action=order.refunded`);
    expect(log.status).toBe(200);
    const entry = log.body.result.find((e: { details: { targetId: string } }) => e.details.targetId === order!.orderUid);
    expect(entry.details).toMatchObject({ action: 'order.refunded', actorType: 'key', actorId: key.id, actor: 'Box office app', tenantId: tenant.id, address: '127.0.0.1' });
    expect(entry.details.after).toMatchObject({ amount: order!.totalAmount, mode: 'full', reason: 'Changed plans' });

    // Revoked: the next request is 401, and the revocation is in the log with the admin as actor.
    const revoked = await admin.post(`${keysUrl()}/${key.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.details.status).toBe('REVOKED');
    const refused = await app().get(`/api/tenants/${tenant.id}/events`, bearer(key.secret));
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'UNAUTHENTICATED', message: M.apiKeyInvalid });
    const revokes = await admin.get(`/api/tenants/${tenant.id}/audit-log?filters=details.action=api_key.revoked`);
    expect(revokes.body.result[0].details).toMatchObject({ actorType: 'user', targetId: key.id });
  }, 60_000);
});

describe('API keys', () => {
  it('refuses bad input with 400 and its message, and writes nothing', async () => {
    const before = (await server.app.deps.db.select().from(apiKeys)).length;
    for (const [details, field] of [
      [{ name: '', scopes: ['read'] }, 'details.name'],
      [{ name: 'x'.repeat(101), scopes: ['read'] }, 'details.name'],
      [{ name: 'ok', scopes: [] }, 'details.scopes'],
      [{ name: 'ok', scopes: ['admin'] }, 'details.scopes.0'],
      [{ name: 'ok', scopes: ['read'], expiresAt: 'tomorrow' }, 'details.expiresAt'],
      [{ name: 'ok', scopes: ['read'], expiresAt: '2001-01-01T00:00:00Z' }, 'details.expiresAt'],
    ] as const) {
      const res = await admin.post(keysUrl(), { details });
      expect(res.status, JSON.stringify(details)).toBe(400);
      expect(Object.keys(res.body.error.fields ?? {})).toContain(field);
    }
    expect(await admin.post(`${keysUrl()}/not-a-uuid/revoke`).then((r) => r.status)).toBe(400);
    expect((await server.app.deps.db.select().from(apiKeys)).length).toBe(before);
  });

  it('lists keys with their last use, never their secrets; the last use is written at most once a minute', async () => {
    const key = await createKey(admin, { name: 'Reporting', scopes: ['read'] });
    const listed = await admin.get(keysUrl());
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(key.secret);
    expect(listed.body.result.find((k: { id: string }) => k.id === key.id).details).toMatchObject({ lastUsedAt: null, status: 'ACTIVE', scopes: ['read'] });
    expect((await app().get(`/api/tenants/${tenant.id}/events`, bearer(key.secret))).status).toBe(200);
    const first = (await admin.get(keysUrl())).body.result.find((k: { id: string }) => k.id === key.id).details.lastUsedAt;
    expect(first).not.toBeNull();
    await app().get(`/api/tenants/${tenant.id}/events`, bearer(key.secret));
    const second = (await admin.get(keysUrl())).body.result.find((k: { id: string }) => k.id === key.id).details.lastUsedAt;
    expect(second).toBe(first);
  });

  it('a key reaches only its own tenant (404), only its scopes (403), never session-only routes; an expired or malformed key is 401', async () => {
    const key = await createKey(admin, { name: 'Reader', scopes: ['read'] });
    const h = bearer(key.secret);
    expect((await app().get(`/api/tenants/${tenant.id}/events/${event.id}`, h)).status).toBe(200);
    // Another tenant's ids, from the platform host and from that tenant's host.
    expect((await app().get(`/api/tenants/${other.id}/events/${otherEvent.id}`, h)).status).toBe(404);
    expect((await app(other).get(`/api/tenants/${other.id}/events`, h)).status).toBe(404);
    expect((await app().get(`/api/tenants/${tenant.id}/events/${otherEvent.id}`, h)).status).toBe(404);
    // Outside its scopes, and routes no key may call.
    const write = await app().post(`/api/tenants/${tenant.id}/events/${event.id}/app-orders`, checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 }]), h);
    expect(write.status).toBe(403);
    expect(write.body.error.message).toBe(M.apiKeyNoScope);
    expect((await app().get(keysUrl(), h)).status).toBe(403);
    expect((await app().get(`/api/tenants/${tenant.id}/audit-log`, h)).status).toBe(403);
    const staffList = await app().get(`/api/tenants/${tenant.id}/staff`, h);
    expect(staffList.status).toBe(403);
    expect(staffList.body.error.message).toBe(M.apiKeyNotHere);
    expect((await app().get('/api/platform/audit-log', h)).status).toBe(403);
    // Bad keys.
    for (const bad of ['nonsense', `mq_AAAAAAAAAAAA_${'A'.repeat(43)}`, `${key.details.prefix}_${'B'.repeat(43)}`, '']) {
      const res = await app().get(`/api/tenants/${tenant.id}/events`, { authorization: `Bearer ${bad}` });
      expect(res.status, bad).toBe(401);
    }
    const expiring = await createKey(admin, { name: 'Short-lived', scopes: ['read'], expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await server.app.deps.db.update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, expiring.id));
    expect((await app().get(`/api/tenants/${tenant.id}/events`, bearer(expiring.secret))).status).toBe(401);
  });

  it('another tenant cannot see or revoke the keys (404), staff cannot manage them (403)', async () => {
    const key = await createKey(admin, { name: 'Private', scopes: ['read'] });
    expect((await otherAdmin.get(keysUrl())).status).toBe(404);
    expect((await otherAdmin.post(`${keysUrl()}/${key.id}/revoke`)).status).toBe(404);
    // Its own tenant's path with this tenant's key id: not found either.
    expect((await otherAdmin.post(`${keysUrl(other)}/${key.id}/revoke`)).status).toBe(404);
    const staff = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_staff'] } });
    const staffClient = await signedIn(server, staff, tenant.url);
    expect((await staffClient.get(keysUrl())).status).toBe(403);
    expect((await app().get(`/api/tenants/${tenant.id}/events`, bearer(key.secret))).status).toBe(200);
  });

  it('a bearer request needs no CSRF token; a cookie session still does', async () => {
    const key = await createKey(admin, { name: 'Writer', scopes: ['events:manage'] });
    const body = { details: { name: 'Made by an app' } };
    const cookieOnly = new (admin.constructor as typeof Client)(admin.port, admin.host);
    cookieOnly.cookies = new Map(admin.cookies);
    const noCsrf = await cookieOnly.post(`/api/tenants/${tenant.id}/events`, body);
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.domainCode).toBe('CSRF_INVALID');
    const viaKey = await app().post(`/api/tenants/${tenant.id}/events`, body, bearer(key.secret));
    expect([201, 400]).toContain(viaKey.status);
    expect(viaKey.body.error?.domainCode).not.toBe('CSRF_INVALID');
  });

  it('rate-limits each key: 429 with Retry-After', async () => {
    const limited = await startServer({ rateLimitApiKeyPerMinute: 3 });
    try {
      const t = await givenTenantWithSettings(limited);
      const a = await givenTenantAdmin(limited, t);
      const res = await a.post(`/api/tenants/${t.id}/api-keys`, { details: { name: 'Busy', scopes: ['read'] } });
      const h = bearer(res.body.secret);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.client().get(`/api/tenants/${t.id}/events`, h)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const last = await limited.client().get(`/api/tenants/${t.id}/events`, h);
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
      expect(last.body.error.message).toBe(M.apiKeyRateLimited);
      // Another key is not held back by the first one's requests.
      const second = await a.post(`/api/tenants/${t.id}/api-keys`, { details: { name: 'Quiet', scopes: ['read'] } });
      expect((await limited.client().get(`/api/tenants/${t.id}/events`, bearer(second.body.secret))).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('platform keys: super users create them; they act with their creator’s platform roles, within their scopes', async () => {
    const root = await givenPlatformAdmin(server);
    const su = await signedIn(server, root);
    const created = await su.post('/api/platform/api-keys', { details: { name: 'Finance export', scopes: ['read'] } });
    expect(created.status).toBe(201);
    const h = bearer(created.body.secret);
    expect((await app().get('/api/platform/reports/tenant-list', h)).status).toBe(200);
    expect((await app().get(`/api/tenants/${tenant.id}/events`, h)).status).toBe(200);
    expect((await app().get('/api/platform/api-keys', h)).status).toBe(403);
    // A tenant admin has no platform keys (on a tenant's host, platform routes do not exist).
    expect((await admin.get('/api/platform/api-keys')).status).toBe(404);
    expect((await su.get('/api/platform/api-keys')).body.result.map((k: { id: string }) => k.id)).toContain(created.body.id);
    expect((await su.post(`/api/platform/api-keys/${created.body.id}/revoke`)).status).toBe(200);
    expect((await app().get('/api/platform/reports/tenant-list', h)).status).toBe(401);
  });

  it('the OpenAPI document describes the bearer scheme and each operation’s scope', async () => {
    const doc = (await app().get('/api/docs/openapi.json')).body;
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const op = doc.paths['/api/tenants/{tenantId}/events/{eventId}/app-orders'].post;
    expect(op['x-scope']).toBe('orders:write');
    expect(op.security).toEqual([{ session: [] }, { apiKey: [] }]);
    expect(doc.paths['/api/tenants/{tenantId}/api-keys'].post['x-scope']).toBeNull();
    expect(doc.paths['/api/tenants/{tenantId}/events/{eventId}/checkin/scans']?.post?.['x-scope'] ?? 'checkin').toBe('checkin');
  });
});

describe('the audit log', () => {
  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    await createKey(admin, { name: 'For the log', scopes: ['read'] });
    const db = server.app.deps.db;
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.tenantId, tenant.id)).limit(1);
    const refusal = (q: Promise<unknown>) =>
      q.then(
        () => 'allowed',
        (err: Error & { cause?: Error }) => (err.cause ?? err).message,
      );
    expect(await refusal(db.execute(sql`update audit_log set actor = 'someone else' where id = ${entry!.id}`))).toMatch(/append-only: UPDATE refused/);
    expect(await refusal(db.execute(sql`delete from audit_log where id = ${entry!.id}`))).toMatch(/append-only: DELETE refused/);
    expect(await refusal(db.execute(sql`truncate audit_log`))).toMatch(/append-only: TRUNCATE refused/);
    const [still] = await db.select().from(auditLog).where(eq(auditLog.id, entry!.id));
    expect(still).toEqual(entry);
  });

  it('tenant admins see their own tenant’s entries only; operators see all; filters and CSV', async () => {
    await createKey(otherAdmin, { name: 'Other key', scopes: ['read'] }, other);
    const mine = await admin.get(`/api/tenants/${tenant.id}/audit-log?limit=100`);
    expect(mine.status).toBe(200);
    expect(mine.body.result.every((e: { details: { tenantId: string } }) => e.details.tenantId === tenant.id)).toBe(true);
    expect(JSON.stringify(mine.body)).not.toContain('Other key');
    expect((await otherAdmin.get(`/api/tenants/${tenant.id}/audit-log`)).status).toBe(404);
    expect((await admin.get('/api/platform/audit-log')).status).toBe(404);

    const root = await givenPlatformAdmin(server);
    const su = await signedIn(server, root);
    const all = await su.get('/api/platform/audit-log?limit=100&filters=details.action=api_key.created');
    expect(all.status).toBe(200);
    const tenantsSeen = new Set(all.body.result.map((e: { details: { tenantId: string } }) => e.details.tenantId));
    expect(tenantsSeen.has(tenant.id) && tenantsSeen.has(other.id)).toBe(true);
    // Filters: actor, date range; a bad filter is a 400.
    const byActor = await su.get(`/api/platform/audit-log?filters=${encodeURIComponent('details.actor=Other')}&filters=details.actorType=key`);
    expect(byActor.status).toBe(200);
    const range = await admin.get(`/api/tenants/${tenant.id}/audit-log?filters=${encodeURIComponent('details.dateCreated>=2000-01-01T00:00:00Z')}&filters=${encodeURIComponent('details.dateCreated<=2001-01-01T00:00:00Z')}`);
    expect(range.body).toMatchObject({ result: [], count: 0 });
    expect((await admin.get(`/api/tenants/${tenant.id}/audit-log?filters=details.nope=1`)).status).toBe(400);
    expect((await admin.get(`/api/tenants/${tenant.id}/audit-log?limit=0`)).status).toBe(400);

    const csv = await admin.get(`/api/tenants/${tenant.id}/audit-log/download?filters=details.action=api_key.created`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = String(csv.body).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Date,Action,Actor type,Actor,Actor id,Tenant,Target type,Target id,Before,After,Address');
    expect(lines.slice(1).every((l) => l.includes('api_key.created'))).toBe(true);
    // The download is itself recorded.
    const exports = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, tenant.id), eq(auditLog.action, 'export.downloaded')));
    expect(exports.length).toBeGreaterThan(0);
  });

  it('records fee settings changes with before and after, and tenants created', async () => {
    const root = await givenPlatformAdmin(server);
    const su = await signedIn(server, root);
    const created = await su.post('/api/tenants', { details: { name: 'Audited Co', url: `aud${Date.now() % 100000}`, email: 'hi@audited.test', phone: '+15555550123', inviteTemplateSubject: 'Join', inviteTemplateBody: 'Join us.' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const entries = await db().select().from(auditLog).where(eq(auditLog.tenantId, created.body.id));
    expect(entries.map((e) => e.action).sort()).toEqual(['staff.invited', 'tenant.created']);
    expect(entries.find((e) => e.action === 'tenant.created')).toMatchObject({ actorType: 'user', actor: root.email });
  });
});

const db = () => server.app.deps.db;
