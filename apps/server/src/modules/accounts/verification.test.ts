import { M } from '@marquee/core';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, lastMailTo, linkFrom, startServer, type TestServer } from '../../../test/harness.js';
import { users, verificationCodes } from '../../db/schema/index.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const password = 'Str0ng!pass';
let n = 0;

/** Signs up a fresh attendee; returns the address and the code mailed to it. */
async function signUp() {
  const username = `verify-${++n}@example.test`;
  const c = server.client();
  const res = await c.post('/api/auth/register', { username, password, password2: password, firstName: 'Vera', lastName: 'Fy', appType: 'ATTENDEE' });
  expect(res.status).toBe(201);
  const mail = await lastMailTo(server, username);
  return { c, username, code: codeFrom(mail!.text), mail: mail! };
}

const statusOf = async (email: string) => (await server.app.deps.db.select().from(users).where(eq(users.email, email)))[0]?.status;
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('POST /api/auth/verify', () => {
  it('mails a six-digit code valid for 30 minutes in a /verify link', async () => {
    const { username, code, mail } = await signUp();
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain('30 minutes');
    const link = linkFrom(mail.text);
    expect(link.origin).toBe(`http://localhost:${server.port}`);
    expect(link.pathname).toBe('/verify');
    expect(Object.fromEntries(link.searchParams)).toEqual({ newUserName: username, code, groupId: '' });
    const [user] = await server.app.deps.db.select().from(users).where(eq(users.email, username));
    const [row] = await server.app.deps.db
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.userId, user!.id), isNull(verificationCodes.usedAt)));
    // Stored hashed, never as typed; valid for 30 minutes from now.
    expect(row!.codeHash).not.toContain(code);
    expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(row!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(30 * 60_000);
  });

  it('expires after 30 minutes', async () => {
    const { c, username, code } = await signUp();
    const [user] = await server.app.deps.db.select().from(users).where(eq(users.email, username));
    await server.app.deps.db
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(verificationCodes.userId, user!.id), isNull(verificationCodes.usedAt)));
    const res = await c.post('/api/auth/verify', { username, code });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(M.invalidCode);
    expect(await statusOf(username)).toBe('PENDING');
  });

  it('is single use', async () => {
    const { c, username, code } = await signUp();
    const first = await c.post('/api/auth/verify', { username, code });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true });
    expect(await statusOf(username)).toBe('ACTIVE');
    const second = await c.post('/api/auth/verify', { username, code });
    expect(second.status).toBe(400);
    expect(second.body.error.message).toBe(M.invalidCode);
  });

  it('accepts the code with surrounding spaces and the address in any case', async () => {
    const { c, username, code } = await signUp();
    expect((await c.post('/api/auth/verify', { username: username.toUpperCase(), code: ` ${code} ` })).status).toBe(200);
  });

  it('burns the code after 5 wrong attempts', async () => {
    const { c, username, code } = await signUp();
    for (let i = 0; i < 5; i++) {
      const res = await c.post('/api/auth/verify', { username, code: wrongCode(code) });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(M.invalidCode);
    }
    const right = await c.post('/api/auth/verify', { username, code });
    expect(right.status).toBe(400);
    expect(right.body.error.message).toBe(M.invalidCode);
    expect(await statusOf(username)).toBe('PENDING');
  });

  it('still accepts the right code after 4 wrong attempts', async () => {
    const { c, username, code } = await signUp();
    for (let i = 0; i < 4; i++) expect((await c.post('/api/auth/verify', { username, code: wrongCode(code) })).status).toBe(400);
    expect((await c.post('/api/auth/verify', { username, code })).status).toBe(200);
  });

  it('replaces the old code when a new one is sent', async () => {
    const first = await signUp();
    const [user] = await server.app.deps.db.select().from(users).where(eq(users.email, first.username));
    const liveCodes = () =>
      server.app.deps.db
        .select()
        .from(verificationCodes)
        .where(and(eq(verificationCodes.userId, user!.id), isNull(verificationCodes.usedAt)));
    const [oldRow] = await liveCodes();
    expect(oldRow).toBeDefined();
    // Signing up again while still pending sends a new code.
    const again = await first.c.post('/api/auth/register', {
      username: first.username,
      password,
      password2: password,
      firstName: 'Vera',
      lastName: 'Fy',
      appType: 'ATTENDEE',
    });
    expect(again.status).toBe(201);
    const newCode = codeFrom((await lastMailTo(server, first.username))!.text);
    // The new code may repeat the old digits (one chance in a million), so the replacement is
    // proven on the rows: the old code is retired and the only live code is a new row.
    const live = await liveCodes();
    expect(live).toHaveLength(1);
    expect(live[0]!.id).not.toBe(oldRow!.id);
    const [retired] = await server.app.deps.db.select().from(verificationCodes).where(eq(verificationCodes.id, oldRow!.id));
    expect(retired!.usedAt).toBeInstanceOf(Date);
    expect((await first.c.post('/api/auth/verify', { username: first.username, code: newCode })).status).toBe(200);
  });

  it('answers an unknown address like a wrong code', async () => {
    const res = await server.client().post('/api/auth/verify', { username: 'nobody@example.test', code: '123456' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(M.invalidCode);
  });

  it.each([
    [{ username: 'x@example.test', code: '' }, 'code', M.invalidCode],
    [{ username: 'x@example.test', code: '1'.repeat(21) }, 'code', M.invalidCode],
    [{ username: 'nope', code: '123456' }, 'username', M.validEmail],
  ])('refuses %o with a message', async (body, field, message) => {
    const res = await server.client().post('/api/auth/verify', body);
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });
});
