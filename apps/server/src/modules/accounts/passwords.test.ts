import { M } from '@marquee/core';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, givenTenant, givenUser, lastMailTo, linkFrom, startServer, type GivenUser, type TestServer } from '../../../test/harness.js';
import { sessions, users, verificationCodes } from '../../db/schema/index.js';
import { SESSION_COOKIE } from '../../platform/auth/sessions.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const NEW = 'N3w-secret!pass';

async function signedIn(user: GivenUser, password = user.password) {
  const c = server.client();
  await c.login(user.email, password);
  return c;
}

async function resetCodeFor(email: string, tenantUrl?: string) {
  const res = await server.client(tenantUrl).post('/api/auth/forgot-password', { username: email });
  expect(res.status).toBe(202);
  const mail = await lastMailTo(server, email);
  return { code: codeFrom(mail!.text), mail: mail! };
}

describe('POST /api/auth/forgot-password', () => {
  it('answers known, unknown and disabled addresses with the same 202 and body', async () => {
    const known = await givenUser(server);
    const disabled = await givenUser(server, { status: 'DISABLED' });
    const c = server.client();
    const a = await c.post('/api/auth/forgot-password', { username: known.email });
    const b = await c.post('/api/auth/forgot-password', { username: 'nobody-at-all@example.test' });
    const d = await c.post('/api/auth/forgot-password', { username: disabled.email });
    expect(a.status).toBe(202);
    expect(a.body).toEqual({ success: true, message: M.codeSent });
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    expect(d.status).toBe(a.status);
    expect(d.body).toEqual(a.body);
    // Only the real, enabled account gets a mail.
    expect(await lastMailTo(server, known.email)).toBeDefined();
    expect(await lastMailTo(server, 'nobody-at-all@example.test')).toBeUndefined();
    expect(await lastMailTo(server, disabled.email)).toBeUndefined();
  });

  it('mails a code and a /forgot-password link on the host that asked', async () => {
    const user = await givenUser(server);
    const { code, mail } = await resetCodeFor(user.email);
    expect(mail.subject).toBe('Reset your Marquee password');
    const link = linkFrom(mail.text);
    expect(link.origin).toBe(`http://localhost:${server.port}`);
    expect(link.pathname).toBe('/forgot-password');
    expect(link.searchParams.get('username')).toBe(user.email);
    expect(link.searchParams.get('code')).toBe(code);

    const tenant = await givenTenant(server);
    const onTenant = await resetCodeFor(user.email, tenant.url);
    expect(linkFrom(onTenant.mail.text).origin).toBe(`http://${tenant.url}.localhost:${server.port}`);
  });

  it('never writes a link to a host the request made up (reset-link poisoning)', async () => {
    const user = await givenUser(server);
    // A host that is neither the base domain nor one of its tenants is not answered at all
    // (issue 14 §8, DNS rebinding), so no mail goes out for it.
    for (const host of ['evil.example', `evil.example:${server.port}`, `localhost.evil.example:${server.port}`]) {
      const res = await server.client().post('/api/auth/forgot-password', { username: user.email }, { host });
      expect(res.status, host).toBe(404);
      expect(await lastMailTo(server, user.email)).toBeUndefined();
    }
    const res = await server.client().post('/api/auth/forgot-password', { username: user.email });
    expect(res.status).toBe(202);
    expect(linkFrom((await lastMailTo(server, user.email))!.text).origin).toBe(`http://localhost:${server.port}`);
    // Nor in the mail that tells an owner someone tried to sign up with their address.
    const body = { username: user.email, password: NEW, password2: NEW, firstName: 'Eve', lastName: 'Il', appType: 'ATTENDEE' };
    expect((await server.client().post('/api/auth/register', body, { host: 'evil.example' })).status).toBe(404);
    expect((await server.client().post('/api/auth/register', body)).status).toBe(201);
    const mail = await lastMailTo(server, user.email);
    expect(mail!.subject).toBe('You already have a Marquee account');
    expect(mail!.text).toContain(`http://localhost:${server.port}/forgot-password`);
  });

  it('refuses a malformed address with the spec message', async () => {
    const res = await server.client().post('/api/auth/forgot-password', { username: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.username).toBe(M.validEmail);
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password with the mailed code, once, and ends every session', async () => {
    const user = await givenUser(server);
    const a = await signedIn(user);
    const b = await signedIn(user);
    const { code } = await resetCodeFor(user.email);

    const c = server.client();
    const res = await c.post('/api/auth/reset-password', { username: user.email, code, password: NEW, password2: NEW });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await a.get('/api/auth/session')).status).toBe(401);
    expect((await b.get('/api/auth/session')).status).toBe(401);
    expect(await server.app.deps.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);

    // The code works once.
    const again = await c.post('/api/auth/reset-password', { username: user.email, code, password: 'Th1rd-secret!', password2: 'Th1rd-secret!' });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(M.invalidCode);

    expect((await c.post('/api/auth/login', { username: user.email, password: user.password })).status).toBe(401);
    expect((await c.post('/api/auth/login', { username: user.email, password: NEW })).status).toBe(200);
  });

  it('refuses a wrong, expired, burnt or sign-up code and keeps the old password', async () => {
    const user = await givenUser(server);
    const { code } = await resetCodeFor(user.email);
    const c = server.client();
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const body = (k: string) => ({ username: user.email, code: k, password: NEW, password2: NEW });

    await server.app.deps.db
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(verificationCodes.userId, user.id), eq(verificationCodes.purpose, 'reset'), isNull(verificationCodes.usedAt)));
    const expired = await c.post('/api/auth/reset-password', body(code));
    expect(expired.status).toBe(400);
    expect(expired.body.error.message).toBe(M.invalidCode);

    const fresh = (await resetCodeFor(user.email)).code;
    for (let i = 0; i < 5; i++) expect((await c.post('/api/auth/reset-password', body(fresh === wrong ? code : wrong))).status).toBe(400);
    const burnt = await c.post('/api/auth/reset-password', body(fresh));
    expect(burnt.status).toBe(400);
    expect(burnt.body.error.message).toBe(M.invalidCode);

    // A sign-up code is not a reset code.
    const pending = await givenUser(server, { status: 'PENDING' });
    await c.post('/api/auth/login', { username: pending.email, password: pending.password });
    const signupCode = codeFrom((await lastMailTo(server, pending.email))!.text);
    const crossed = await c.post('/api/auth/reset-password', { username: pending.email, code: signupCode, password: NEW, password2: NEW });
    expect(crossed.status).toBe(400);
    expect(crossed.body.error.message).toBe(M.invalidCode);

    expect((await c.post('/api/auth/login', { username: user.email, password: user.password })).status).toBe(200);
  });

  it('verifies a pending account, since the code proves the address', async () => {
    const pending = await givenUser(server, { status: 'PENDING' });
    const { code } = await resetCodeFor(pending.email);
    const c = server.client();
    expect((await c.post('/api/auth/reset-password', { username: pending.email, code, password: NEW, password2: NEW })).status).toBe(200);
    const [row] = await server.app.deps.db.select().from(users).where(eq(users.id, pending.id));
    expect(row!.status).toBe('ACTIVE');
    expect((await c.post('/api/auth/login', { username: pending.email, password: NEW })).status).toBe(200);
  });

  it.each([
    [{ password: '', password2: '' }, 'password', M.newPasswordRequired],
    [{ password: undefined }, 'password', M.newPasswordRequired],
    [{ password: 'Sh0rt!', password2: 'Sh0rt!' }, 'password', M.passwordMin],
    [{ password: 'nocapitals1!', password2: 'nocapitals1!' }, 'password', M.passwordComplexity],
    [{ password: 'NoDigits!!', password2: 'NoDigits!!' }, 'password', M.passwordComplexity],
    [{ password: 'NoSpecial12', password2: 'NoSpecial12' }, 'password', M.passwordComplexity],
    [{ password2: '' }, 'password2', M.confirmPasswordRequired],
    [{ password2: 'Different1!' }, 'password2', M.newPasswordMismatch],
    [{ code: '' }, 'code', M.invalidCode],
  ])('refuses %o with the spec message', async (patch, field, message) => {
    const res = await server.client().post('/api/auth/reset-password', { username: 'r@example.test', code: '123456', password: NEW, password2: NEW, ...patch });
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });
});

