import type { EventRole, PlatformRole, TenantRole } from '@marquee/core';
import type { FastifyContextConfig } from 'fastify';
import type { AuditActor } from '../audit.js';
import type { ApiKeyPrincipal } from './api-keys.js';

export type AuthUser = { id: string; email: string; status: string; firstName: string; lastName: string };

export type MembershipRow = {
  groupId: string;
  tenantId: string | null;
  eventId: string | null;
  roles: string[];
};

export type HostTenant = { id: string; name: string; url: string; status: string; /** Issue 28: #rrggbb, or null for the default. */ brandColor?: string | null };

/** Who is asking, from where. Built once per request from the verified session and the Host. */
export type RequestCtx = {
  user: AuthUser | null;
  sessionToken: string | null;
  csrfToken: string | null;
  memberships: MembershipRow[];
  /** null on the platform host; the tenant whose host this is otherwise. */
  hostTenant: HostTenant | null;
  /** True when the Host names a tenant label that does not exist (or was deleted). */
  unknownTenantHost: boolean;
  host: string;
  /** The API key of an `Authorization: Bearer` request (issue 25): `user` is then the key's creator. */
  apiKey: ApiKeyPrincipal | null;
  /**
   * The matched route's pattern and config, read once a request (issue 23 perreq: Fastify's
   * `req.routeOptions` builds a new object at every read, and the guard, the metrics and the
   * snapshot expiry each read it several times a request).
   */
  route: { url: string | undefined; config: FastifyContextConfig | undefined };
};

/** What a service gets for a tenant-scoped use case: the caller and the tenant it acts in. */
export type TenantCtx = {
  user: AuthUser;
  tenantId: string;
  /** Roles in this tenant; platform operators acting on a tenant have none here. */
  tenantRoles: TenantRole[];
  platformRoles: PlatformRole[];
  /** Event roles by event id, for event staff. */
  eventRoles: Record<string, EventRole[]>;
  /** Who acts, for the audit log: the user, or the API key acting as them. */
  actor: AuditActor;
};

export type PlatformCtx = { user: AuthUser; platformRoles: PlatformRole[]; actor: AuditActor };

/** What an attendee-site use case gets: the tenant whose host served the request, and who is signed in, if anyone. */
export type SiteCtx = { tenant: HostTenant; user: AuthUser | null };

export type Access =
  | { kind: 'public' }
  | { kind: 'user' }
  | { kind: 'platform'; roles: readonly PlatformRole[] }
  /**
   * A tenant's resource, the tenant id in the :tenantId path parameter. Allowed to tenant members
   * holding one of `roles`, to platform operators holding one of `platformRoles`, and, when
   * `eventRoles` is given, to staff of the :eventId event holding one of those. With
   * `tenantIdIn: 'body'` the tenant id is the body's `tenantId` instead (spec paths that carry it
   * there, such as POST /platform/charities/{charityId}/assign); it is checked the same way.
   */
  | {
      kind: 'tenant';
      roles: readonly TenantRole[];
      platformRoles: readonly PlatformRole[];
      eventRoles?: readonly EventRole[];
      /**
       * Also staff holding one of these roles on any event of the tenant (a route without :eventId,
       * such as the event list, whose service then shows them only their events).
       */
      anyEventRoles?: readonly EventRole[];
      tenantIdIn?: 'params' | 'body';
    }
  /**
   * The attendee site: anyone, on a tenant's host only (404 elsewhere); a :tenantId path parameter
   * must be that tenant's. The service gets a SiteCtx. With `offSite: 'app'` (the server-rendered
   * pages outside /api) the route does not exist off tenants' hosts: there its path is the
   * single-page app's, served by the not-found handler, instead of a 404.
   */
  | { kind: 'site'; offSite?: 'app' };
