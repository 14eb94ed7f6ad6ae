import type { Client, GivenTenant, TestServer } from '../../../test/harness.js';
import { givenTenant, givenUser } from '../../../test/harness.js';

// Signed-in clients for the role matrix of the tenant console's event routes. Tenant members sign
// in on the tenant's host and platform operators on the platform host (sessions are host-bound).

export type Actors = {
  admin: Client;
  staff: Client;
  eventManager: Client;
  checkin: Client;
  otherEventManager: Client;
  platformManager: Client;
  platformReport: Client;
  /** tenant_admin of another tenant, on this tenant's host. */
  outsider: Client;
  /** The same outsider on their own tenant's host, asking for this tenant's ids. */
  outsiderHome: Client;
  anonymous: Client;
};

export async function givenActors(server: TestServer, tenant: GivenTenant, eventId: string, otherEventId: string): Promise<Actors> {
  const other = await givenTenant(server);
  const signIn = async (user: { email: string }, host?: string) => {
    const c = server.client(host);
    await c.login(user.email);
    return c;
  };
  const [admin, staff, eventManager, checkin, otherEventManager, platformManager, platformReport, outsider] = await Promise.all([
    givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } }).then((u) => signIn(u, tenant.url)),
    givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_staff'] } }).then((u) => signIn(u, tenant.url)),
    givenUser(server, { event: { tenantId: tenant.id, eventId, roles: ['event_manager'] } }).then((u) => signIn(u, tenant.url)),
    givenUser(server, { event: { tenantId: tenant.id, eventId, roles: ['event_checkin'] } }).then((u) => signIn(u, tenant.url)),
    givenUser(server, { event: { tenantId: tenant.id, eventId: otherEventId, roles: ['event_manager'] } }).then((u) => signIn(u, tenant.url)),
    givenUser(server, { platformRoles: ['platform_manager'] }).then((u) => signIn(u)),
    givenUser(server, { platformRoles: ['platform_report'] }).then((u) => signIn(u)),
    givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } }).then(async (u) => [await signIn(u, tenant.url), await signIn(u, other.url)] as const),
  ]);
  return {
    admin,
    staff,
    eventManager,
    checkin,
    otherEventManager,
    platformManager,
    platformReport,
    outsider: outsider[0],
    outsiderHome: outsider[1],
    anonymous: server.client(tenant.url),
  };
}

/** A tiny valid PNG (1x1), GIF and JPEG header, judged by their bytes. */
export const PNG_1PX = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f20000000049454e44ae426082',
  'hex',
);
export const GIF_1PX = Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex');