describe('POST /api/auth/change-password', () => {
  it('changes the password, ends the other sessions and keeps this one with a new CSRF token', async () => {
    const user = await givenUser(server);
    const here = await signedIn(user);
    const elsewhere = await signedIn(user);
    const oldCookie = here.cookies.get(SESSION_COOKIE);
    const oldCsrf = here.csrf;

    const res = await here.post('/api/auth/change-password', { username: user.id, oldPassword: user.password, password: NEW });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect(res.body.csrfToken).toEqual(expect.any(String));
    expect(res.body.csrfToken).not.toBe(oldCsrf);
    expect(here.cookies.get(SESSION_COOKIE)).not.toBe(oldCookie);

    expect((await elsewhere.get('/api/auth/session')).status).toBe(401);
    const replay = server.client();
    replay.cookies.set(SESSION_COOKIE, oldCookie!);
    expect((await replay.get('/api/auth/session')).status).toBe(401);

    // This browser keeps working, with the new token only.
    expect((await here.get('/api/auth/session')).status).toBe(200);
    expect((await here.patch(`/api/users/${user.id}/profile`, { city: 'Stays' })).status).toBe(200);
    const stale = await here.patch(`/api/users/${user.id}/profile`, { city: 'Stale' }, { 'x-csrf-token': oldCsrf! });
    expect(stale.status).toBe(403);
    expect(stale.body.error.message).toBe(M.csrf);

    const c = server.client();
    expect((await c.post('/api/auth/login', { username: user.email, password: user.password })).status).toBe(401);
    expect((await c.post('/api/auth/login', { username: user.email, password: NEW })).status).toBe(200);
  });

  it('refuses a wrong current password with 400 and changes nothing', async () => {
    const user = await givenUser(server);
    const c = await signedIn(user);
    const other = await signedIn(user);
    const res = await c.post('/api/auth/change-password', { oldPassword: 'Not-the-0ne!', password: NEW });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(M.wrongPassword);
    expect((await other.get('/api/auth/session')).status).toBe(200);
    expect((await c.get('/api/auth/session')).status).toBe(200);
  });

  it('changes only the signed-in user’s password, whatever username the body names', async () => {
    const me = await givenUser(server);
    const victim = await givenUser(server);
    const c = await signedIn(me);
    const res = await c.post('/api/auth/change-password', { username: victim.id, oldPassword: me.password, password: NEW });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(me.id);
    const probe = server.client();
    expect((await probe.post('/api/auth/login', { username: victim.email, password: victim.password })).status).toBe(200);
    expect((await probe.post('/api/auth/login', { username: me.email, password: NEW })).status).toBe(200);
  });

  it('needs a session', async () => {
    const res = await server.client().post('/api/auth/change-password', { oldPassword: 'Whatever1!', password: NEW });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(M.notSignedIn);
  });

  describe('validation', () => {
    let c: ReturnType<TestServer['client']>;
    let user: GivenUser;
    beforeAll(async () => {
      user = await givenUser(server);
      c = await signedIn(user);
    });

    it.each([
      [{ password: NEW }, 'oldPassword', M.currentPasswordRequired],
      [{ oldPassword: '', password: NEW }, 'oldPassword', M.currentPasswordRequired],
      [{ oldPassword: 'x' }, 'password', M.newPasswordRequired],
      [{ oldPassword: 'x', password: '' }, 'password', M.newPasswordRequired],
      [{ oldPassword: 'x', password: 'Sh0rt!' }, 'password', M.passwordMin],
      [{ oldPassword: 'x', password: 'alllowercase1!' }, 'password', M.passwordComplexity],
      [{ oldPassword: 'x', password: 'ALLUPPERCASE1!' }, 'password', M.passwordComplexity],
    ])('refuses %o with the spec message', async (body, field, message) => {
      const res = await c.post('/api/auth/change-password', body);
      expect(res.status).toBe(400);
      expect(res.body.error.fields[field]).toBe(message);
    });

    it('left the password as it was', async () => {
      expect((await server.client().post('/api/auth/login', { username: user.email, password: user.password })).status).toBe(200);
    });
  });
});
