import { TENANT_ROLES } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenTenant, givenUser, lastMailTo, startServer, type Client, type TestServer } from '../../../test/harness.js';

// issue 14 §4: nothing tells a caller whether an address has a Marquee account, and tenant staff
// cannot use Marquee's sender to mail whatever they like to whomever they like.

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ rateLimitInvitesPer10Minutes: 2 });
});
afterAll(async () => {
  await server.close();
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('POST /api/auth/forgot-password timing', () => {
  it('answers a known and an unknown address in the same time (medians over many requests)', async () => {
    const known = await givenUser(server);
    const c = server.client();
    const timed = async (username: string) => {
      const started = performance.now();
      const res = await c.post('/api/auth/forgot-password', { username });
      expect(res.status).toBe(202);
      return performance.now() - started;
    };
    await timed(known.email);
    await timed('warm-up@example.test');
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 25; i++) {
      knownTimes.push(await timed(known.email));
      unknownTimes.push(await timed(`nobody-${i}@example.test`));
    }
    // The same work either way: the medians differ by less than 5 ms, or by less than a quarter of the
    // faster one when a loaded machine makes every request slow (a password hash or a mail sent
    // only for a known address costs 50 ms and more, and fails either bound).
    const [k, u] = [median(knownTimes), median(unknownTimes)];
    const gap = Math.abs(k - u);
    expect(gap, `known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`).toBeLessThan(Math.max(5, Math.min(k, u) / 4));
  });
});

describe('staff invites', () => {
  async function tenantAdmin(tenantId: string): Promise<Client> {
    const admin = await givenUser(server, { tenant: { id: tenantId, roles: [...TENANT_ROLES] } });
    const c = server.client();
    await c.login(admin.email);
    return c;
  }

  it('do not say whether the invited address has an account', async () => {
    const tenant = await givenTenant(server);
    const admin = await tenantAdmin(tenant.id);
    const existing = await givenUser(server);
    const a = await admin.post(`/api/tenants/${tenant.id}/staff/invites`, { email: existing.email, roles: ['tenant_admin'] });
    const b = await admin.post(`/api/tenants/${tenant.id}/staff/invites`, { email: 'never-seen@example.test', roles: ['tenant_admin'] });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body).toEqual({ success: true });
    expect(b.body).toEqual({ success: true });
  });

  it('are limited per inviter and per tenant', async () => {
    const tenant = await givenTenant(server);
    const invite = (c: Client, i: string) => c.post(`/api/tenants/${tenant.id}/staff/invites`, { email: `limit-${i}@example.test`, roles: ['tenant_admin'] });
    // Two per inviter in 10 minutes, six per tenant.
    const first = await tenantAdmin(tenant.id);
    expect((await invite(first, '1a')).status).toBe(201);
    expect((await invite(first, '1b')).status).toBe(201);
    const third = await invite(first, '1c');
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    for (const who of ['2', '3']) {
      const other = await tenantAdmin(tenant.id);
      expect((await invite(other, `${who}a`)).status).toBe(201);
      expect((await invite(other, `${who}b`)).status).toBe(201);
    }
    const fourth = await tenantAdmin(tenant.id);
    expect((await invite(fourth, '4a')).status).toBe(429);
    // Another tenant is not held back by this one.
    const elsewhere = await givenTenant(server);
    const theirs = await tenantAdmin(elsewhere.id);
    expect((await theirs.post(`/api/tenants/${elsewhere.id}/staff/invites`, { email: 'limit-x@example.test', roles: ['tenant_admin'] })).status).toBe(201);
  });

  it("mark the tenant's own words as the tenant's", async () => {
    const tenant = await givenTenant(server);
    const admin = await tenantAdmin(tenant.id);
    // The tenant's admin wrote the template (an operator's is marked as the Marquee team's: tenant-admin-invite.test.ts).
    expect((await admin.patch(`/api/tenants/${tenant.id}`, { details: { inviteTemplateBody: 'Join our crew.' } })).status).toBe(200);
    const email = 'marked@example.test';
    expect((await admin.post(`/api/tenants/${tenant.id}/staff/invites`, { email, roles: ['tenant_admin'] })).status).toBe(201);
    const mail = (await lastMailTo(server, email))!;
    expect(mail.subject.startsWith(`[${tenant.name}] `)).toBe(true);
    expect(mail.text).toContain(`${tenant.name} wrote:`);
    expect(mail.text).toContain(`This invitation was written by ${tenant.name}, not by Marquee.`);
  });
});
