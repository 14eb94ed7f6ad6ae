import { M } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, lastMailTo, linkFrom, startServer, type TestServer } from '../../../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const valid = {
  username: 'ada@example.test',
  password: 'Str0ng!pass',
  password2: 'Str0ng!pass',
  firstName: 'Ada',
  lastName: 'Lovelace',
  appType: 'ATTENDEE',
};

describe('attendee sign-up', () => {
  it('registers, mails a 30-minute single-use code, verifies, then signs in', async () => {
    const c = server.client();
    const res = await c.post('/api/auth/register', valid);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(M.registerSuccess);

    // Not yet verified: the password is right but the account is pending.
    expect((await c.post('/api/auth/login', { username: valid.username, password: valid.password })).status).toBe(403);

    const mail = await lastMailTo(server, valid.username);
    expect(mail?.status).toBe('kept');
    const code = codeFrom(mail!.text);
    const link = linkFrom(mail!.text);
    expect(link.pathname).toBe('/verify');
    expect(link.searchParams.get('newUserName')).toBe(valid.username);
    expect(link.searchParams.get('code')).toBe(code);

    expect((await c.post('/api/auth/verify', { username: valid.username, code })).status).toBe(200);
    // Single use.
    const again = await c.post('/api/auth/verify', { username: valid.username, code });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(M.invalidCode);

    const login = await c.post('/api/auth/login', { username: valid.username, password: valid.password });
    expect(login.status).toBe(200);
    expect(login.body.user.email).toBe(valid.username);
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect((await c.get('/api/auth/session')).status).toBe(200);
  });

  it.each([
    [{ username: 'not-an-email' }, 'username', M.validEmail],
    [{ password: '' , password2: ''}, 'password', M.passwordRequired],
    [{ password: 'Sh0rt!', password2: 'Sh0rt!' }, 'password', M.passwordMin],
    [{ password: 'alllowercase1!', password2: 'alllowercase1!' }, 'password', M.passwordComplexity],
    [{ password2: 'Different1!' }, 'password2', M.passwordsMustMatch],
    [{ password2: '' }, 'password2', M.confirmPasswordEnter],
    [{ password: `Aa1!${'x'.repeat(253)}`, password2: `Aa1!${'x'.repeat(253)}` }, 'password', M.passwordMax],
    [{ firstName: 'A'.repeat(81) }, 'firstName', M.nameMax],
    [{ firstName: 'Ada1' }, 'firstName', M.firstNameAlpha],
    [{ lastName: 'L@' }, 'lastName', M.lastNameAlpha],
    [{ state: 'N3' }, 'state', M.stateAlpha],
    [{ zip: '12a' }, 'zip', M.invalidNumber],
    [{ contactNumber: '+1 (555) 12' }, 'contactNumber', M.invalidNumber],
  ])('refuses %o with the spec message', async (patch, field, message) => {
    const res = await server.client().post('/api/auth/register', { ...valid, username: 'x@example.test', ...patch });
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('does not reveal that an address already has an account', async () => {
    const c = server.client();
    const first = await c.post('/api/auth/register', { ...valid, username: 'dup@example.test' });
    const code = codeFrom((await lastMailTo(server, 'dup@example.test'))!.text);
    await c.post('/api/auth/verify', { username: 'dup@example.test', code });
    const second = await c.post('/api/auth/register', { ...valid, username: 'dup@example.test' });
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    const mail = await lastMailTo(server, 'dup@example.test');
    expect(mail!.subject).toBe('You already have a Marquee account');
  });

  it('refuses TENANT and PLATFORM sign-up without an invite', async () => {
    for (const appType of ['TENANT', 'PLATFORM']) {
      const res = await server.client().post('/api/auth/register', { ...valid, username: `inv-${appType}@example.test`, appType });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(M.inviteFailedTitle);
    }
  });
});

describe('sign-up on a tenant site', () => {
  it("mails a verification link back to that tenant's host", async () => {
    const { givenTenant } = await import('../../../test/harness.js');
    const tenant = await givenTenant(server);
    const email = 'fan@example.test';
    const res = await server.client(tenant.url).post('/api/auth/register', { ...valid, username: email });
    expect(res.status).toBe(201);
    const link = linkFrom((await lastMailTo(server, email))!.text);
    expect(link.hostname).toBe(`${tenant.url}.${server.config.baseDomain}`);
    expect(link.pathname).toBe('/verify');
  });
});
