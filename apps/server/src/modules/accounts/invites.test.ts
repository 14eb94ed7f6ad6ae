import { M, PLATFORM_ROLES } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  givenEvent,
  givenPlatformAdmin,
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
import { invites, memberships, tenants } from '../../db/schema/index.js';
import { givenActors, statusesOf } from '../../../test/actors.js';

let server: TestServer;
let admin: GivenUser;
let platform: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await givenPlatformAdmin(server);
  platform = server.client();
  await platform.login(admin.email);
});
afterAll(async () => {
  await server.close();
});

const password = 'Inv1ted-secret!';
let n = 0;
const newEmail = (prefix: string) => `${prefix}-${++n}@example.test`;
const platformOrigin = () => `http://localhost:${server.port}`;
const tenantOrigin = (t: GivenTenant) => `http://${t.url}.localhost:${server.port}`;

async function signedIn(user: GivenUser, tenantUrl?: string) {
  const c = server.client(tenantUrl);
  await c.login(user.email, user.password);
  return c;
}

/** The link in the newest mail to an address. */
async function mailedLink(email: string) {
  const mail = await lastMailTo(server, email);
  expect(mail).toBeDefined();
  return { mail: mail!, link: linkFrom(mail!.text) };
}

/** Follows a sign-up invite link: registers with the link's parameters, then verifies from the mailed link. */
async function acceptBySignUp(signup: URL, opts: { appType: 'PLATFORM' | 'TENANT'; host?: string }) {
  const email = signup.searchParams.get('email')!;
  const c = server.client(opts.host);
  const reg = await c.post('/api/auth/register', {
    username: email,
    password,
    password2: password,
    firstName: 'Invited',
    lastName: 'Person',
    appType: opts.appType,
    inviteCode: signup.searchParams.get('inviteCode')!,
    groupId: signup.searchParams.get('groupId')!,
    ...(signup.searchParams.get('targetEventId') ? { eventId: signup.searchParams.get('targetEventId')! } : {}),
  });
  expect(reg.status).toBe(201);
  const { link: verify } = await mailedLink(email);
  return { c, email, verify };
}

async function verifyAndLogin(c: Client, verify: URL, email: string) {
  const res = await c.post('/api/auth/verify', { username: verify.searchParams.get('newUserName')!, code: verify.searchParams.get('code')! });
  expect(res.status).toBe(200);
  await c.login(email, password);
  return (await c.get('/api/auth/session')).body;
}

// ---- platform invites ------------------------------------------------------------------------

