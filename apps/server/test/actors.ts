import type { PlatformRole } from '@marquee/core';
import { givenTenant, givenUser, type Client, type GivenTenant, type Res, type TestServer } from './harness.js';

// The one test-actor fixture: signed-in browsers for each role a route's access rule names.
// Sessions are host-bound: tenant members sign in on the tenant's host, platform operators on the
// platform host.

/** A client on the host (the platform's without a tenant url label), signed in as the user. */
export async function signedIn(server: TestServer, user: { email: string }, tenantUrl?: string): Promise<Client> {
  const c = server.client(tenantUrl);
  await c.login(user.email);
  return c;
}

// ---- the platform console's and the tenant console's role matrix ------------------------------

export const ACTORS = [
  'super_user',
  'platform_manager',
  'platform_report',
  'platform_user',
  'tenant_admin',
  'tenant_staff',
  'other_tenant_admin',
  'attendee',
  'anonymous',
] as const;
export type ActorName = (typeof ACTORS)[number];

/** Each actor as a browser: `platform` on the platform host, `tenant` on the tenant's host (its own for other_tenant_admin). */
export type Actor = { platform: Client; tenant: Client; email: string | null };
export type Actors = Record<ActorName, Actor>;

export async function givenActors(server: TestServer, tenant: GivenTenant, other: GivenTenant): Promise<Actors> {
  const out = {} as Actors;
  for (const name of ACTORS) {
    if (name === 'anonymous') {
      out[name] = { platform: server.client(), tenant: server.client(tenant.url), email: null };
      continue;
    }
    const isPlatform = name.startsWith('platform_') || name === 'super_user';
    const user = await givenUser(server, {
      platformRoles: isPlatform ? [name as PlatformRole] : undefined,
      tenant:
        name === 'tenant_admin' || name === 'tenant_staff'
          ? { id: tenant.id, roles: [name] }
          : name === 'other_tenant_admin'
            ? { id: other.id, roles: ['tenant_admin'] }
            : undefined,
    });
    const platform = await signedIn(server, user);
    const tenantClient = isPlatform ? platform : await signedIn(server, user, name === 'other_tenant_admin' ? other.url : tenant.url);
    out[name] = { platform, tenant: tenantClient, email: user.email };
  }
  return out;
}

export type Call = (c: Client) => Promise<Res>;

/**
 * Calls the route as every listed actor and returns the statuses: platform routes from the
 * platform host, tenant routes (`host: 'tenant'`) from the tenant's host.
 */
export async function statusesOf(actors: Actors, host: 'platform' | 'tenant', call: Call, who: readonly ActorName[] = ACTORS) {
  const out: Partial<Record<ActorName, number>> = {};
  for (const name of who) out[name] = (await call(actors[name][host])).status;
  return out;
}

// ---- the roles around one event (the tenant console's event routes) ---------------------------

export type EventActors = {
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

export async function givenEventActors(server: TestServer, tenant: GivenTenant, eventId: string, otherEventId: string): Promise<EventActors> {
  const other = await givenTenant(server);
  const signIn = (user: { email: string }, host?: string) => signedIn(server, user, host);
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

/** Calls the route as each of the event's actors and returns the statuses by actor. */
export async function eventActorStatuses(actors: EventActors, call: (c: Client) => Promise<{ status: number }>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, c] of Object.entries(actors)) out[name] = (await call(c)).status;
  return out;
}
