import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  givenEvent,
  givenTenant,
  givenUser,
  lastMailTo,
  linkFrom,
  startServer,
  type Client,
  type GivenTenant,
  type GivenUser,
  type TestServer,
} from '../../../test/harness.js';
import { invites, memberships } from '../../db/schema/index.js';
import { givenActors, statusesOf, type Actors } from '../../../test/actors.js';

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let actors: Actors;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server, { name: 'Riverside Hall' });
  other = await givenTenant(server);
  actors = await givenActors(server, tenant, other);
});
afterAll(async () => {
  await server.close();
});

let n = 0;
const newEmail = (prefix: string) => `${prefix}-${++n}-${randomUUID().slice(0, 6)}@example.test`;
const base = (t: GivenTenant) => `/api/tenants/${t.id}/staff`;

async function signedIn(user: GivenUser, tenantUrl?: string) {
  const c = server.client(tenantUrl);
  await c.login(user.email, user.password);
  return c;
}

/** A tenant of its own with one admin signed in on its host. */
async function givenTenantWithAdmin() {
  const t = await givenTenant(server);
  const admin = await givenUser(server, { tenant: { id: t.id, roles: ['tenant_admin'] } });
  return { t, admin, c: await signedIn(admin, t.url) };
}

async function invite(c: Client, t: GivenTenant, email: string, roles: string[] = ['tenant_staff']) {
  const res = await c.post(`/api/tenants/${t.id}/staff/invites`, { email, roles });
  expect(res.status).toBe(201);
}

async function list(c: Client, t: GivenTenant, query = '') {
  const res = await c.get(`${base(t)}${query ? `?${query}` : ''}`);
  expect(res.status).toBe(200);
  return res.body as { result: Array<{ id: string; details: Record<string, unknown> }>; count: number; cursor: string | null };
}

const filter = (f: string) => `filters=${encodeURIComponent(f)}`;
const emailsOf = (body: { result: Array<{ details: Record<string, unknown> }> }) => body.result.map((s) => s.details.email);

