import { M } from '@marquee/core';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, givenPlatformAdmin, givenUser, lastMailTo, startServer, type TestServer } from '../../../test/harness.js';
import { sessions, users, verificationCodes } from '../../db/schema/index.js';
import { SESSION_COOKIE } from '../../platform/auth/sessions.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const sessionCookieLine = (headers: { 'set-cookie'?: string[] }) => (headers['set-cookie'] ?? []).find((l) => l.startsWith(`${SESSION_COOKIE}=`));

describe('POST /api/auth/login', () => {
  it('signs in with an HttpOnly, SameSite=Lax, host-only cookie and returns the session with its CSRF token', async () => {
    const admin = await givenPlatformAdmin(server);
    const c = server.client();
    const res = await c.post('/api/auth/login', { username: admin.email, password: admin.password });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: admin.id, email: admin.email });
    expect(res.body.csrfToken).toEqual(expect.any(String));
    expect(res.body.csrfToken.length).toBeGreaterThanOrEqual(32);
    expect(res.body.memberships).toEqual([expect.objectContaining({ kind: 'platform', groupId: 'platform' })]);

    const line = sessionCookieLine(res.headers);
    expect(line).toBeDefined();
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    expect(line).toMatch(/;\s*Path=\//i);
    // Host-only: a Domain attribute would share the session with every tenant host.
    expect(line).not.toMatch(/;\s*Domain=/i);
    // Plain http in tests: a Secure cookie would never come back.
    expect(line).not.toMatch(/;\s*Secure/i);
    // The token is opaque and long (>= 128 bits).
    expect(c.cookies.get(SESSION_COOKIE)!.length).toBeGreaterThanOrEqual(32);

    const session = await c.get('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.user.id).toBe(admin.id);
    expect(session.body.csrfToken).toBe(res.body.csrfToken);
  });

  it('accepts the address in any case and with surrounding spaces', async () => {
    const user = await givenUser(server, { email: 'mixed.case@example.test' });
    const res = await server.client().post('/api/auth/login', { username: '  Mixed.Case@Example.TEST ', password: user.password });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
  });

  it('issues a new token at every sign-in', async () => {
    const user = await givenUser(server);
    const c = server.client();
    const first = await c.login(user.email);
    const firstToken = c.cookies.get(SESSION_COOKIE);
    const second = await c.login(user.email);
    const secondToken = c.cookies.get(SESSION_COOKIE);
    expect(firstToken).toBeTruthy();
    expect(secondToken).toBeTruthy();
    expect(secondToken).not.toBe(firstToken);
    expect(second.body.csrfToken).not.toBe(first.body.csrfToken);
    expect((await c.get('/api/auth/session')).body.csrfToken).toBe(second.body.csrfToken);
  });

  it('answers a wrong password, an unknown user and a disabled user exactly alike', async () => {
    const user = await givenUser(server);
    const disabled = await givenUser(server, { status: 'DISABLED' });
    const c = server.client();
    const wrong = await c.post('/api/auth/login', { username: user.email, password: 'Wrong-passw0rd' });
    const unknown = await c.post('/api/auth/login', { username: 'nobody-here@example.test', password: 'Wrong-passw0rd' });
    const off = await c.post('/api/auth/login', { username: disabled.email, password: disabled.password });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: { code: 'UNAUTHENTICATED', message: M.signInFailed, domainCode: 'CREDENTIALS_INVALID' } });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
    expect(off.status).toBe(wrong.status);
    expect(off.body).toEqual(wrong.body);
    expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await c.get('/api/auth/session')).status).toBe(401);
  });

  it('ends the sessions of a user who is disabled later', async () => {
    const user = await givenUser(server);
    const c = server.client();
    await c.login(user.email);
    expect((await c.get('/api/auth/session')).status).toBe(200);
    await server.app.deps.db.update(users).set({ status: 'DISABLED' }).where(eq(users.id, user.id));
    expect((await c.get('/api/auth/session')).status).toBe(401);
  });

  it('refuses an unverified account with 403 and mails a new code that replaces the old one', async () => {
    const pending = await givenUser(server, { status: 'PENDING' });
    const c = server.client();
    const first = await c.post('/api/auth/login', { username: pending.email, password: pending.password });
    expect(first.status).toBe(403);
    expect(first.body.error).toEqual({ code: 'FORBIDDEN', message: M.emailNotVerified, domainCode: 'EMAIL_NOT_VERIFIED' });
    expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(codeFrom((await lastMailTo(server, pending.email))!.text)).toMatch(/^\d{6}$/);
    const liveCodes = () =>
      server.app.deps.db
        .select()
        .from(verificationCodes)
        .where(and(eq(verificationCodes.userId, pending.id), isNull(verificationCodes.usedAt)));
    const [firstRow] = await liveCodes();
    expect(firstRow).toBeDefined();

    const second = await c.post('/api/auth/login', { username: pending.email, password: pending.password });
    expect(second.status).toBe(403);
    const secondMail = await lastMailTo(server, pending.email);
    const secondCode = codeFrom(secondMail!.text);
    // One live code at a time. The second code may repeat the first one's digits (one chance in a
    // million), so the replacement is proven on the rows: the first code is retired, a new row is live.
    const live = await liveCodes();
    expect(live).toHaveLength(1);
    expect(live[0]!.id).not.toBe(firstRow!.id);
    const [retired] = await server.app.deps.db.select().from(verificationCodes).where(eq(verificationCodes.id, firstRow!.id));
    expect(retired!.usedAt).toBeInstanceOf(Date);
    expect((await c.post('/api/auth/verify', { username: pending.email, code: secondCode })).status).toBe(200);
    expect((await c.post('/api/auth/login', { username: pending.email, password: pending.password })).status).toBe(200);
  });

  it('tells only someone with the password that the account is unverified', async () => {
    const pending = await givenUser(server, { status: 'PENDING' });
    const c = server.client();
    const res = await c.post('/api/auth/login', { username: pending.email, password: 'Wrong-passw0rd' });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(M.signInFailed);
    // And no code was mailed to it.
    expect(await lastMailTo(server, pending.email)).toBeUndefined();
  });

  it.each([
    [{ password: 'Whatever1!' }, 'username', M.validEmail],
    [{ username: 'not-an-email', password: 'Whatever1!' }, 'username', M.validEmail],
    [{ username: 'a@example.test' }, 'password', M.passwordRequired],
    [{ username: 'a@example.test', password: '' }, 'password', M.passwordRequired],
  ])('refuses %o with the spec message', async (body, field, message) => {
    const res = await server.client().post('/api/auth/login', body);
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('refuses a NUL character in the address or password as bad input (PostgreSQL text cannot hold it), not a 500', async () => {
    const user = await givenUser(server);
    for (const [body, field] of [
      [{ username: user.email, password: `${user.password}\u0000` }, 'password'],
      [{ username: `${user.email}\u0000`, password: user.password }, 'username'],
    ] as const) {
      const c = server.client();
      const res = await c.post('/api/auth/login', body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: { code: 'VALIDATION', message: M.invalidValue, fields: { [field]: M.invalidValue } } } });
      expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
    }
  });
});