describe('POST /api/platform/users (platform invite)', () => {
  it('mails a /signup link; the invitee registers, verifies and holds all four platform roles', async () => {
    const email = newEmail('platform-new');
    const res = await platform.post('/api/platform/users', { id: email, group: { roles: ['platform_user'] } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true });

    const { mail, link } = await mailedLink(email);
    expect(mail.subject).toBe('You are invited to administer Marquee');
    expect(mail.text).toContain('Platform Admin');
    expect(mail.tenantId).toBeNull();
    expect(link.origin).toBe(platformOrigin());
    expect(link.pathname).toBe('/signup');
    expect(link.searchParams.get('groupId')).toBe('platform');
    expect(link.searchParams.get('email')).toBe(email);
    const inviteCode = link.searchParams.get('inviteCode')!;
    expect(inviteCode.length).toBeGreaterThanOrEqual(32);

    const info = await server.client().get(`/api/invites/verify?code=${encodeURIComponent(inviteCode)}&groupId=platform`);
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      email,
      groupId: 'platform',
      groupName: 'Marquee',
      appType: 'PLATFORM',
      eventId: null,
      roles: [...PLATFORM_ROLES],
      userExists: false,
      targetUrl: platformOrigin(),
    });

    const { c, verify } = await acceptBySignUp(link, { appType: 'PLATFORM' });
    expect(verify.pathname).toBe('/verify');
    expect(verify.origin).toBe(platformOrigin());
    expect(verify.searchParams.get('groupId')).toBe('platform');
    const session = await verifyAndLogin(c, verify, email);
    expect(session.memberships).toHaveLength(1);
    expect(session.memberships[0].kind).toBe('platform');
    expect([...session.memberships[0].roles].sort()).toEqual([...PLATFORM_ROLES].sort());
    // And the roles work: the new admin can invite in turn.
    expect((await c.post('/api/platform/users', { id: newEmail('second-generation') })).status).toBe(201);

    // The invite is used up.
    const used = await server.client().get(`/api/invites/verify?code=${encodeURIComponent(inviteCode)}&groupId=platform`);
    expect(used.status).toBe(404);
    expect(used.body.error.message).toBe(M.inviteFailedTitle);
  });

  it('keeps the invite through a re-sent code: signing in before verifying still ends in the platform', async () => {
    const email = newEmail('platform-resend');
    await platform.post('/api/platform/users', { id: email });
    const { link } = await mailedLink(email);
    const { c } = await acceptBySignUp(link, { appType: 'PLATFORM' });
    // The person signs in before clicking the link: refused, and a new code replaces the old.
    expect((await c.post('/api/auth/login', { username: email, password })).status).toBe(403);
    const { link: verify } = await mailedLink(email);
    expect(verify.searchParams.get('groupId')).toBe('platform');
    const session = await verifyAndLogin(c, verify, email);
    expect(session.memberships.map((m: { kind: string }) => m.kind)).toEqual(['platform']);
  });

  it('refuses a sign-up with the invite for another address, or another group', async () => {
    const email = newEmail('platform-theft');
    await platform.post('/api/platform/users', { id: email });
    const { link } = await mailedLink(email);
    const base = { password, password2: password, firstName: 'Eve', lastName: 'Dropper', appType: 'PLATFORM', inviteCode: link.searchParams.get('inviteCode') };
    const other = await server.client().post('/api/auth/register', { ...base, username: newEmail('eve'), groupId: 'platform' });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toBe(M.inviteFailedTitle);
    const wrongGroup = await server.client().post('/api/auth/register', { ...base, username: email, groupId: (await givenTenant(server)).id });
    expect(wrongGroup.status).toBe(400);
    expect(wrongGroup.body.error.message).toBe(M.inviteFailedTitle);
  });

  it('mails an existing user an /accept-invite link; link-account checks the password, then adds the membership', async () => {
    const existing = await givenUser(server);
    const res = await platform.post('/api/platform/users', { id: existing.email.toUpperCase() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true });
    const { link } = await mailedLink(existing.email);
    expect(link.origin).toBe(platformOrigin());
    expect(link.pathname).toBe('/accept-invite');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      targetGroupId: 'platform',
      code: expect.any(String),
      email: existing.email,
      userExist: 'true',
      targetName: 'Marquee',
      targetUrl: platformOrigin(),
    });
    const code = link.searchParams.get('code')!;
    const info = await server.client().get(`/api/invites/verify?code=${encodeURIComponent(code)}`);
    expect(info.body.userExists).toBe(true);

    const body = { username: existing.email, targetGroupId: 'platform', inviteCode: code };
    const c = server.client();
    const wrong = await c.post('/api/auth/link-account', { ...body, password: 'Wrong-passw0rd' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toEqual({ code: 'UNAUTHENTICATED', message: M.linkAuthFailedTitle, domainCode: 'CREDENTIALS_INVALID' });

    // Someone else's credentials do not take the invite either.
    const eve = await givenUser(server);
    const stolen = await c.post('/api/auth/link-account', { ...body, username: eve.email, password: eve.password });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error.message).toBe(M.linkFailedBody);

    const ok = await c.post('/api/auth/link-account', { ...body, password: existing.password });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, targetUrl: platformOrigin() });
    const session = (await (await signedIn(existing)).get('/api/auth/session')).body;
    expect(session.memberships).toEqual([expect.objectContaining({ kind: 'platform', roles: [...PLATFORM_ROLES] })]);
    expect((await (await signedIn(eve)).get('/api/auth/session')).body.memberships).toEqual([]);

    // Used: neither the link nor the lookup works again.
    const again = await c.post('/api/auth/link-account', { ...body, password: existing.password });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(M.linkFailedBody);
    expect((await server.client().get(`/api/invites/verify?code=${encodeURIComponent(code)}`)).status).toBe(404);
  });

  it('refuses to invite someone who already is an active platform user, whatever the case and spaces; sends nothing', async () => {
    const db = server.app.deps.db;
    const invitesTo = async (email: string) => (await db.select().from(invites).where(eq(invites.email, email))).length;
    const reporter = await givenUser(server, { email: newEmail('ops.person'), platformRoles: ['platform_report'] });
    for (const [who, typed] of [
      ['oneself', admin.email],
      ['a member with fewer roles, typed in capitals with spaces', `  ${reporter.email.toUpperCase()} `],
    ] as const) {
      const res = await platform.post('/api/platform/users', { id: typed });
      expect({ who, status: res.status, body: res.body }).toEqual({ who, status: 409, body: { error: { code: 'CONFLICT', message: M.alreadyPlatformUser } } });
    }
    expect(await lastMailTo(server, reporter.email)).toBeUndefined();
    expect(await lastMailTo(server, admin.email)).toBeUndefined();
    expect(await invitesTo(reporter.email)).toBe(0);
    expect(await invitesTo(admin.email)).toBe(0);
    // Their roles are untouched.
    const [m] = await db.select({ roles: memberships.roles }).from(memberships).where(eq(memberships.userId, reporter.id));
    expect(m!.roles).toEqual(['platform_report']);

    // Not refused: a pending invitee (the invite is sent again), an active account without
    // platform access, and a platform member whose own account is still pending.
    const invitee = newEmail('again');
    expect((await platform.post('/api/platform/users', { id: invitee })).status).toBe(201);
    expect((await platform.post('/api/platform/users', { id: invitee })).status).toBe(201);
    expect(await invitesTo(invitee)).toBe(2);
    const organiser = await givenUser(server, { tenant: { id: (await givenTenant(server)).id, roles: ['tenant_admin'] } });
    expect((await platform.post('/api/platform/users', { id: organiser.email })).body).toEqual({ success: true });
    const pendingMember = await givenUser(server, { status: 'PENDING', platformRoles: ['platform_user'] });
    expect((await platform.post('/api/platform/users', { id: pendingMember.email })).status).toBe(201);
  });

  it('is for super users only, as it grants the super_user role; other platform roles 403, others 401/404', async () => {
    const tenant = await givenTenant(server);
    const other = await givenTenant(server);
    const actors = await givenActors(server, tenant, other);
    const sent: string[] = [];
    const statuses = await statusesOf(actors, 'platform', (c) => {
      const address = newEmail('matrix');
      sent.push(address);
      return c.post('/api/platform/users', { id: address });
    });
    expect(statuses).toEqual({
      super_user: 201,
      platform_manager: 403,
      platform_report: 403,
      platform_user: 403,
      tenant_admin: 403,
      tenant_staff: 403,
      other_tenant_admin: 403,
      attendee: 403,
      anonymous: 401,
    });
    // Only the super user's invite was mailed.
    expect(await lastMailTo(server, sent[0]!)).toBeDefined();
    for (const address of sent.slice(1)) expect(await lastMailTo(server, address)).toBeUndefined();
    const refused = await actors.platform_manager.platform.post('/api/platform/users', { id: newEmail('nope') });
    expect(refused.body.error.message).toBe(M.forbidden);

    // Platform routes do not exist on a tenant's host, even for a platform admin.
    const body = { id: newEmail('tenant-host') };
    const onTenantHost = await signedIn(admin, tenant.url);
    expect((await onTenantHost.post('/api/platform/users', body)).status).toBe(404);
    expect(await lastMailTo(server, body.id)).toBeUndefined();
  });

  it.each([
    [{}, M.emailRequired],
    [{ id: '' }, M.emailRequired],
    [{ id: 'not-an-email' }, M.emailFormat],
    [{ id: 'two@@example.test' }, M.emailFormat],
  ])('refuses %o with the spec message', async (body, message) => {
    const res = await platform.post('/api/platform/users', body);
    expect(res.status).toBe(400);
    expect(res.body.error.fields.id).toBe(message);
  });
});

