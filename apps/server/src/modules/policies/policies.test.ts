import { randomUUID } from 'node:crypto';
import { M, REFUND_POLICY_ID, TERMS_POLICY_ID } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  badRequestError,
  givenPlatformAdmin,
  givenTenantWithSettings,
  notFoundError,
  startServer,
  validationError,
  type Client,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { givenActors, statusesOf, type Actors } from '../../../test/actors.js';
import { ensureDefaultPolicies } from './service.js';

let server: TestServer;
let admin: Client;
let tenant: GivenTenant;
let actors: Actors;

beforeAll(async () => {
  server = await startServer();
  await ensureDefaultPolicies(server.app.deps);
  const user = await givenPlatformAdmin(server);
  admin = server.client();
  await admin.login(user.email);
  tenant = await givenTenantWithSettings(server);
  const other = await givenTenantWithSettings(server);
  actors = await givenActors(server, tenant, other);
});
afterAll(async () => {
  await server.close();
});

const slug = () => `policy-${randomUUID().slice(0, 8)}`;

describe('global policies', () => {
  it('seeds a refund policy and terms once, which attendees read on any host without signing in', async () => {
    await ensureDefaultPolicies(server.app.deps);
    const list = await admin.get('/api/policies?filters=details.group=checkout');
    expect(list.body.result.map((p: { id: string }) => p.id).sort()).toEqual([REFUND_POLICY_ID, TERMS_POLICY_ID]);
    for (const c of [server.client(tenant.url), server.client()]) {
      const res = await c.get(`/api/p/policies/${REFUND_POLICY_ID}`);
      expect(res.status).toBe(200);
      expect(res.body.details.name).toBe('Refund Policy');
      expect(res.body.details.detail).toContain('<p>');
    }
    expect((await server.client().get('/api/p/policies/no-such-policy')).status).toBe(404);
  });

  it('creates, lists (ID, name, group, type), edits and deletes a policy', async () => {
    const id = slug();
    const created = await admin.post('/api/policies', { id, details: { name: 'Covid Rules', group: 'event', type: 'safety', detail: '<p>Masks <strong>required</strong>.</p>' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id, details: { name: 'Covid Rules', group: 'event', type: 'safety', sk: 'policy', detail: '<p>Masks <strong>required</strong>.</p>' } });

    const listed = await admin.get(`/api/policies?filters=details.id=${id}`);
    expect(listed.body.count).toBe(1);
    expect(listed.body.result[0].details).toMatchObject({ name: 'Covid Rules', group: 'event', type: 'safety' });

    const edited = await admin.patch(`/api/policies/${id}`, { details: { detail: '<p>Masks optional.</p>', name: 'Health Rules' } });
    expect(edited.status).toBe(200);
    expect(edited.body.details).toMatchObject({ name: 'Health Rules', detail: '<p>Masks optional.</p>', group: 'event' });
    expect((await admin.get(`/api/policies/${id}`)).body.details.name).toBe('Health Rules');

    expect((await admin.delete(`/api/policies/${id}`)).body).toEqual({ success: true });
    expect((await admin.delete(`/api/policies/${id}`)).status).toBe(404);
    expect((await admin.patch(`/api/policies/${id}`, { details: { name: 'x' } })).status).toBe(404);
    expect((await admin.get(`/api/policies/${id}`)).status).toBe(404);
  });

  it("answers 409 'Duplicate policy found' for an id that exists", async () => {
    const res = await admin.post('/api/policies', { id: TERMS_POLICY_ID, details: { detail: '<p>Other terms</p>' } });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(M.policyDuplicate);
  });

  const fine = () => ({ id: slug(), details: { detail: '<p>Fine</p>' } });
  it.each([
    [{ ...fine(), id: undefined }, 'id', M.policyIdRequired],
    [{ ...fine(), id: '' }, 'id', M.policyIdRequired],
    [{ ...fine(), id: 'Refund-Policy' }, 'id', M.policyIdFormat],
    [{ ...fine(), id: 'refund policy' }, 'id', M.policyIdFormat],
    [{ ...fine(), id: 'refund--policy' }, 'id', M.policyIdFormat],
    [{ ...fine(), id: '-refund' }, 'id', M.policyIdFormat],
    [{ ...fine(), details: {} }, 'details.detail', M.policyDetailsRequired],
    [{ ...fine(), details: { detail: '' } }, 'details.detail', M.policyDetailsRequired],
    [{ ...fine(), details: { detail: '<p>&nbsp;</p><p> </p>' } }, 'details.detail', M.policyDetailsRequired],
    [{ ...fine(), details: { detail: '<script>alert(1)</script>' } }, 'details.detail', M.policyDetailsRequired],
  ])('refuses %o with the spec message', async (body, field, message) => {
    const res = await admin.post('/api/policies', body);
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('keeps only a safe subset of the rich text', async () => {
    const id = slug();
    const res = await admin.post('/api/policies', {
      id,
      details: {
        detail:
          '<h2 style="text-align: center; color: red">Title</h2><p onclick="steal()">Read <a href="javascript:alert(1)">this</a> and ' +
          '<a href="https://example.test/x" target="_blank">that</a></p><img src=x onerror=alert(1)><iframe src="https://evil.test"></iframe><script>alert(1)</script>',
      },
    });
    expect(res.status).toBe(201);
    const html: string = res.body.details.detail;
    expect(html).toContain('<h2 style="text-align:center">Title</h2>');
    expect(html).toContain('<a href="https://example.test/x" target="_blank" rel="noopener noreferrer nofollow">that</a>');
    for (const bad of ['onclick', 'javascript:', '<img', 'onerror', '<iframe', '<script', 'color']) expect(html).not.toContain(bad);
    expect((await server.client().get(`/api/p/policies/${id}`)).body.details.detail).toBe(html);
    const blank = await admin.patch(`/api/policies/${id}`, { details: { detail: '<img src=x>' } });
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toBe(M.policyDetailsRequired);
  });
});

describe('policies: malformed input', () => {
  const allPolicies = async () => (await admin.get('/api/policies?limit=100')).body.result;

  it('refuses list queries it does not know with a 400 and its message', async () => {
    const cases: Array<[string, unknown]> = [
      ['filters=details.nope=1', badRequestError('Filtering on details.nope is not supported.')],
      ['filters=nonsense', badRequestError('Invalid filter: nonsense')],
      ['sort=details.detail', badRequestError('Sorting on details.detail is not supported.')],
      ['cursor=garbage', badRequestError('Invalid cursor.')],
      ['limit=abc', badRequestError('Invalid input: expected number, received NaN')],
      ['filters=details.name=a%00b', validationError('filters', M.invalidValue)],
    ];
    for (const [query, body] of cases) {
      const res = await admin.get(`/api/policies?${query}`);
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 400, body });
    }
  });

  it('answers GET one and DELETE with a malformed id: 404 for no such policy, 400 for a NUL, 414 past the router limit; nothing deleted', async () => {
    const before = await allPolicies();
    expect(before.map((p: { id: string }) => p.id)).toContain(TERMS_POLICY_ID);
    for (const [name, call] of [
      ['GET', (id: string) => admin.get(`/api/policies/${id}`)],
      ['DELETE', (id: string) => admin.delete(`/api/policies/${id}`)],
    ] as const) {
      for (const id of ['Terms-Policy', 'refund%20policy', `${TERMS_POLICY_ID}-`, "x'%3B--", '%F0%9F%98%80']) {
        const res = await call(id);
        expect({ name, id, status: res.status, body: res.body }).toEqual({ name, id, status: 404, body: notFoundError });
      }
      for (const id of [`${TERMS_POLICY_ID}%00`, '%00']) {
        const res = await call(id);
        expect({ name, id, status: res.status, body: res.body }).toEqual({ name, id, status: 400, body: validationError('id', M.invalidValue) });
      }
      const badEncoding = await call('%E0%A4%A');
      expect({ name, status: badEncoding.status, body: badEncoding.body }).toEqual({ name, status: 400, body: { error: { code: 'BAD_REQUEST', message: M.addressInvalid } } });
      const tooLong = await call('p'.repeat(301));
      expect({ name, status: tooLong.status, body: tooLong.body }).toEqual({ name, status: 414, body: { error: { code: 'BAD_REQUEST', message: M.addressTooLong } } });
    }
    expect(await allPolicies()).toEqual(before);
  });
});

describe('policy routes: who may call them', () => {
  it('reads', async () => {
    const expected = { super_user: 200, platform_manager: 200, platform_report: 403, platform_user: 200, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 403, attendee: 403, anonymous: 401 };
    expect(await statusesOf(actors, 'platform', (c) => c.get('/api/policies'))).toEqual(expected);
    expect(await statusesOf(actors, 'platform', (c) => c.get(`/api/policies/${TERMS_POLICY_ID}`))).toEqual(expected);
    const everyone = { super_user: 200, platform_manager: 200, platform_report: 200, platform_user: 200, tenant_admin: 200, tenant_staff: 200, other_tenant_admin: 200, attendee: 200, anonymous: 200 };
    expect(await statusesOf(actors, 'tenant', (c) => c.get(`/api/p/policies/${TERMS_POLICY_ID}`))).toEqual(everyone);
  });

  it('writes', async () => {
    const refused = { platform_report: 403, platform_user: 403, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 403, attendee: 403, anonymous: 401 };
    const others = ['platform_report', 'platform_user', 'tenant_admin', 'tenant_staff', 'other_tenant_admin', 'attendee', 'anonymous'] as const;
    expect(await statusesOf(actors, 'platform', (c) => c.post('/api/policies', { id: slug(), details: { detail: '<p>x</p>' } }))).toEqual({
      super_user: 201, platform_manager: 201, ...refused,
    });
    expect(await statusesOf(actors, 'platform', (c) => c.patch(`/api/policies/${TERMS_POLICY_ID}`, { details: { type: 'terms' } }))).toEqual({
      super_user: 200, platform_manager: 200, ...refused,
    });
    const id = slug();
    await admin.post('/api/policies', { id, details: { detail: '<p>x</p>' } });
    expect(await statusesOf(actors, 'platform', (c) => c.delete(`/api/policies/${id}`), others)).toEqual(refused);
    expect((await actors.platform_manager.platform.delete(`/api/policies/${id}`)).status).toBe(200);
  });
});