describe('POST /api/auth/logout', () => {
  it('ends the session on the server, not only in the browser', async () => {
    const user = await givenUser(server);
    const c = server.client();
    await c.login(user.email);
    const token = c.cookies.get(SESSION_COOKIE)!;
    const [row] = await server.app.deps.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row).toBeDefined();

    const out = await c.post('/api/auth/logout');
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
    const after = await c.get('/api/auth/session');
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe(M.notSignedIn);

    // Replaying the old cookie value does not bring the session back.
    const replay = server.client();
    replay.cookies.set(SESSION_COOKIE, token);
    expect((await replay.get('/api/auth/session')).status).toBe(401);
    expect(await server.app.deps.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });

  it('ends only this browser’s session', async () => {
    const user = await givenUser(server);
    const a = server.client();
    const b = server.client();
    await a.login(user.email);
    await b.login(user.email);
    await a.post('/api/auth/logout');
    expect((await a.get('/api/auth/session')).status).toBe(401);
    expect((await b.get('/api/auth/session')).status).toBe(200);
  });

  it('is harmless without a session', async () => {
    const res = await server.client().post('/api/auth/logout');
    expect(res.status).toBe(200);
  });

  it('refuses a stale CSRF token as every write does (CSRF_INVALID: the web fetches the current one and retries)', async () => {
    const user = await givenUser(server);
    const c = server.client();
    const login = await c.post('/api/auth/login', { username: user.email, password: user.password });
    const stale = await c.post('/api/auth/logout', {}, { 'x-csrf-token': 'not-the-token' });
    expect(stale.status).toBe(403);
    expect(stale.body.error).toEqual({ code: 'FORBIDDEN', message: M.csrf, domainCode: 'CSRF_INVALID' });
    expect((await c.get('/api/auth/session')).status).toBe(200);
    expect((await c.post('/api/auth/logout', {}, { 'x-csrf-token': login.body.csrfToken })).status).toBe(200);
  });
});

describe('GET /api/auth/session', () => {
  it('is 401 with the spec message without a session or with a made-up cookie', async () => {
    const none = await server.client().get('/api/auth/session');
    expect(none.status).toBe(401);
    expect(none.body.error.message).toBe(M.invalidSessionBody);
    const forged = server.client();
    forged.cookies.set(SESSION_COOKIE, 'made-up-token');
    expect((await forged.get('/api/auth/session')).status).toBe(401);
  });
});

describe('GET /api/auth/session/current (the attendee site asks who is signed in)', () => {
  it('answers 200 with no session to a visitor who is not signed in, without setting a cookie', async () => {
    const res = await server.client().get('/api/auth/session/current');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ session: null });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers the session, with its CSRF token, to someone signed in, and none after they sign out', async () => {
    const user = await givenUser(server, { email: 'current.session@example.test' });
    const c = server.client();
    const login = await c.post('/api/auth/login', { username: user.email, password: user.password });
    expect(login.status).toBe(200);
    const res = await c.get('/api/auth/session/current');
    expect(res.status).toBe(200);
    expect(res.body.session.user.email).toBe('current.session@example.test');
    expect(res.body.session.csrfToken).toBe(login.body.csrfToken);
    expect(res.body.session).toEqual((await c.get('/api/auth/session')).body);
    expect((await c.post('/api/auth/logout', {}, { 'x-csrf-token': login.body.csrfToken })).status).toBe(200);
    expect((await c.get('/api/auth/session/current')).body).toEqual({ session: null });
  });

  it('answers no session to a cookie that names no session', async () => {
    const c = server.client();
    c.cookies.set(SESSION_COOKIE, 'x'.repeat(43));
    const res = await c.get('/api/auth/session/current');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ session: null });
  });
});
