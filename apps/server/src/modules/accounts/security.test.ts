import { M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenTenant, givenUser, startServer, type GivenUser, type TestServer } from '../../../test/harness.js';
import { sessions } from '../../db/schema/index.js';
import { SESSION_COOKIE } from '../../platform/auth/sessions.js';
import { sha256 } from '../../platform/auth/tokens.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function signedIn(user: GivenUser, tenantUrl?: string) {
  const c = server.client(tenantUrl);
  await c.login(user.email, user.password);
  return c;
}

const tokenHashOf = (c: ReturnType<TestServer['client']>) => sha256(c.cookies.get(SESSION_COOKIE)!);

describe('session expiry', () => {
  it('ends a session idle for longer than the idle limit', async () => {
    const c = await signedIn(await givenUser(server));
    const idleMs = server.config.sessionIdleMinutes * 60_000;
    // Just inside the idle window the session lives (and is touched) ...
    await server.app.deps.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - idleMs + 60_000) })
      .where(eq(sessions.tokenHash, tokenHashOf(c)));
    expect((await c.get('/api/auth/session')).status).toBe(200);
    const [touched] = await server.app.deps.db.select().from(sessions).where(eq(sessions.tokenHash, tokenHashOf(c)));
    expect(Date.now() - touched!.lastSeenAt.getTime()).toBeLessThan(60_000);

    // ... just past it, it is over.
    await server.app.deps.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - idleMs - 1000) })
      .where(eq(sessions.tokenHash, tokenHashOf(c)));
    const res = await c.get('/api/auth/session');
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(M.notSignedIn);
  });

  it('ends a session past its absolute expiry even while in use', async () => {
    const c = await signedIn(await givenUser(server));
    const [row] = await server.app.deps.db.select().from(sessions).where(eq(sessions.tokenHash, tokenHashOf(c)));
    // The absolute limit comes from SESSION_MAX_HOURS.
    const expected = row!.createdAt.getTime() + server.config.sessionMaxHours * 3600_000;
    expect(Math.abs(row!.expiresAt.getTime() - expected)).toBeLessThan(5000);

    await server.app.deps.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000), lastSeenAt: new Date() })
      .where(eq(sessions.tokenHash, tokenHashOf(c)));
    expect((await c.get('/api/auth/session')).status).toBe(401);
  });

  it('sends the cookie with the session’s absolute expiry', async () => {
    const user = await givenUser(server);
    const res = await server.client().post('/api/auth/login', { username: user.email, password: user.password });
    const line = (res.headers['set-cookie'] ?? []).find((l) => l.startsWith(`${SESSION_COOKIE}=`))!;
    const expires = /Expires=([^;]+)/i.exec(line)?.[1];
    expect(expires).toBeDefined();
    const inHours = (new Date(expires!).getTime() - Date.now()) / 3600_000;
    expect(inHours).toBeGreaterThan(server.config.sessionMaxHours - 1);
    expect(inHours).toBeLessThanOrEqual(server.config.sessionMaxHours);
  });
});

describe('sessions are bound to the host that created them', () => {
  it('does not honour a platform session cookie on a tenant host, nor a tenant one on the platform host', async () => {
    const tenant = await givenTenant(server);
    const user = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] }, platformRoles: ['super_user'] });
    const platform = await signedIn(user);
    const onTenant = server.client(tenant.url);
    onTenant.cookies.set(SESSION_COOKIE, platform.cookies.get(SESSION_COOKIE)!);
    onTenant.csrf = platform.csrf;
    const res = await onTenant.get('/api/auth/session');
    expect(res.status).toBe(401);
    // Nor can it act there.
    const invite = await onTenant.post(`/api/tenants/${tenant.id}/staff/invites`, { email: 'x@example.test', roles: ['tenant_staff'] });
    expect(invite.status).toBe(401);

    const tenantSide = await signedIn(user, tenant.url);
    expect((await tenantSide.get('/api/auth/session')).status).toBe(200);
    const onPlatform = server.client();
    onPlatform.cookies.set(SESSION_COOKIE, tenantSide.cookies.get(SESSION_COOKIE)!);
    expect((await onPlatform.get('/api/auth/session')).status).toBe(401);
    // The other tenant's host neither.
    const other = await givenTenant(server);
    const onOther = server.client(other.url);
    onOther.cookies.set(SESSION_COOKIE, tenantSide.cookies.get(SESSION_COOKIE)!);
    expect((await onOther.get('/api/auth/session')).status).toBe(401);
  });
});

describe('CSRF', () => {
  it('refuses a cookie-authenticated write without the x-csrf-token header', async () => {
    const user = await givenUser(server);
    const c = await signedIn(user);
    const token = c.csrf;
    c.csrf = null;
    const patch = await c.patch(`/api/users/${user.id}/profile`, { city: 'Nowhere' });
    expect(patch.status).toBe(403);
    expect(patch.body.error.message).toBe(M.csrf);
    const post = await c.post('/api/auth/change-password', { oldPassword: user.password, password: 'An0ther-secret!' });
    expect(post.status).toBe(403);
    expect(post.body.error.message).toBe(M.csrf);
    const wrong = await c.patch(`/api/users/${user.id}/profile`, { city: 'Nowhere' }, { 'x-csrf-token': 'not-the-token' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe(M.csrf);
    // Nothing was written.
    expect((await c.get(`/api/users/${user.id}/profile`)).body.city).toBeNull();

    c.csrf = token;
    const ok = await c.patch(`/api/users/${user.id}/profile`, { city: 'Somewhere' });
    expect(ok.status).toBe(200);
    expect(ok.body.city).toBe('Somewhere');
  });

  it('refuses a write whose Origin names another host, even with the right token', async () => {
    const user = await givenUser(server);
    const c = await signedIn(user);
    for (const origin of ['http://evil.example', `http://localhost:${server.port + 1}`, 'http://attacker.localhost', 'not a url']) {
      const res = await c.patch(`/api/users/${user.id}/profile`, { city: 'Evil' }, { origin });
      expect(res.status, origin).toBe(403);
      expect(res.body.error.message).toBe(M.csrf);
    }
    const same = await c.patch(`/api/users/${user.id}/profile`, { city: 'Home' }, { origin: `http://localhost:${server.port}` });
    expect(same.status).toBe(200);
  });

  it('refuses a cross-origin sign-in (login CSRF)', async () => {
    const user = await givenUser(server);
    const c = server.client();
    const res = await c.post('/api/auth/login', { username: user.email, password: user.password }, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(M.csrf);
    expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('a tenant host’s page cannot write to the platform host', async () => {
    const tenant = await givenTenant(server);
    const user = await givenUser(server);
    const c = await signedIn(user);
    const res = await c.patch(`/api/users/${user.id}/profile`, { city: 'X' }, { origin: `http://${tenant.url}.localhost:${server.port}` });
    expect(res.status).toBe(403);
  });

  it('does not ask for the token on reads', async () => {
    const user = await givenUser(server);
    const c = await signedIn(user);
    c.csrf = null;
    expect((await c.get(`/api/users/${user.id}/profile`)).status).toBe(200);
  });
});