describe('GET /api/tenants/:tenantId/staff', () => {
  it('lists the tenant-wide members and the people invited who have not joined, in the {id, details} shape', async () => {
    const { t, admin, c } = await givenTenantWithAdmin();
    const staff = await givenUser(server, { email: newEmail('a-staff'), tenant: { id: t.id, roles: ['tenant_staff'] } });
    const invited = newEmail('b-invited');
    await invite(c, t, invited, ['tenant_admin']);
    const expired = newEmail('c-expired');
    await invite(c, t, expired);
    await server.app.deps.db.update(invites).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invites.email, expired));
    // Not listed: event-only staff, another tenant's member, an invite to an event.
    const event = await givenEvent(server, t.id);
    await givenUser(server, { email: newEmail('event-only'), event: { tenantId: t.id, eventId: event.id, roles: ['event_checkin'] } });
    await givenUser(server, { email: newEmail('elsewhere'), tenant: { id: other.id, roles: ['tenant_admin'] } });
    expect((await c.post(`/api/tenants/${t.id}/events/${event.id}/staff/invites`, { email: newEmail('event-invite'), roles: ['event_checkin'] })).status).toBe(201);

    const body = await list(c, t, 'limit=100');
    const [invite1] = await server.app.deps.db.select().from(invites).where(eq(invites.email, invited));
    const [invite2] = await server.app.deps.db.select().from(invites).where(eq(invites.email, expired));
    expect(body.count).toBe(4);
    expect(body.cursor).toBeNull();
    // Sorted by e-mail address by default.
    expect(body.result).toEqual(
      [
        { id: staff.id, details: { email: staff.email, firstName: 'Test', lastName: 'User', roles: ['tenant_staff'], status: 'ACTIVE' } },
        { id: invite1!.id, details: { email: invited, firstName: '', lastName: '', roles: ['tenant_admin'], status: 'PENDING' } },
        { id: invite2!.id, details: { email: expired, firstName: '', lastName: '', roles: ['tenant_staff'], status: 'EXPIRED' } },
        { id: admin.id, details: { email: admin.email, firstName: 'Test', lastName: 'User', roles: ['tenant_admin'], status: 'ACTIVE' } },
      ].sort((a, b) => a.details.email.localeCompare(b.details.email)),
    );
  });

  it('shows an invitee once, with the name they signed up with, until they join; then as a member', async () => {
    const { t, c } = await givenTenantWithAdmin();
    const email = newEmail('joining');
    await invite(c, t, email, ['tenant_staff']);
    await invite(c, t, email, ['tenant_admin', 'tenant_staff']);
    const link = linkFrom((await lastMailTo(server, email))!.text);
    const visitor = server.client(t.url);
    const reg = await visitor.post('/api/auth/register', {
      username: email,
      password: 'Inv1ted-secret!',
      password2: 'Inv1ted-secret!',
      firstName: 'Jo',
      lastName: 'Ining',
      appType: 'TENANT',
      inviteCode: link.searchParams.get('inviteCode'),
      groupId: link.searchParams.get('groupId'),
    });
    expect(reg.status).toBe(201);
    const pending = await list(c, t, filter(`details.email=${email}`));
    expect(pending.result).toEqual([
      { id: expect.any(String), details: { email, firstName: 'Jo', lastName: 'Ining', roles: ['tenant_admin', 'tenant_staff'], status: 'PENDING' } },
    ]);

    const verify = linkFrom((await lastMailTo(server, email))!.text);
    expect((await visitor.post('/api/auth/verify', { username: email, code: verify.searchParams.get('code') })).status).toBe(200);
    const joined = await list(c, t, filter(`details.email=${email}`));
    expect(joined.count).toBe(1);
    expect(joined.result[0]!.details).toMatchObject({ firstName: 'Jo', status: 'ACTIVE', roles: ['tenant_admin', 'tenant_staff'] });
    expect(joined.result[0]!.id).not.toBe(pending.result[0]!.id);
  });

  it('pages with a cursor and sorts', async () => {
    const { t, c } = await givenTenantWithAdmin();
    const tag = randomUUID().slice(0, 6);
    for (const i of [1, 2, 3]) await givenUser(server, { email: `page-${tag}-${i}@example.test`, tenant: { id: t.id, roles: ['tenant_staff'] } });
    const q = `${filter(`details.email=page-${tag}`)}&limit=2`;
    const first = await list(c, t, q);
    expect(first.count).toBe(3);
    expect(emailsOf(first)).toEqual([`page-${tag}-1@example.test`, `page-${tag}-2@example.test`]);
    const second = await list(c, t, `${q}&cursor=${first.cursor}`);
    expect(emailsOf(second)).toEqual([`page-${tag}-3@example.test`]);
    expect(second.cursor).toBeNull();

    const desc = await list(c, t, `${filter(`details.email=page-${tag}`)}&sort=-details.email`);
    expect(emailsOf(desc)).toEqual([3, 2, 1].map((i) => `page-${tag}-${i}@example.test`));
    expect((await c.get(`${base(t)}?sort=details.search`)).status).toBe(400);
    expect((await c.get(`${base(t)}?sort=details.roles`)).status).toBe(400);
    expect((await c.get(`${base(t)}?${filter('details.nope=1')}`)).status).toBe(400);
    expect((await c.get(`${base(t)}?cursor=garbage`)).status).toBe(400);
    expect((await c.get(`${base(t)}?limit=0`)).status).toBe(400);
  });

  it('searches name or e-mail address (contains, any case) and filters on status', async () => {
    const { t, c } = await givenTenantWithAdmin();
    const ada = await givenUser(server, { email: newEmail('ada'), tenant: { id: t.id, roles: ['tenant_staff'] } });
    const { users } = await import('../../db/schema/index.js');
    await server.app.deps.db.update(users).set({ firstName: 'Ada', lastName: 'Lovelace' }).where(eq(users.id, ada.id));
    const invited = newEmail('grace');
    await invite(c, t, invited);

    expect(emailsOf(await list(c, t, filter('details.search=LOVEL')))).toEqual([ada.email]);
    expect(emailsOf(await list(c, t, filter('details.search=ada lovelace')))).toEqual([ada.email]);
    expect(emailsOf(await list(c, t, filter(`details.search=${invited.slice(0, 10).toUpperCase()}`)))).toEqual([invited]);
    expect(emailsOf(await list(c, t, filter('details.name=ada')))).toEqual([ada.email]);
    expect(emailsOf(await list(c, t, filter('details.status=PENDING')))).toEqual([invited]);
    // The search is a bound parameter, wildcards included.
    expect((await list(c, t, filter('details.search=%'))).count).toBe(0);
  });
});

