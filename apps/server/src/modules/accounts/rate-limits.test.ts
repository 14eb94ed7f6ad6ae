import { M } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenUser, startServer, type TestServer } from '../../../test/harness.js';

// RATE_LIMIT_AUTH_PER_MINUTE = 3: the fourth attempt within a minute is refused. Every test
// speaks from its own client address (the server trusts X-Forwarded-For from the local proxy).
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ rateLimitAuthPerMinute: 3 });
});
afterAll(async () => {
  await server.close();
});

let nextIp = 10;
const newAddress = () => ({ 'x-forwarded-for': `203.0.113.${nextIp++}` });

function expectLimited(res: { status: number; body: any; headers: Record<string, unknown> }) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: { code: 'RATE_LIMITED', message: M.tooManyRequests } });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
}

const registration = (username: string) => ({
  username,
  password: 'Str0ng!pass',
  password2: 'Str0ng!pass',
  firstName: 'Rate',
  lastName: 'Limit',
  appType: 'ATTENDEE',
});

describe('auth rate limits (3 per minute)', () => {
  it('login: the 4th attempt from one address is refused, even with the right password', async () => {
    const user = await givenUser(server);
    const ip = newAddress();
    const c = server.client();
    for (let i = 0; i < 3; i++) {
      expect((await c.post('/api/auth/login', { username: user.email, password: 'Wrong-passw0rd' }, ip)).status).toBe(401);
    }
    expectLimited(await c.post('/api/auth/login', { username: user.email, password: user.password }, ip));
    // Another address is not affected.
    expect((await c.post('/api/auth/login', { username: (await givenUser(server)).email, password: 'Wrong-passw0rd' }, newAddress())).status).toBe(401);
  });

  it('login: one address guessing across many accounts is refused at the 4th', async () => {
    const ip = newAddress();
    const c = server.client();
    for (let i = 0; i < 3; i++) {
      const u = await givenUser(server);
      expect((await c.post('/api/auth/login', { username: u.email, password: 'Wrong-passw0rd' }, ip)).status).toBe(401);
    }
    expectLimited(await c.post('/api/auth/login', { username: (await givenUser(server)).email, password: 'Wrong-passw0rd' }, ip));
  });

  it('login: one account guessed from many addresses is refused at the 4th', async () => {
    const user = await givenUser(server);
    const c = server.client();
    for (let i = 0; i < 3; i++) {
      expect((await c.post('/api/auth/login', { username: user.email, password: 'Wrong-passw0rd' }, newAddress())).status).toBe(401);
    }
    // The account name is compared as typed in any case.
    expectLimited(await c.post('/api/auth/login', { username: user.email.toUpperCase(), password: user.password }, newAddress()));
  });

  it('register: the 4th sign-up from one address is refused', async () => {
    const ip = newAddress();
    const c = server.client();
    for (let i = 0; i < 3; i++) {
      expect((await c.post('/api/auth/register', registration(`rl-reg-${i}@example.test`), ip)).status).toBe(201);
    }
    expectLimited(await c.post('/api/auth/register', registration('rl-reg-3@example.test'), ip));
  });

  it('verify: the 4th code check is refused, so codes cannot be guessed quickly', async () => {
    const pending = await givenUser(server, { status: 'PENDING' });
    const ip = newAddress();
    const c = server.client();
    for (let i = 0; i < 3; i++) {
      const res = await c.post('/api/auth/verify', { username: pending.email, code: `00000${i}` }, ip);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(M.invalidCode);
    }
    expectLimited(await c.post('/api/auth/verify', { username: pending.email, code: '000003' }, ip));
    // And from other addresses for the same account too.
    expectLimited(await c.post('/api/auth/verify', { username: pending.email, code: '000004' }, newAddress()));
  });

  it('forgot-password: sends mail, so it allows half as many (2 of 3) before refusing', async () => {
    const ip = newAddress();
    const c = server.client();
    const user = await givenUser(server);
    for (let i = 0; i < 2; i++) {
      expect((await c.post('/api/auth/forgot-password', { username: user.email }, ip)).status).toBe(202);
    }
    expectLimited(await c.post('/api/auth/forgot-password', { username: user.email }, ip));
    expectLimited(await c.post('/api/auth/forgot-password', { username: user.email }, ip));
  });

  it('reset-password and link-account are limited too', async () => {
    const user = await givenUser(server);
    const ip = newAddress();
    const c = server.client();
    const reset = { username: user.email, code: '123456', password: 'N3w-secret!', password2: 'N3w-secret!' };
    for (let i = 0; i < 3; i++) expect((await c.post('/api/auth/reset-password', reset, ip)).status).toBe(400);
    expectLimited(await c.post('/api/auth/reset-password', reset, ip));

    const link = { username: user.email, targetGroupId: 'platform', inviteCode: 'nope', password: 'Wrong-passw0rd' };
    for (let i = 0; i < 3; i++) expect((await c.post('/api/auth/link-account', link, ip)).status).toBe(401);
    expectLimited(await c.post('/api/auth/link-account', link, ip));
  });

  it('change-password: guessing the current password through a session is limited', async () => {
    const user = await givenUser(server);
    const ip = newAddress();
    const c = server.client();
    await c.post('/api/auth/login', { username: user.email, password: user.password }, ip);
    for (let i = 0; i < 3; i++) {
      const res = await c.post(
        '/api/auth/change-password',
        // Naming another account in the body does not reset the count: it is the signed-in account's.
        { username: `someone-${i}@example.test`, oldPassword: `Wrong-passw0rd${i}`, password: 'N3w-secret!' },
        newAddress(),
      );
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(M.wrongPassword);
    }
    expectLimited(await c.post('/api/auth/change-password', { oldPassword: user.password, password: 'N3w-secret!' }, newAddress()));
  });

  it('counts each route separately', async () => {
    const ip = newAddress();
    const c = server.client();
    const user = await givenUser(server);
    for (let i = 0; i < 3; i++) await c.post('/api/auth/login', { username: user.email, password: 'Wrong-passw0rd' }, ip);
    expectLimited(await c.post('/api/auth/login', { username: user.email, password: 'Wrong-passw0rd' }, ip));
    expect((await c.post('/api/auth/register', registration('rl-separate@example.test'), ip)).status).toBe(201);
  });
});

describe('client addresses come only from trusted proxies', () => {
  let direct: TestServer;
  beforeAll(async () => {
    // As when the server faces the internet with no proxy in front: X-Forwarded-For is the
    // client's own words and must not let it pick a fresh address for every attempt.
    direct = await startServer({ rateLimitAuthPerMinute: 3, trustProxy: false });
  });
  afterAll(async () => {
    await direct.close();
  });

  it('ignores a spoofed X-Forwarded-For', async () => {
    const c = direct.client();
    for (let i = 0; i < 3; i++) {
      const res = await c.post('/api/auth/login', { username: `spray-${i}@example.test`, password: 'Wrong-passw0rd' }, newAddress());
      expect(res.status).toBe(401);
    }
    expectLimited(await c.post('/api/auth/login', { username: 'spray-3@example.test', password: 'Wrong-passw0rd' }, newAddress()));
  });

  it('trusts only the loopback proxy by default', () => {
    expect(server.config.trustProxy).toEqual(['loopback']);
  });
});
