import http from 'node:http';
import { M, TENANT_ROLES } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutPayload,
  givenEventOnSale,
  givenTenantWithSettings,
  givenUser,
  startServer,
  type Client,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../test/harness.js';

// issue 14 §3, §5, §8: requests an attacker sends on purpose. Each was a 500, a 50 MB read, or a
// check that let the request through, before its fix.

let server: TestServer;
let tenant: GivenTenant;
let event: GivenEventOnSale;
let admin: Client;
let adminUser: { email: string };

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  event = await givenEventOnSale(server, tenant.id, { capacity: 10, ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 10 }] });
  adminUser = await givenUser(server, { tenant: { id: tenant.id, roles: [...TENANT_ROLES] } });
  admin = server.client();
  await admin.login(adminUser.email);
});
afterAll(async () => {
  await server.close();
});

/** A raw request, so that headers and bodies are exactly what an attacker would send. */
function raw(opts: { method: string; path: string; headers?: Record<string, string | number>; body?: Buffer }) {
  return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, agent: false, method: opts.method, path: opts.path, headers: { host: `localhost:${server.port}`, ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

describe('prototype keys as ids (§5)', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('an eventId of %s is a 404, not a 500', async (eventId) => {
    const res = await admin.post(`/api/tenants/${tenant.id}/events/${eventId}/staff/invites`, { email: 'x@example.test', roles: ['event_manager'] });
    expect(res.status).toBe(404);
    const staff = await givenUser(server, { event: { tenantId: tenant.id, eventId: event.id, roles: ['event_manager'] } });
    const c = server.client();
    await c.login(staff.email);
    expect((await c.post(`/api/tenants/${tenant.id}/events/${eventId}/staff/invites`, { email: 'x@example.test', roles: ['event_manager'] })).status).toBe(404);
  });
});

describe('signed file URLs (§5)', () => {
  it('refuse a signature of multi-byte characters with a 404, not a 500', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    // As many characters as a real signature (43), but more bytes.
    const sig = encodeURIComponent('é'.repeat(43));
    expect((await server.client().get(`/api/files/tenants/x/logo.png?exp=${exp}&sig=${sig}`)).status).toBe(404);
    const put = await server.client().request('PUT', `/api/uploads/tenants/x/logo.png?exp=${exp}&max=100&types=image%2Fpng&sig=${sig}`, Buffer.from('x'), { 'content-type': 'image/png' });
    expect(put.status).toBe(404);
  });
});

describe('invalid Unicode (§5)', () => {
  it.each(['firstName', 'lastName', 'email', 'address1', 'city'])('a lone surrogate in PLACE ORDER %s is a 400', async (field) => {
    const body = checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 }], { [field]: `Ada\ud800` });
    const res = await server.client(tenant.url).post(`/api/p/tenants/${tenant.id}/events/${event.id}/orders`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION');
    expect(res.body.error.fields[`order.${field}`]).toBe(M.invalidValue);
  });

  it('is refused everywhere: a profile name, a key', async () => {
    const user = await givenUser(server);
    const c = server.client();
    await c.login(user.email);
    const profile = await c.patch(`/api/users/${user.id}/profile`, { firstName: 'Lo\udc00ne' });
    expect(profile.status).toBe(400);
    expect(profile.body.error.fields.firstName).toBe(M.invalidValue);
    const key = await c.patch(`/api/users/${user.id}/profile`, { ['city\ud800']: 'x' });
    expect(key.status).toBe(400);
  });
});