describe('PUT /api/tenants/:tenantId/staff/:staffId', () => {
  it("changes a member's roles; the change applies to their next request", async () => {
    const { t, c } = await givenTenantWithAdmin();
    const staff = await givenUser(server, { tenant: { id: t.id, roles: ['tenant_staff'] } });
    const asStaff = await signedIn(staff, t.url);
    const body = { email: newEmail('by-staff'), roles: ['tenant_staff'] };
    expect((await asStaff.post(`/api/tenants/${t.id}/staff/invites`, body)).status).toBe(403);

    const res = await c.put(`${base(t)}/${staff.id}`, { details: { roles: ['tenant_admin', 'tenant_staff', 'tenant_admin'] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: staff.id,
      details: { email: staff.email, firstName: 'Test', lastName: 'User', roles: ['tenant_admin', 'tenant_staff'], status: 'ACTIVE' },
    });
    expect((await asStaff.post(`/api/tenants/${t.id}/staff/invites`, body)).status).toBe(201);

    expect((await c.put(`${base(t)}/${staff.id}`, { details: { roles: ['tenant_staff'] } })).body.details.roles).toEqual(['tenant_staff']);
    expect((await asStaff.post(`/api/tenants/${t.id}/staff/invites`, body)).status).toBe(403);
  });

  it("changes an invitee's roles: the invite then grants those", async () => {
    const { t, c } = await givenTenantWithAdmin();
    const person = await givenUser(server);
    await invite(c, t, person.email, ['tenant_staff']);
    const [row] = (await list(c, t, filter(`details.email=${person.email}`))).result;
    const res = await c.put(`${base(t)}/${row!.id}`, { details: { roles: ['tenant_admin'] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: row!.id, details: expect.objectContaining({ status: 'PENDING', roles: ['tenant_admin'] }) });

    const link = linkFrom((await lastMailTo(server, person.email))!.text);
    const ok = await server.client(t.url).post('/api/auth/link-account', {
      username: person.email,
      targetGroupId: t.id,
      inviteCode: link.searchParams.get('code'),
      password: person.password,
    });
    expect(ok.status).toBe(200);
    const rows = await server.app.deps.db.select().from(memberships).where(eq(memberships.userId, person.id));
    expect(rows.map((m) => m.roles)).toEqual([['tenant_admin']]);
  });

  it('refuses to leave the tenant without an active admin (409), the admin demoting themselves included', async () => {
    const { t, admin, c } = await givenTenantWithAdmin();
    const demote = await c.put(`${base(t)}/${admin.id}`, { details: { roles: ['tenant_staff'] } });
    expect(demote.status).toBe(409);
    expect(demote.body.error).toEqual({ code: 'CONFLICT', message: M.lastTenantAdmin });
    // An admin whose account is not active does not count.
    await givenUser(server, { status: 'DISABLED', tenant: { id: t.id, roles: ['tenant_admin'] } });
    expect((await c.put(`${base(t)}/${admin.id}`, { details: { roles: ['tenant_staff'] } })).status).toBe(409);
    // Keeping the role is fine.
    expect((await c.put(`${base(t)}/${admin.id}`, { details: { roles: ['tenant_admin', 'tenant_staff'] } })).status).toBe(200);

    const second = await givenUser(server, { tenant: { id: t.id, roles: ['tenant_admin'] } });
    expect((await c.put(`${base(t)}/${admin.id}`, { details: { roles: ['tenant_staff'] } })).status).toBe(200);
    // Now `second` is the last one.
    const asSecond = await signedIn(second, t.url);
    const last = await asSecond.put(`${base(t)}/${second.id}`, { details: { roles: ['tenant_staff'] } });
    expect(last.status).toBe(409);
    expect(last.body.error.message).toBe(M.lastTenantAdmin);
    // And the first, now staff, can no longer change anyone.
    expect((await c.put(`${base(t)}/${second.id}`, { details: { roles: ['tenant_staff'] } })).status).toBe(403);
  });

  it.each([
    [{ details: { roles: [] } }, 'details.roles', M.rolesRequired],
    [{ details: { roles: ['super_user'] } }, 'details.roles.0', M.invalidValue],
    [{ details: { roles: ['event_manager'] } }, 'details.roles.0', M.invalidValue],
    [{ details: {} }, 'details.roles', undefined],
    [{}, 'details', undefined],
  ])('refuses %o with 400', async (body, field, message) => {
    const { t, c } = await givenTenantWithAdmin();
    const staff = await givenUser(server, { tenant: { id: t.id, roles: ['tenant_staff'] } });
    const res = await c.put(`${base(t)}/${staff.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION');
    expect(res.body.error.fields[field]).toBeDefined();
    if (message) expect(res.body.error.fields[field]).toBe(message);
  });
});

describe('DELETE /api/tenants/:tenantId/staff/:staffId', () => {
  it('removes a member from the tenant at once; their account stays', async () => {
    const { t, c } = await givenTenantWithAdmin();
    const event = await givenEvent(server, t.id);
    const staff = await givenUser(server, { tenant: { id: t.id, roles: ['tenant_staff'] }, event: { tenantId: t.id, eventId: event.id, roles: ['event_manager'] } });
    const elsewhere = await givenUser(server, { email: newEmail('two-tenants'), tenant: { id: t.id, roles: ['tenant_staff'] } });
    await server.app.deps.db.insert(memberships).values({ id: randomUUID(), userId: elsewhere.id, groupId: other.id, tenantId: other.id, roles: ['tenant_staff'] });
    await invite(c, t, staff.email, ['tenant_admin']); // an open re-invite is withdrawn too
    const session = await signedIn(staff, t.url);
    expect((await session.get(`/api/tenants/${t.id}`)).status).toBe(200);

    const res = await c.delete(`${base(t)}/${staff.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    // The same session, the next request: no access to the tenant or its event.
    expect((await session.get(`/api/tenants/${t.id}`)).status).toBe(404);
    expect((await session.get(`/api/tenants/${t.id}/events/${event.id}`)).status).toBe(404);
    expect((await session.get(`/api/auth/session`)).body.memberships).toEqual([]);
    expect(emailsOf(await list(c, t, 'limit=100'))).not.toContain(staff.email);
    expect(await server.app.deps.db.select().from(invites).where(and(eq(invites.email, staff.email), eq(invites.tenantId, t.id)))).toEqual([]);
    // Signing in still works; the other tenant's membership of another person is untouched.
    await signedIn(staff, t.url);
    expect((await c.delete(`${base(t)}/${elsewhere.id}`)).status).toBe(200);
    expect(await server.app.deps.db.select().from(memberships).where(eq(memberships.userId, elsewhere.id))).toEqual([
      expect.objectContaining({ tenantId: other.id }),
    ]);
    expect((await c.delete(`${base(t)}/${staff.id}`)).status).toBe(404);
  });

  it('withdraws an invite: its link stops working', async () => {
    const { t, c } = await givenTenantWithAdmin();
    const email = newEmail('withdrawn');
    await invite(c, t, email);
    const link = linkFrom((await lastMailTo(server, email))!.text);
    const code = encodeURIComponent(link.searchParams.get('inviteCode')!);
    expect((await server.client(t.url).get(`/api/invites/verify?code=${code}`)).status).toBe(200);
    const [row] = (await list(c, t, filter(`details.email=${email}`))).result;
    expect((await c.delete(`${base(t)}/${row!.id}`)).status).toBe(200);
    expect((await list(c, t, filter(`details.email=${email}`))).count).toBe(0);
    expect((await server.client(t.url).get(`/api/invites/verify?code=${code}`)).status).toBe(404);
    expect((await c.delete(`${base(t)}/${row!.id}`)).status).toBe(404);
  });

  it('never removes the last active admin (409), not even by their own hand; otherwise an admin may leave', async () => {
    const { t, admin, c } = await givenTenantWithAdmin();
    const self = await c.delete(`${base(t)}/${admin.id}`);
    expect(self.status).toBe(409);
    expect(self.body.error.message).toBe(M.lastTenantAdmin);

    const second = await givenUser(server, { tenant: { id: t.id, roles: ['tenant_admin'] } });
    expect((await c.delete(`${base(t)}/${admin.id}`)).status).toBe(200);
    expect((await c.get(base(t))).status).toBe(404);
    const asSecond = await signedIn(second, t.url);
    const last = await asSecond.delete(`${base(t)}/${second.id}`);
    expect(last.status).toBe(409);
    expect(last.body.error.message).toBe(M.lastTenantAdmin);
    expect(emailsOf(await list(asSecond, t))).toEqual([second.email]);
  });
});

describe('staff routes: ids and who may call them', () => {
  it('answers 404 for another tenant’s member or invite, event-only staff and unknown ids; 400 for a malformed id', async () => {
    const { t, c } = await givenTenantWithAdmin();
    const { t: t2, admin: otherAdmin, c: c2 } = await givenTenantWithAdmin();
    const event = await givenEvent(server, t.id);
    const eventOnly = await givenUser(server, { event: { tenantId: t.id, eventId: event.id, roles: ['event_manager'] } });
    await invite(c2, t2, newEmail('theirs'));
    const [theirInvite] = (await list(c2, t2, filter('details.status=PENDING'))).result;
    for (const id of [otherAdmin.id, theirInvite!.id, eventOnly.id, randomUUID()]) {
      expect((await c.put(`${base(t)}/${id}`, { details: { roles: ['tenant_staff'] } })).status, id).toBe(404);
      const res = await c.delete(`${base(t)}/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.message).toBe(M.notFound);
    }
    // Nothing changed over there.
    expect((await list(c2, t2)).count).toBe(2);
    expect(await server.app.deps.db.select().from(memberships).where(eq(memberships.userId, eventOnly.id))).toHaveLength(1);

    for (const id of ['not-a-uuid', '123', `${randomUUID()}x`]) {
      const put = await c.put(`${base(t)}/${id}`, { details: { roles: ['tenant_staff'] } });
      expect(put.status, id).toBe(400);
      expect(put.body.error.code).toBe('VALIDATION');
      expect(put.body.error.fields.staffId).toBeDefined();
      expect((await c.delete(`${base(t)}/${id}`)).status, id).toBe(400);
    }
    // Another tenant's id in the path, on this tenant's host: 404.
    expect((await c.get(base(t2))).status).toBe(404);
    expect((await c.delete(`${base(t2)}/${otherAdmin.id}`)).status).toBe(404);
  });

  it('GET: the tenant’s admins and staff, and the platform roles that read people', async () => {
    expect(await statusesOf(actors, 'tenant', (c) => c.get(base(tenant)))).toEqual({
      super_user: 200,
      platform_manager: 200,
      platform_report: 404,
      platform_user: 200,
      tenant_admin: 200,
      tenant_staff: 200,
      other_tenant_admin: 404,
      attendee: 404,
      anonymous: 401,
    });
    // The other tenant's admin on the platform host is no better off.
    const otherAdmin = await givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } });
    expect((await (await signedIn(otherAdmin)).get(base(tenant))).status).toBe(404);
  });

  it('PUT and DELETE: the tenant’s admins only', async () => {
    const refused = {
      super_user: 404,
      platform_manager: 404,
      platform_report: 404,
      platform_user: 404,
      tenant_staff: 403,
      other_tenant_admin: 404,
      attendee: 404,
      anonymous: 401,
    };
    const others = Object.keys(refused) as Array<keyof typeof refused>;
    const member = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_staff'] } });
    const path = `${base(tenant)}/${member.id}`;
    expect(await statusesOf(actors, 'tenant', (c) => c.put(path, { details: { roles: ['tenant_admin'] } }), others)).toEqual(refused);
    expect(await statusesOf(actors, 'tenant', (c) => c.delete(path), others)).toEqual(refused);
    expect((await actors.tenant_admin.tenant.put(path, { details: { roles: ['tenant_admin'] } })).status).toBe(200);
    expect((await actors.tenant_admin.tenant.delete(path)).status).toBe(200);
  });
});

describe('GET /api/tenants/:tenantId/events/:eventId/staff (issue 21.14)', () => {
  const eventBase = (t: GivenTenant, eventId: string) => `/api/tenants/${t.id}/events/${eventId}/staff`;

  it("lists the event's own staff and the people invited to it, pending, expired or accepted; nobody from elsewhere", async () => {
    const { t, c } = await givenTenantWithAdmin();
    const event = await givenEvent(server, t.id, { name: 'Door Night' });
    const otherEvent = await givenEvent(server, t.id);
    const volunteer = await givenUser(server, { email: newEmail('a-volunteer'), event: { tenantId: t.id, eventId: event.id, roles: ['event_checkin'] } });
    const pending = newEmail('b-pending');
    expect((await c.post(`/api/tenants/${t.id}/events/${event.id}/staff/invites`, { email: pending, roles: ['event_manager', 'event_checkin'] })).status).toBe(201);
    const expired = newEmail('c-expired');
    expect((await c.post(`/api/tenants/${t.id}/events/${event.id}/staff/invites`, { email: expired, roles: ['event_checkin'] })).status).toBe(201);
    await server.app.deps.db.update(invites).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invites.email, expired));
    // Not listed: the tenant's own staff (they see every event), another event's staff and invites, another tenant's.
    await givenUser(server, { email: newEmail('tenant-staff'), tenant: { id: t.id, roles: ['tenant_staff'] } });
    await givenUser(server, { email: newEmail('other-event'), event: { tenantId: t.id, eventId: otherEvent.id, roles: ['event_checkin'] } });
    expect((await c.post(`/api/tenants/${t.id}/events/${otherEvent.id}/staff/invites`, { email: newEmail('other-invite'), roles: ['event_checkin'] })).status).toBe(201);
    await invite(c, t, newEmail('tenant-invite'));

    const res = await c.get(`${eventBase(t, event.id)}?limit=100`);
    expect(res.status).toBe(200);
    const [pendingInvite] = await server.app.deps.db.select().from(invites).where(eq(invites.email, pending));
    const [expiredInvite] = await server.app.deps.db.select().from(invites).where(eq(invites.email, expired));
    expect(res.body).toEqual({
      count: 3,
      cursor: null,
      result: [
        { id: volunteer.id, details: { email: volunteer.email, firstName: 'Test', lastName: 'User', roles: ['event_checkin'], status: 'ACTIVE' } },
        { id: pendingInvite!.id, details: { email: pending, firstName: '', lastName: '', roles: ['event_manager', 'event_checkin'], status: 'PENDING' } },
        { id: expiredInvite!.id, details: { email: expired, firstName: '', lastName: '', roles: ['event_checkin'], status: 'EXPIRED' } },
      ],
    });
    // Searched like the Staff page.
    expect(emailsOf((await c.get(`${eventBase(t, event.id)}?${filter('details.search=b-pending')}`)).body)).toEqual([pending]);

    // Once the invitee joins, they are listed once, as a member.
    const joined = await givenUser(server, { email: pending, event: { tenantId: t.id, eventId: event.id, roles: ['event_manager', 'event_checkin'] } });
    await server.app.deps.db.update(invites).set({ acceptedAt: new Date() }).where(eq(invites.id, pendingInvite!.id));
    const after = (await c.get(eventBase(t, event.id))).body as { result: Array<{ id: string; details: { status: string } }> };
    expect(after.result.filter((r) => r.id === joined.id || r.id === pendingInvite!.id)).toEqual([expect.objectContaining({ id: joined.id, details: expect.objectContaining({ status: 'ACTIVE' }) })]);
  });

  it("is read by the tenant's admins and staff, the platform roles that read people and the event's managers; 404 for another tenant's or an unknown event", async () => {
    const event = await givenEvent(server, tenant.id);
    const path = eventBase(tenant, event.id);
    expect(await statusesOf(actors, 'tenant', (c) => c.get(path))).toEqual({
      super_user: 200,
      platform_manager: 200,
      platform_report: 404,
      platform_user: 200,
      tenant_admin: 200,
      tenant_staff: 200,
      other_tenant_admin: 404,
      attendee: 404,
      anonymous: 401,
    });
    const manager = await signedIn(await givenUser(server, { event: { tenantId: tenant.id, eventId: event.id, roles: ['event_manager'] } }), tenant.url);
    const checkin = await signedIn(await givenUser(server, { event: { tenantId: tenant.id, eventId: event.id, roles: ['event_checkin'] } }), tenant.url);
    expect((await manager.get(path)).status).toBe(200);
    expect((await checkin.get(path)).status).toBe(403);
    // Another event's manager: 403, as on the event's other staff routes.
    const elsewhere = await givenEvent(server, tenant.id);
    expect((await manager.get(eventBase(tenant, elsewhere.id))).status).toBe(403);

    const foreign = await givenEvent(server, other.id);
    const admin = actors.tenant_admin.tenant;
    for (const id of [foreign.id, randomUUID(), 'not-a-uuid']) expect((await admin.get(eventBase(tenant, id))).status, id).toBe(404);
    expect((await admin.get(eventBase(other, foreign.id))).status).toBe(404);
    // Bad list input is a 400, not a 500.
    expect((await admin.get(`${path}?${filter('details.nope=1')}`)).status).toBe(400);
    expect((await admin.get(`${path}?limit=abc`)).status).toBe(400);
  });
});
