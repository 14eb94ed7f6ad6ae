import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globalTicketSettings, invites, outbox, tenants } from '../../db/schema/index.js';
import { DEFAULT_PASSWORD, givenPlatformAdmin, givenTenantWithSettings, givenUser, lastMailTo, linkFrom, startServer, validationError, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { ensureGlobalFeeDefaults } from '../fees/service.js';

// issue 15 Operators: Create New Tenant invites the tenant's e-mail as its admin (spec accounts §3, §7).
let server: TestServer;
let admin: Client;
let other: GivenTenant;

beforeAll(async () => {
  server = await startServer();
  await ensureGlobalFeeDefaults(server.app.deps);
  const user = await givenPlatformAdmin(server);
  admin = server.client();
  await admin.login(user.email);
  other = await givenTenantWithSettings(server);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;
const tag = () => randomUUID().slice(0, 8);
function newTenant(t: string) {
  return {
    details: {
      name: `River Events ${t}`,
      email: `owner-${t}@river.test`,
      phone: '+1 (555) 123 4567',
      inviteTemplateSubject: 'Run River Events with us',
      inviteTemplateBody: 'Hello,\n\nYou have been invited to run River Events on Marquee.',
      url: `river-${t}`,
    },
  };
}
const staffOf = async (id: string) => (await admin.get(`/api/tenants/${id}/staff`)).body;

describe('creating a tenant invites its admin', () => {
  it("mails the tenant's e-mail an invite from its template; the invite is pending, then accepted once the admin signs up", async () => {
    const input = newTenant(tag());
    const res = await admin.post('/api/tenants', input);
    expect(res.status).toBe(201);
    const { id } = res.body;
    const email = input.details.email;

    const mail = await lastMailTo(server, email);
    expect(mail).toBeDefined();
    expect(mail!.tenantId).toBe(id);
    expect(mail!.subject).toBe(`[${input.details.name}] Run River Events with us`);
    expect(mail!.text).toContain('You have been invited to run River Events on Marquee.');
    const link = linkFrom(mail!.text);
    expect(link.pathname).toBe('/signup');
    expect(link.host).toBe(`${input.details.url}.localhost:${server.port}`);
    expect(link.searchParams.get('groupId')).toBe(id);
    expect(link.searchParams.get('email')).toBe(email);

    const pending = await staffOf(id);
    expect(pending.result).toEqual([{ id: expect.any(String), details: { email, firstName: '', lastName: '', roles: ['tenant_admin'], status: 'PENDING' } }]);

    // The new admin accepts on the tenant's host, verifies and signs in as its admin.
    const c = server.client(input.details.url);
    const reg = await c.post('/api/auth/register', {
      username: email,
      password: DEFAULT_PASSWORD,
      password2: DEFAULT_PASSWORD,
      firstName: 'Riley',
      lastName: 'River',
      appType: 'TENANT',
      inviteCode: link.searchParams.get('inviteCode')!,
      groupId: id,
    });
    expect(reg.status).toBe(201);
    const verify = linkFrom((await lastMailTo(server, email))!.text);
    expect((await c.post('/api/auth/verify', { username: email, code: verify.searchParams.get('code')! })).status).toBe(200);
    await c.login(email, DEFAULT_PASSWORD);
    const session = (await c.get('/api/auth/session')).body;
    expect(session.memberships).toEqual([expect.objectContaining({ tenantId: id, roles: ['tenant_admin'] })]);
    // ...and can act as one: their tenant's staff list shows them active.
    const own = await c.get(`/api/tenants/${id}/staff`);
    expect(own.status).toBe(200);
    expect(own.body.result).toEqual([{ id: expect.any(String), details: { email, firstName: 'Riley', lastName: 'River', roles: ['tenant_admin'], status: 'ACTIVE' } }]);
  });

  it('shows an expired invite as expired; resending (the staff invite, as tenant_admin) makes it pending again and mails a new link', async () => {
    const input = newTenant(tag());
    const { id } = (await admin.post('/api/tenants', input)).body;
    const email = input.details.email;
    const first = linkFrom((await lastMailTo(server, email))!.text);
    await db().update(invites).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invites.tenantId, id));
    expect((await staffOf(id)).result[0].details.status).toBe('EXPIRED');

    const resend = await admin.post(`/api/tenants/${id}/staff/invites`, { email, roles: ['tenant_admin'] });
    expect(resend.status).toBe(201);
    const again = linkFrom((await lastMailTo(server, email))!.text);
    expect(again.searchParams.get('inviteCode')).not.toBe(first.searchParams.get('inviteCode'));
    expect((await staffOf(id)).result.map((r: { details: { status: string } }) => r.details.status)).toEqual(['PENDING']);

    // Another admin, and the bad inputs: a clear 400, another tenant's id 404 for its admin-to-be list.
    const second = `second-${tag()}@river.test`;
    expect((await admin.post(`/api/tenants/${id}/staff/invites`, { email: second, roles: ['tenant_admin'] })).status).toBe(201);
    expect((await lastMailTo(server, second))!.subject).toBe(`[${input.details.name}] Run River Events with us`);
    const bad = await admin.post(`/api/tenants/${id}/staff/invites`, { email: 'not-an-email', roles: ['tenant_admin'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(validationError('email', M.emailFormat));
    expect((await admin.post(`/api/tenants/${randomUUID()}/staff/invites`, { email: second, roles: ['tenant_admin'] })).status).toBe(404);
    // The other tenant is untouched.
    expect((await staffOf(other.id)).result.some((r: { details: { email: string } }) => r.details.email === second)).toBe(false);
  });

  it('writes nothing, no invite and no mail, when the tenant cannot be created', async () => {
    const input = newTenant(tag());
    await db().delete(globalTicketSettings);
    try {
      const res = await admin.post('/api/tenants', input);
      expect(res.status).toBe(503);
    } finally {
      await ensureGlobalFeeDefaults(server.app.deps);
    }
    expect(await db().select().from(tenants).where(eq(tenants.url, input.details.url))).toEqual([]);
    expect(await db().select().from(invites).where(eq(invites.email, input.details.email))).toEqual([]);
    await server.app.deps.jobs.drain();
    expect(await db().select().from(outbox).where(eq(outbox.to, input.details.email))).toEqual([]);
  });
});

describe('whose words the invite carries (issue 21.19)', () => {
  it("an operator's template is the Marquee team's; once the tenant's admin rewrites it, it is the tenant's; an operator's rewrite is the team's again", async () => {
    const input = newTenant(tag());
    const { id } = (await admin.post('/api/tenants', input)).body;
    const name = input.details.name;
    const first = (await lastMailTo(server, input.details.email))!;
    expect(first.text).toContain(`The Marquee team wrote, for ${name}:`);
    expect(first.text).toContain(`This invitation was written by the Marquee team for ${name}. Marquee never asks for your password by e-mail.`);
    expect(first.text).not.toContain(`written by ${name}`);

    const tenantAdmin = await givenUser(server, { tenant: { id, roles: ['tenant_admin'] } });
    const own = server.client(input.details.url);
    await own.login(tenantAdmin.email);
    const inviteStaff = async (c: Client, email: string) => {
      expect((await c.post(`/api/tenants/${id}/staff/invites`, { email, roles: ['tenant_staff'] })).status).toBe(201);
      return (await lastMailTo(server, email))!.text;
    };
    // Staff invited before any rewrite still get the operator's words, marked as such.
    expect(await inviteStaff(own, `s1-${tag()}@river.test`)).toContain(`written by the Marquee team for ${name}`);

    // The phone alone changes nothing; the tenant's admin rewriting the body makes it the tenant's.
    expect((await own.patch(`/api/tenants/${id}`, { details: { phone: '+1 (555) 987 6543' } })).status).toBe(200);
    expect(await inviteStaff(own, `s2-${tag()}@river.test`)).toContain(`written by the Marquee team for ${name}`);
    expect((await own.patch(`/api/tenants/${id}`, { details: { inviteTemplateBody: 'Come and help us run the river shows.' } })).status).toBe(200);
    const byTenant = await inviteStaff(own, `s3-${tag()}@river.test`);
    expect(byTenant).toContain(`${name} wrote:`);
    expect(byTenant).toContain(`This invitation was written by ${name}, not by Marquee.`);

    expect((await admin.patch(`/api/tenants/${id}`, { details: { inviteTemplateSubject: 'Join the river crew' } })).status).toBe(200);
    expect(await inviteStaff(own, `s4-${tag()}@river.test`)).toContain(`written by the Marquee team for ${name}`);
  });
});

