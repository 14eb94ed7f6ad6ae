import type { PlatformRole } from '@marquee/core';
import { givenUser, type Client, type GivenTenant, type Res, type TestServer } from '../../../test/harness.js';

// The role matrix of the platform console's routes (test support, not a test file).

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
    const platform = server.client();
    await platform.login(user.email);
    let tenantClient = platform;
    if (!isPlatform) {
      tenantClient = server.client(name === 'other_tenant_admin' ? other.url : tenant.url);
      await tenantClient.login(user.email);
    }
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