describe('POST /api/auth/link-account validation', () => {
  const valid = { username: 'someone@example.test', targetGroupId: 'platform', inviteCode: 'code', password: 'Whatever1!' };
  it.each([
    [{ password: '' }, 'password', M.passwordRequired],
    [{ username: 'nope' }, 'username', M.validEmail],
    [{ username: undefined }, 'username', M.validEmail],
    [{ inviteCode: '' }, 'inviteCode', undefined],
    [{ targetGroupId: '' }, 'targetGroupId', undefined],
  ])('refuses %o', async (patch, field, message) => {
    const res = await server.client().post('/api/auth/link-account', { ...valid, ...patch });
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBeDefined();
    if (message) expect(res.body.error.fields[field]).toBe(message);
  });

  it('answers an unknown account like a wrong password (401)', async () => {
    const res = await server.client().post('/api/auth/link-account', valid);
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 'UNAUTHENTICATED', message: M.linkAuthFailedTitle, domainCode: 'CREDENTIALS_INVALID' });
  });
});

describe('GET /api/invites/verify', () => {
  it('answers 404 for an unknown code, another group, or an expired invite', async () => {
    const unknown = await server.client().get('/api/invites/verify?code=not-a-real-code');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(M.inviteFailedTitle);

    const email = newEmail('expiring');
    await platform.post('/api/platform/users', { id: email });
    const code = (await mailedLink(email)).link.searchParams.get('inviteCode')!;
    const q = `/api/invites/verify?code=${encodeURIComponent(code)}`;
    expect((await server.client().get(q)).status).toBe(200);
    expect((await server.client().get(`${q}&groupId=${(await givenTenant(server)).id}`)).status).toBe(404);
    await server.app.deps.db.update(invites).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invites.email, email));
    expect((await server.client().get(q)).status).toBe(404);
    // And an expired invite cannot be used to register.
    const reg = await server.client().post('/api/auth/register', {
      username: email,
      password,
      password2: password,
      firstName: 'Late',
      lastName: 'Comer',
      appType: 'PLATFORM',
      inviteCode: code,
      groupId: 'platform',
    });
    expect(reg.status).toBe(400);
    expect(reg.body.error.message).toBe(M.inviteFailedTitle);
  });

  it('refuses a missing code', async () => {
    expect((await server.client().get('/api/invites/verify')).status).toBe(400);
  });
});