describe('date filters outside what PostgreSQL holds (§5)', () => {
  it.each(['8640000000000000', '-8640000000000000', '+275760-09-13T00:00:00.000Z', '10000-01-01'])('details.dateCreated>%s is a 400', async (value) => {
    const platformAdmin = await givenUser(server, { platformRoles: ['super_user'] });
    const c = server.client();
    await c.login(platformAdmin.email);
    const res = await c.get(`/api/platform/outbox?filters=${encodeURIComponent(`details.dateCreated>${value}`)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'BAD_REQUEST', message: 'Invalid filter value for details.dateCreated.' });
  });
});

describe('request bodies (§3)', () => {
  it('a route that takes JSON refuses octet-stream at once, before reading it', async () => {
    // Declares 40 MB but sends none of it: a server that waits to read it never answers.
    const res = await Promise.race([
      raw({ method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/octet-stream', 'content-length': 40 * 1024 * 1024 } }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000)),
    ]);
    expect(res).not.toBeNull();
    expect([413, 415]).toContain(res!.status);
  });

  it('an upload with a bad signature is refused before its body is read', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const res = await Promise.race([
      raw({
        method: 'PUT',
        path: `/api/uploads/tenants/x/logo.png?exp=${exp}&max=100&types=image%2Fpng&sig=${'a'.repeat(43)}`,
        headers: { 'content-type': 'image/png', 'content-length': 40 * 1024 * 1024 },
      }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000)),
    ]);
    expect(res).not.toBeNull();
    expect(res!.status).toBe(404);
  });

  it('an upload larger than its grant is refused from its declared length', async () => {
    const key = `tenants/${tenant.id}/probe.png`;
    const url = server.app.deps.storage.uploadUrl(key, { maxBytes: 1000, types: ['image/png'] });
    const res = await Promise.race([
      raw({ method: 'PUT', path: url, headers: { 'content-type': 'image/png', 'content-length': 40 * 1024 * 1024 } }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000)),
    ]);
    expect(res).not.toBeNull();
    expect(res!.status).toBe(413);
  });
});

describe('hosts and origins (§8)', () => {
  it('answers no API request on a host that is neither the base domain nor a tenant of it', async () => {
    const res = await raw({ method: 'GET', path: '/api/auth/session', headers: { host: `attacker.example:${server.port}` } });
    expect(res.status).toBe(404);
    const login = await raw({
      method: 'POST',
      path: '/api/auth/login',
      headers: { host: `127.0.0.1:${server.port}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ username: adminUser.email, password: 'Sup3r-secret!' })),
    });
    expect(login.status).toBe(404);
  });

  it('refuses a write with Origin: null', async () => {
    const res = await admin.post(`/api/tenants/${tenant.id}/staff/invites`, { email: 'null-origin@example.test', roles: ['tenant_staff'] }, { origin: 'null' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(M.csrf);
  });

  it('does not sign out on a request without the CSRF token', async () => {
    const user = await givenUser(server);
    const c = server.client();
    await c.login(user.email);
    const forged = await c.post('/api/auth/logout', undefined, { 'x-csrf-token': 'forged' });
    expect(forged.status).toBe(403);
    expect((await c.get('/api/auth/session')).status).toBe(200);
    expect((await c.post('/api/auth/logout')).status).toBe(200);
    expect((await c.get('/api/auth/session')).status).toBe(401);
  });

  it('sets Secure cookies and HSTS behind a trusted proxy that says https', async () => {
    const user = await givenUser(server);
    const res = await raw({
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: Buffer.from(JSON.stringify({ username: user.email, password: 'Sup3r-secret!' })),
    });
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']!.join(';')).toMatch(/;\s*Secure/i);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    // Without the proxy's word, plain http stays plain.
    const plain = await raw({
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ username: user.email, password: 'Sup3r-secret!' })),
    });
    expect(plain.headers['set-cookie']!.join(';')).not.toMatch(/;\s*Secure/i);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('malformed multipart uploads (found by the OpenAPI fuzz suite)', () => {
  const bodies: Array<[string, string, string]> = [
    ['no boundary', 'multipart/form-data', '\x89PNG\r\n'],
    ['not multipart at all', 'multipart/form-data; boundary=zz', 'garbage'],
    ['a part that never ends', 'multipart/form-data; boundary=zz', '--zz\r\nContent-Disposition: form-data; name="f"; filename="a.png"\r\n\r\nabc'],
  ];
  it.each(bodies)('answers 400 with the route\'s message to an upload with %s (was a 500)', async (_, contentType, body) => {
    const me = (await admin.get('/api/auth/session')).body;
    const userId = me.user?.id ?? me.id;
    const routes: Array<[string, string, number]> = [
      [`/api/tenants/${tenant.id}/logo`, M.logoType, 400],
      [`/api/tenants/${tenant.id}/events/${event.id}/seatmap`, M.seatmapType, 400],
      [`/api/users/${userId}/picture`, M.pictureType, 400],
    ];
    for (const [path, message, status] of routes) {
      const res = await admin.request('POST', path, Buffer.from(body), { 'content-type': contentType });
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status, body: { error: { code: 'BAD_REQUEST', message } } });
    }
  });
});