// ---- tenant staff invites ---------------------------------------------------------------------

describe('POST /api/tenants/:tenantId/staff/invites', () => {
  let tenant: GivenTenant;
  let other: GivenTenant;
  let tenantAdmin: GivenUser;
  let adminOnHost: Client;
  beforeAll(async () => {
    tenant = await givenTenant(server, { name: 'Riverside Hall' });
    other = await givenTenant(server);
    tenantAdmin = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
    adminOnHost = await signedIn(tenantAdmin, tenant.url);
  });

  it('mails the tenant’s own invite template with a link to the tenant host; the invitee joins the tenant', async () => {
    const email = newEmail('staff-new');
    const res = await adminOnHost.post(`/api/tenants/${tenant.id}/staff/invites`, { email, roles: ['tenant_staff'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true });

    const { mail, link } = await mailedLink(email);
    expect(mail.subject).toBe(`[${tenant.name}] Join ${tenant.name}`);
    expect(mail.text).toContain(`You are invited to ${tenant.name}.`);
    expect(mail.tenantId).toBe(tenant.id);
    expect(link.origin).toBe(tenantOrigin(tenant));
    expect(link.pathname).toBe('/signup');
    expect(link.searchParams.get('groupId')).toBe(tenant.id);

    const info = await server.client(tenant.url).get(`/api/invites/verify?code=${encodeURIComponent(link.searchParams.get('inviteCode')!)}&groupId=${tenant.id}`);
    expect(info.body).toMatchObject({ appType: 'TENANT', groupName: tenant.name, roles: ['tenant_staff'], targetUrl: tenantOrigin(tenant) });

    const { c, verify } = await acceptBySignUp(link, { appType: 'TENANT', host: tenant.url });
    expect(verify.origin).toBe(tenantOrigin(tenant));
    expect(verify.pathname).toBe('/verify');
    const session = await verifyAndLogin(c, verify, email);
    expect(session.memberships).toEqual([
      { groupId: tenant.id, kind: 'tenant', tenantId: tenant.id, tenantName: tenant.name, tenantUrl: tenantOrigin(tenant), eventId: null, roles: ['tenant_staff'] },
    ]);
  });

  it('uses the template the tenant has now, and a tenant-host accept link for an existing user', async () => {
    await server.app.deps.db
      .update(tenants)
      .set({ inviteTemplateSubject: 'Come work the doors', inviteTemplateBody: 'We would love your help.\n\nSee you soon.' })
      .where(eq(tenants.id, tenant.id));
    const existing = await givenUser(server);
    const res = await adminOnHost.post(`/api/tenants/${tenant.id}/staff/invites`, { email: existing.email, roles: ['tenant_admin', 'tenant_staff'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true });
    const { mail, link } = await mailedLink(existing.email);
    expect(mail.subject).toBe(`[${tenant.name}] Come work the doors`);
    expect(mail.text).toContain('We would love your help.');
    expect(mail.html).toContain('<p>See you soon.</p>');
    expect(link.origin).toBe(tenantOrigin(tenant));
    expect(link.pathname).toBe('/accept-invite');
    expect(link.searchParams.get('targetGroupId')).toBe(tenant.id);
    expect(link.searchParams.get('targetName')).toBe(tenant.name);
    expect(link.searchParams.get('targetUrl')).toBe(tenantOrigin(tenant));

    const ok = await server.client(tenant.url).post('/api/auth/link-account', {
      username: existing.email,
      targetGroupId: tenant.id,
      inviteCode: link.searchParams.get('code'),
      password: existing.password,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.targetUrl).toBe(tenantOrigin(tenant));
    const rows = await server.app.deps.db.select().from(memberships).where(eq(memberships.userId, existing.id));
    expect(rows).toEqual([expect.objectContaining({ groupId: tenant.id, tenantId: tenant.id, eventId: null, roles: ['tenant_admin', 'tenant_staff'] })]);
  });

  it('adds roles to a membership the person already has', async () => {
    const staff = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_staff'] } });
    await adminOnHost.post(`/api/tenants/${tenant.id}/staff/invites`, { email: staff.email, roles: ['tenant_admin'] });
    const { link } = await mailedLink(staff.email);
    const ok = await server.client(tenant.url).post('/api/auth/link-account', {
      username: staff.email,
      targetGroupId: tenant.id,
      inviteCode: link.searchParams.get('code'),
      password: staff.password,
    });
    expect(ok.status).toBe(200);
    const rows = await server.app.deps.db.select().from(memberships).where(eq(memberships.userId, staff.id));
    expect(rows).toHaveLength(1);
    expect([...rows[0]!.roles].sort()).toEqual(['tenant_admin', 'tenant_staff']);
  });

  it('grants the invite’s roles, whatever roles the link-account call names', async () => {
    const person = await givenUser(server);
    await adminOnHost.post(`/api/tenants/${tenant.id}/staff/invites`, { email: person.email, roles: ['tenant_staff'] });
    const { link } = await mailedLink(person.email);
    const ok = await server.client(tenant.url).post('/api/auth/link-account', {
      username: person.email,
      targetGroupId: tenant.id,
      inviteCode: link.searchParams.get('code'),
      password: person.password,
      roles: 'tenant_admin,super_user',
    });
    expect(ok.status).toBe(200);
    const rows = await server.app.deps.db.select().from(memberships).where(eq(memberships.userId, person.id));
    expect(rows.map((r) => r.roles)).toEqual([['tenant_staff']]);
  });

  it('answers another tenant’s admin with 404, on the platform host and on their own host', async () => {
    const otherAdmin = await givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } });
    const email = newEmail('cross-tenant');
    for (const c of [await signedIn(otherAdmin), await signedIn(otherAdmin, other.url)]) {
      const res = await c.post(`/api/tenants/${tenant.id}/staff/invites`, { email, roles: ['tenant_staff'] });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe(M.notFound);
    }
    // Nor through this tenant's host with their own tenant's id.
    const mixed = await signedIn(tenantAdmin, tenant.url);
    expect((await mixed.post(`/api/tenants/${other.id}/staff/invites`, { email, roles: ['tenant_staff'] })).status).toBe(404);
    expect(await lastMailTo(server, email)).toBeUndefined();
  });

  it('answers tenant staff with 403, strangers with 404 and no session with 401', async () => {
    const body = { email: newEmail('matrix'), roles: ['tenant_staff'] };
    const staff = await signedIn(await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_staff'] } }), tenant.url);
    const asStaff = await staff.post(`/api/tenants/${tenant.id}/staff/invites`, body);
    expect(asStaff.status).toBe(403);
    expect(asStaff.body.error.message).toBe(M.forbidden);
    const stranger = await signedIn(await givenUser(server));
    expect((await stranger.post(`/api/tenants/${tenant.id}/staff/invites`, body)).status).toBe(404);
    expect((await server.client(tenant.url).post(`/api/tenants/${tenant.id}/staff/invites`, body)).status).toBe(401);
    // A platform report user is not a platform manager.
    const reporter = await signedIn(await givenUser(server, { platformRoles: ['platform_report'] }));
    expect((await reporter.post(`/api/tenants/${tenant.id}/staff/invites`, body)).status).toBe(404);
    expect(await lastMailTo(server, body.email)).toBeUndefined();
  });

  it('lets a platform admin invite from the platform host', async () => {
    const res = await platform.post(`/api/tenants/${tenant.id}/staff/invites`, { email: newEmail('by-platform'), roles: ['tenant_admin'] });
    expect(res.status).toBe(201);
  });

  it('answers 404 for an unknown, deleted or malformed tenant id', async () => {
    const gone = await givenTenant(server);
    await server.app.deps.db.update(tenants).set({ deletedAt: new Date() }).where(eq(tenants.id, gone.id));
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', gone.id]) {
      const res = await platform.post(`/api/tenants/${id}/staff/invites`, { email: newEmail('ghost'), roles: ['tenant_staff'] });
      expect(res.status, id).toBe(404);
    }
  });

  it.each([
    [{ email: '', roles: ['tenant_staff'] }, 'email', M.emailRequired],
    [{ email: 'nope', roles: ['tenant_staff'] }, 'email', M.emailFormat],
    [{ email: 'ok@example.test', roles: [] }, 'roles', undefined],
    [{ email: 'ok@example.test', roles: ['super_user'] }, 'roles.0', undefined],
    [{ email: 'ok@example.test' }, 'roles', undefined],
  ])('refuses %o', async (body, field, message) => {
    const res = await adminOnHost.post(`/api/tenants/${tenant.id}/staff/invites`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBeDefined();
    if (message) expect(res.body.error.fields[field]).toBe(message);
  });
});

// ---- event staff invites ----------------------------------------------------------------------

describe('POST /api/tenants/:tenantId/events/:eventId/staff/invites', () => {
  let tenant: GivenTenant;
  let event: { id: string };
  let adminOnHost: Client;
  beforeAll(async () => {
    tenant = await givenTenant(server);
    event = await givenEvent(server, tenant.id, { name: 'Harbour Lights Festival' });
    adminOnHost = await signedIn(await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } }), tenant.url);
  });

  it('signs a new person up through /event-staff-verify into a membership of that event with those roles', async () => {
    const email = newEmail('event-new');
    const res = await adminOnHost.post(`/api/tenants/${tenant.id}/events/${event.id}/staff/invites`, { email, roles: ['event_checkin'] });
    expect(res.status).toBe(201);
    const { link } = await mailedLink(email);
    expect(link.origin).toBe(tenantOrigin(tenant));
    expect(link.pathname).toBe('/signup');
    expect(link.searchParams.get('targetEventId')).toBe(event.id);
    expect(link.searchParams.get('roles')).toBe('event_checkin');

    const { c, verify } = await acceptBySignUp(link, { appType: 'TENANT', host: tenant.url });
    // spec: accounts §2 /event-staff-verify?newUserName&code&groupId&inviteCode&targetEventId&roles
    expect(verify.origin).toBe(tenantOrigin(tenant));
    expect(verify.pathname).toBe('/event-staff-verify');
    expect([...verify.searchParams.keys()].sort()).toEqual(['code', 'groupId', 'inviteCode', 'newUserName', 'roles', 'targetEventId']);
    expect(verify.searchParams.get('newUserName')).toBe(email);
    expect(verify.searchParams.get('groupId')).toBe(tenant.id);
    expect(verify.searchParams.get('inviteCode')).toBe(link.searchParams.get('inviteCode'));
    expect(verify.searchParams.get('targetEventId')).toBe(event.id);
    expect(verify.searchParams.get('roles')).toBe('event_checkin');

    const session = await verifyAndLogin(c, verify, email);
    expect(session.memberships).toEqual([expect.objectContaining({ kind: 'event', tenantId: tenant.id, eventId: event.id, roles: ['event_checkin'] })]);
  });

  it('links an existing person with the event id and roles', async () => {
    const existing = await givenUser(server);
    const res = await adminOnHost.post(`/api/tenants/${tenant.id}/events/${event.id}/staff/invites`, {
      email: existing.email,
      roles: ['event_manager', 'event_checkin'],
    });
    expect(res.status).toBe(201);
    const { mail, link } = await mailedLink(existing.email);
    // Marquee's words for the roles, naming the tenant and the event (issue 21.14).
    expect(mail.subject).toBe(`[${tenant.name}] Help run Harbour Lights Festival`);
    expect(mail.text).toContain(`${tenant.name} invited you to manage Harbour Lights Festival on Marquee`);
    expect(mail.text).toContain('and you check attendees in at the door.');
    expect(mail.text).toContain('Open this link to accept with your Marquee account:');
    expect(link.pathname).toBe('/accept-invite');
    expect(link.searchParams.get('targetEventId')).toBe(event.id);
    expect(link.searchParams.get('roles')).toBe('event_manager,event_checkin');
    const body = {
      username: existing.email,
      targetGroupId: tenant.id,
      inviteCode: link.searchParams.get('code'),
      password: existing.password,
      roles: link.searchParams.get('roles'),
    };
    // The invite is for this event; naming another one is refused.
    const wrongEvent = await server.client(tenant.url).post('/api/auth/link-account', { ...body, eventId: (await givenEvent(server, tenant.id)).id });
    expect(wrongEvent.status).toBe(400);
    expect(wrongEvent.body.error.message).toBe(M.linkFailedBody);
    const ok = await server.client(tenant.url).post('/api/auth/link-account', { ...body, eventId: event.id });
    expect(ok.status).toBe(200);
    const rows = await server.app.deps.db.select().from(memberships).where(eq(memberships.userId, existing.id));
    expect(rows).toEqual([expect.objectContaining({ tenantId: tenant.id, eventId: event.id, roles: ['event_manager', 'event_checkin'] })]);

    // As this event's manager, they may invite for it, but not for another event of the tenant.
    const manager = await signedIn(existing, tenant.url);
    expect((await manager.post(`/api/tenants/${tenant.id}/events/${event.id}/staff/invites`, { email: newEmail('by-manager'), roles: ['event_checkin'] })).status).toBe(
      201,
    );
    const another = await givenEvent(server, tenant.id);
    expect((await manager.post(`/api/tenants/${tenant.id}/events/${another.id}/staff/invites`, { email: newEmail('x'), roles: ['event_checkin'] })).status).toBe(403);
    expect((await manager.post(`/api/tenants/${tenant.id}/staff/invites`, { email: newEmail('x'), roles: ['tenant_staff'] })).status).toBe(403);
  });

  it("tells a volunteer what the check-in role is, in Marquee's words, not the tenant's invite for its organisers (issue 21.14)", async () => {
    await server.app.deps.db
      .update(tenants)
      .set({ inviteTemplateSubject: 'Your Marquee organiser account is ready', inviteTemplateBody: 'Publish your first event to put it on sale.' })
      .where(eq(tenants.id, tenant.id));
    const email = newEmail('volunteer');
    expect((await adminOnHost.post(`/api/tenants/${tenant.id}/events/${event.id}/staff/invites`, { email, roles: ['event_checkin'] })).status).toBe(201);
    const { mail, link } = await mailedLink(email);
    expect(mail.subject).toBe(`[${tenant.name}] Help check in attendees at Harbour Lights Festival`);
    expect(mail.text).toContain(`${tenant.name} invited you to check in attendees at Harbour Lights Festival on Marquee.`);
    expect(mail.text).toContain("scan each ticket's QR code");
    expect(mail.text).toContain('Open this link to accept and create your Marquee account:');
    expect(mail.text).toContain(link.href);
    expect(mail.html).toContain('Accept and create my account');
    for (const organiserWords of ['organiser account', 'Publish your first event', 'wrote:']) {
      expect(mail.subject + mail.text + mail.html).not.toContain(organiserWords);
    }
    // A tenant-wide invite still carries the tenant's own words, marked as theirs.
    const staffEmail = newEmail('staff');
    await adminOnHost.post(`/api/tenants/${tenant.id}/staff/invites`, { email: staffEmail, roles: ['tenant_staff'] });
    expect((await mailedLink(staffEmail)).mail.subject).toBe(`[${tenant.name}] Your Marquee organiser account is ready`);
  });

  it('refuses an invite to a cancelled event with 409 EVENT_CANCELLED, inviting and mailing nobody (issue 21.14)', async () => {
    const doomed = await givenEvent(server, tenant.id, { name: 'Rained Off' });
    expect((await adminOnHost.post(`/api/tenants/${tenant.id}/events/${doomed.id}/cancel`, {})).status).toBe(200);
    const email = newEmail('too-late');
    for (const roles of [['event_checkin'], ['event_manager']]) {
      const res = await adminOnHost.post(`/api/tenants/${tenant.id}/events/${doomed.id}/staff/invites`, { email, roles });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'CONFLICT', domainCode: 'EVENT_CANCELLED', message: M.eventCancelledNoInvites });
    }
    expect(await server.app.deps.db.select().from(invites).where(eq(invites.email, email))).toEqual([]);
    expect(await lastMailTo(server, email)).toBeUndefined();
  });

  it('answers 404 for another tenant’s event, an unknown event and a malformed id', async () => {
    const otherTenant = await givenTenant(server);
    const foreign = await givenEvent(server, otherTenant.id);
    for (const id of [foreign.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await adminOnHost.post(`/api/tenants/${tenant.id}/events/${id}/staff/invites`, { email: newEmail('ev404'), roles: ['event_checkin'] });
      expect(res.status, id).toBe(404);
    }
    // And the other tenant's own id with its event is 404 to this tenant's admin.
    expect(
      (await adminOnHost.post(`/api/tenants/${otherTenant.id}/events/${foreign.id}/staff/invites`, { email: newEmail('ev404'), roles: ['event_checkin'] })).status,
    ).toBe(404);
  });

  it('answers checkin staff with 403 and refuses tenant roles in an event invite', async () => {
    const checkin = await signedIn(await givenUser(server, { event: { tenantId: tenant.id, eventId: event.id, roles: ['event_checkin'] } }), tenant.url);
    expect((await checkin.post(`/api/tenants/${tenant.id}/events/${event.id}/staff/invites`, { email: newEmail('c'), roles: ['event_checkin'] })).status).toBe(403);
    const bad = await adminOnHost.post(`/api/tenants/${tenant.id}/events/${event.id}/staff/invites`, { email: newEmail('c'), roles: ['tenant_admin'] });
    expect(bad.status).toBe(400);
    const badEmail = await adminOnHost.post(`/api/tenants/${tenant.id}/events/${event.id}/staff/invites`, { email: 'nope', roles: ['event_checkin'] });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error.fields.email).toBe(M.emailFormat);
  });
});
