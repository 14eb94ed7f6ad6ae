import { M, PLATFORM_GROUP_ID, type EventRole, type PlatformRole, type TenantRole } from '@marquee/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { memberships, tenants } from '../../db/schema/index.js';
import { DomainError, forbidden, notFound, RetryLaterError, unauthenticated } from '../errors.js';
import { createFailureLimiter } from '../failure-limiter.js';
import type { AuditActor } from '../audit.js';
import { bearerOf, findApiKey } from './api-keys.js';
import type { Access, HostTenant, PlatformCtx, RequestCtx, SiteCtx, TenantCtx } from './context.js';
import { scopeOf } from './scopes.js';
import { findGuardSession, guardSessionKeys, SESSION_COOKIE, touchIfStale, type GuardSession, type SessionPolicy } from './sessions.js';
import { sha256 } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestCtx;
    tenantCtx?: TenantCtx;
    platformCtx?: PlatformCtx;
    siteCtx?: SiteCtx;
  }
  interface FastifyContextConfig {
    access?: Access;
    /**
     * A public read that is the same for everyone (issue 13: the cached event reads): the session
     * is not looked up, so a visitor's cookie costs no query. A query string (?preview=1) still
     * looks it up.
     */
    sessionless?: boolean;
    /**
     * The route reads a cookie session itself, in its own statement (the door scan, issue 26: one
     * round trip a scan): the guard does not read it, and leaves its access check to the handler
     * through `req.deferredGuard`. Bearer keys and requests without a session are guarded as ever.
     */
    sessionInHandler?: boolean;
  }
  interface FastifyRequest {
    /** Set on a `sessionInHandler` route's request with a session cookie: the guard's part still to do. */
    deferredGuard?: DeferredGuard;
  }
}

/**
 * The guard's session read and access check, left to a `sessionInHandler` route. `inStatement`:
 * what its statement's copy of the guard (guardSessionCtes) reads by, or null when the request must
 * be guarded the ordinary way first (`run`). After its statement, `complete` finishes the guard with
 * the session the statement read, exactly as if the guard had read it: it throws what the guard would
 * (401, 403, 404, CSRF) and answers the TenantCtx.
 */
export type DeferredGuard = {
  inStatement: GuardStatementParams | null;
  complete(found: GuardSession | null, stale: unknown): Promise<TenantCtx>;
  run(): Promise<TenantCtx>;
};

/** The parameters of guardSessionCtes. */
export type GuardStatementParams = { tokenHash: string; now: string; idleCutoff: string; host: string; csrf: string; tenantId: string; eventId: string };

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The route constraint that keeps a site page with `offSite: 'app'` to tenants' hosts. */
const SITE_HOST = 'siteHost';

export function platformRolesOf(ctx: RequestCtx): PlatformRole[] {
  return ctx.memberships.filter((m) => m.groupId === PLATFORM_GROUP_ID).flatMap((m) => m.roles as PlatformRole[]);
}

/** The tenant label of a host under BASE_DOMAIN, or null for the platform host itself. */
export function tenantLabel(hostHeader: string, baseDomain: string): string | null {
  const hostname = hostHeader.replace(/:\d+$/, '').toLowerCase();
  if (hostname === baseDomain || !hostname.endsWith(`.${baseDomain}`)) return null;
  const label = hostname.slice(0, -(baseDomain.length + 1));
  return label && !label.includes('.') ? label : null;
}

// ---- the tenant-by-host cache ------------------------------------------------------------------
//
// Every request on a tenant's host needs its tenant; at a flash sale that lookup was one of the
// order's few statements (bench/README.md). Live tenants found by host are kept in this process for
// HOST_TENANT_TTL_MS; the tenants service drops a tenant's entries when it updates, activates or
// deletes it, so on this node a deleted tenant's host stops answering at once. Other nodes learn
// of it when their entry expires: for up to HOST_TENANT_TTL_MS after a tenant is deleted, renamed
// or disabled, another node may still serve its old host with the old name and status. Unknown
// hosts are not cached, so a new tenant's host answers at once everywhere.

export const HOST_TENANT_TTL_MS = 5_000;
/**
 * Past its TTL an entry is still used for at most this long while one read re-reads it (issue 26
 * reads): in an on-sale that read waits its turn in the pool behind the orders, and every request on
 * the host (the public reads too) used to wait with it, every TTL. A change to the tenant through
 * this node still drops its entries at once; other nodes may use an old entry up to TTL + this.
 */
export const HOST_TENANT_STALE_MS = 5_000;
const HOST_TENANT_CACHE_MAX = 1_000;

type HostTenantCache = {
  entries: Map<string, { tenant: HostTenant; until: number }>;
  /** Lookups under way: when an entry expires in a rush, the requests that arrive share one read. */
  reading: Map<string, Promise<HostTenant | undefined>>;
  /** Bumped by every invalidation: a lookup that started before one must not store what it read. */
  epoch: number;
};
/** Per database, so that servers on different databases in one process never share entries. */
const hostTenantCaches = new WeakMap<Db, HostTenantCache>();

function hostTenantCache(db: Db): HostTenantCache {
  let cache = hostTenantCaches.get(db);
  if (!cache) hostTenantCaches.set(db, (cache = { entries: new Map(), reading: new Map(), epoch: 0 }));
  return cache;
}

function findHostTenant(db: Db, label: string): HostTenant | undefined | Promise<HostTenant | undefined> {
  const cache = hostTenantCache(db);
  const hit = cache.entries.get(label);
  const now = Date.now();
  if (hit && hit.until > now) return hit.tenant;
  let reading = cache.reading.get(label);
  if (!reading) {
    const read: Promise<HostTenant | undefined> = readHostTenant(db, cache, label).finally(() => {
      if (cache.reading.get(label) === read) cache.reading.delete(label);
    });
    cache.reading.set(label, (reading = read));
  }
  if (hit && hit.until + HOST_TENANT_STALE_MS > now) {
    // Re-read in the background; whoever awaits it sees its error, this caller does not.
    reading.catch(() => {});
    return hit.tenant;
  }
  return reading;
}

async function readHostTenant(db: Db, cache: HostTenantCache, label: string): Promise<HostTenant | undefined> {
  const { entries, epoch } = cache;
  const [tenant] = await db
    .select({ id: tenants.id, name: tenants.name, url: tenants.url, status: tenants.status, brandColor: tenants.brandColor })
    .from(tenants)
    .where(and(eq(tenants.url, label), isNull(tenants.deletedAt)));
  entries.delete(label);
  if (!tenant || cache.epoch !== epoch) return tenant;
  // A Map iterates in insertion order: past the bound, the oldest entry goes.
  if (entries.size >= HOST_TENANT_CACHE_MAX) entries.delete(entries.keys().next().value!);
  entries.set(label, { tenant, until: Date.now() + HOST_TENANT_TTL_MS });
  return tenant;
}

/** The tenant of a host label if this process has it cached and fresh, without asking the database (the public fast path). */
export function cachedHostTenant(db: Db, label: string): HostTenant | undefined {
  const hit = hostTenantCaches.get(db)?.entries.get(label);
  if (!hit) return undefined;
  if (hit.until > Date.now()) return hit.tenant;
  // Past its TTL: used while it is re-read (started here if no request has started it).
  const found = findHostTenant(db, label);
  return found instanceof Promise ? undefined : found;
}

/** Drops a tenant's cached host entries in this process; call after a change to the tenant commits. */
export function invalidateHostTenant(db: Db, tenantId: string): void {
  const cache = hostTenantCaches.get(db);
  if (!cache) return;
  cache.epoch++;
  // A read under way may have read the old row: whoever asks next reads again.
  cache.reading.clear();
  for (const [label, entry] of cache.entries) if (entry.tenant.id === tenantId) cache.entries.delete(label);
}

/**
 * The one authorization guard (architecture rule 1). Every /api route must declare its access in
 * `config.access`; the server refuses to start otherwise. Tenant resources are checked against the
 * caller's memberships here and nowhere else; another tenant's id is a 404, never a 403.
 */
export function registerGuard(app: FastifyInstance, opts: { db: Db; baseDomain: string; session: SessionPolicy; apiKeyPerMinute?: number }) {
  const { db } = opts;
  // Every request with a key counts (a sliding minute per key, on this node): a failure limiter
  // whose every attempt is settled as counted.
  const keyRequests = createFailureLimiter({ max: opts.apiKeyPerMinute ?? 600, windowMs: 60_000 });

  // A site page that leaves other hosts to the app (`offSite: 'app'`) exists on tenants' hosts only:
  // elsewhere (the platform host) the same path is the single-page app's, which the not-found
  // handler serves. Routing decides it, from the same host rule as the tenant lookup below.
  app.addConstraintStrategy({
    name: SITE_HOST,
    storage: () => {
      const stores = new Map<unknown, unknown>();
      return { get: (onSite: boolean) => (stores.get(onSite) ?? null) as never, set: (onSite: boolean, store: unknown) => void stores.set(onSite, store) };
    },
    deriveConstraint: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const host = req.headers.host;
      return typeof host === 'string' && tenantLabel(host, opts.baseDomain) !== null;
    },
  });

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api') && !route.config?.access && route.method !== 'HEAD') {
      throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
    }
    const access = route.config?.access;
    if (access?.kind === 'site' && access.offSite === 'app') {
      route.constraints = { ...route.constraints, [SITE_HOST]: true };
    }
  });

  app.decorateRequest('ctx', null as unknown as RequestCtx);

  // Synchronous, in callback style, whenever it needs no query (issue 23 perreq): a request on a
  // host whose tenant is cached and without a session to read (or a session its route reads itself:
  // the door scan) costs no promise here.
  app.addHook('onRequest', (req, _reply, done) => {
    let pending: void | Promise<void>;
    try {
      pending = guardRequest(req);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (pending) pending.then(() => done(), done);
    else done();
  });

  function guardRequest(req: FastifyRequest): void | Promise<void> {
    const host = req.headers.host ?? '';
    const route = req.routeOptions;
    const ctx: RequestCtx = {
      user: null,
      sessionToken: null,
      csrfToken: null,
      memberships: [],
      hostTenant: null,
      unknownTenantHost: false,
      host,
      apiKey: null,
      route: { url: route.url, config: route.config },
    };
    req.ctx = ctx;
    // API routes, and the few site routes outside /api that declare an access rule (the seat map).
    if (!/^\/api(?:[/?]|$)/.test(req.url) && !ctx.route.config?.access) return;

    // Only the base domain and its tenants' hosts are answered: a page on any other name that
    // resolves here (DNS rebinding) must not reach the API as if it were the platform console.
    const label = tenantLabel(host, opts.baseDomain);
    // (The health check stays answerable: probes call it by address.)
    const known = label || host.replace(/:\d+$/, '').toLowerCase() === opts.baseDomain.toLowerCase();
    if (!known && ctx.route.url !== '/api/health') throw notFound();
    if (label) {
      const found = findHostTenant(db, label);
      if (found instanceof Promise) {
        return found.then((tenant) => {
          setHostTenant(ctx, tenant);
          return guardCredentials(req, ctx);
        });
      }
      setHostTenant(ctx, found);
    }
    return guardCredentials(req, ctx);
  }

  function setHostTenant(ctx: RequestCtx, tenant: HostTenant | undefined) {
    if (tenant) ctx.hostTenant = tenant;
    else ctx.unknownTenantHost = true;
  }

  /** The request's key or session, once its host is known. */
  function guardCredentials(req: FastifyRequest, ctx: RequestCtx): void | Promise<void> {
    // Issue 25: `Authorization: Bearer mq_…` is an API key. It stands for its creator, with their
    // memberships in the key's tenant only (a platform key: their platform roles only), so the one
    // guard below decides what it may reach; the cookie, if any, is ignored.
    const bearer = bearerOf(req.headers.authorization);
    if (bearer !== null) return guardKey(ctx, bearer);

    const token = req.cookies[SESSION_COOKIE];
    if (!token) return;
    const config = ctx.route.config;
    if (config?.sessionless && !req.url.includes('?')) return;
    if (config?.sessionInHandler) {
      req.deferredGuard = deferredGuardOf(req, token);
      return;
    }
    // One statement: the session, its user and the user's memberships (sessions.ts findGuardSession).
    return findGuardSession(db, token, opts.session).then((found) => applySession(ctx, token, found));
  }

  async function guardKey(ctx: RequestCtx, bearer: string): Promise<void> {
    const key = bearer ? await findApiKey(db, bearer) : null;
    if (!key) throw unauthenticated(M.apiKeyInvalid);
    const attempt = keyRequests.begin(key.id);
    if (!attempt.allowed) throw new RetryLaterError(M.apiKeyRateLimited, attempt.retryAfterMs / 1000);
    attempt.attempt.settle(true);
    ctx.apiKey = key;
    ctx.user = key.user;
    const all = await db
      .select({ groupId: memberships.groupId, tenantId: memberships.tenantId, eventId: memberships.eventId, roles: memberships.roles })
      .from(memberships)
      .where(eq(memberships.userId, key.user.id));
    ctx.memberships = all.filter((m) => (key.tenantId ? m.tenantId === key.tenantId : m.groupId === PLATFORM_GROUP_ID));
  }

  /** What the guard knows of a request's session: a live one on this host whose user is active. */
  function applySession(ctx: RequestCtx, token: string, found: GuardSession | null) {
    if (!found || found.host !== ctx.host || found.user.status !== 'ACTIVE') return;
    ctx.user = found.user;
    ctx.sessionToken = token;
    ctx.csrfToken = found.csrfToken;
    ctx.memberships = found.memberships;
  }

  function deferredGuardOf(req: FastifyRequest, token: string): DeferredGuard {
    const ctx = req.ctx;
    const finish = async () => {
      await checkAccess(req);
      return tenantCtxOf(req);
    };
    const inStatement = guardStatementParams(req, token);
    return {
      inStatement,
      complete: async (found, stale) => {
        // The token's hash, made once a request (the statement's parameters carry it).
        if (found) await touchIfStale(db, inStatement?.tokenHash ?? sha256(token), stale);
        applySession(ctx, token, found);
        return finish();
      },
      run: async () => {
        applySession(ctx, token, await findGuardSession(db, token, opts.session));
        return finish();
      },
    };
  }

  /**
   * When a `sessionInHandler` request may be guarded inside its route's statement: a tenant route
   * by :tenantId whose access is by tenant or event roles only, on this tenant's host or the
   * platform host, with ids that are ids, a CSRF header and no cross-site Origin. Anything else
   * (null) is guarded the ordinary way, so that its refusal is exactly the guard's.
   */
  function guardStatementParams(req: FastifyRequest, token: string): GuardStatementParams | null {
    const ctx = req.ctx;
    const access = ctx.route.config?.access;
    if (access?.kind !== 'tenant' || access.tenantIdIn === 'body' || access.platformRoles.length > 0 || access.anyEventRoles) return null;
    if (!UNSAFE.has(req.method) || ctx.unknownTenantHost) return null;
    const params = (req.params ?? {}) as Record<string, string | undefined>;
    const { tenantId, eventId } = params;
    // Lower case, as the memberships hold them (the guard compares ids as text; the statement as uuids).
    if (!tenantId || !UUID_RE.test(tenantId) || tenantId !== tenantId.toLowerCase()) return null;
    if (!eventId || !UUID_RE.test(eventId) || eventId !== eventId.toLowerCase()) return null;
    if (ctx.hostTenant && ctx.hostTenant.id !== tenantId) return null;
    const csrf = req.headers['x-csrf-token'];
    if (typeof csrf !== 'string' || !csrf) return null;
    if (req.headers.origin !== undefined && originHostOf(req.headers.origin) !== ctx.host) return null;
    return { ...guardSessionKeys(token, opts.session), host: ctx.host, csrf, tenantId, eventId };
  }

  app.addHook('preHandler', (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    // A route that reads the session in its own statement finishes the guard itself (req.deferredGuard).
    if (req.deferredGuard) return done();
    checkAccess(req).then(() => done(), done);
  });

  /** The access check of a request whose session the guard knows (`req.ctx`): throws, or fills req.tenantCtx and the like. */
  async function checkAccess(req: FastifyRequest): Promise<void> {
    const ctx = req.ctx;
    const access = ctx.route.config?.access;
    if (!access) return;

    // Cross-site writes are refused outright; cookie-authenticated writes need the CSRF token. A
    // bearer request carries no ambient credential (a browser never adds the header by itself).
    if (UNSAFE.has(req.method) && !ctx.apiKey) {
      // 'null' is what sandboxed frames and cross-site redirects send: not this site, so refused.
      const origin = req.headers.origin;
      if (origin && originHostOf(origin) !== ctx.host) throw new DomainError('CSRF_INVALID', M.csrf);
      if (ctx.sessionToken && access.kind !== 'public' && access.kind !== 'site' && req.headers['x-csrf-token'] !== ctx.csrfToken) {
        throw new DomainError('CSRF_INVALID', M.csrf);
      }
    }

    if (ctx.unknownTenantHost) throw notFound();
    if (access.kind === 'public') return;
    const params = (req.params ?? {}) as Record<string, string | undefined>;
    if (access.kind === 'site') {
      // The attendee site exists on a tenant's host only, and only that tenant's ids exist there.
      if (!ctx.hostTenant) throw notFound();
      if (params.tenantId !== undefined && params.tenantId !== ctx.hostTenant.id) throw notFound();
      // A key is nobody on the attendee site: it acts as an anonymous visitor there.
      req.siteCtx = { tenant: ctx.hostTenant, user: ctx.apiKey ? null : ctx.user };
      return;
    }
    const user = ctx.user;
    if (!user) throw unauthenticated();
    const key = ctx.apiKey;
    if (access.kind === 'user') {
      if (key) throw forbidden(M.apiKeyNotHere);
      return;
    }
    const actor: AuditActor = key
      ? { type: 'key', id: key.id, label: key.name, onBehalfOf: user.id, address: req.ip }
      : { type: 'user', id: user.id, label: user.email, address: req.ip };
    // The scope a key needs here (platform/auth/scopes.ts), checked once the route's own rule passed.
    const assertScope = () => {
      if (!key) return;
      const scope = scopeOf(req.method, ctx.route.url ?? '');
      if (!scope) throw forbidden(M.apiKeyNotHere);
      if (!key.scopes.includes(scope)) throw forbidden(M.apiKeyNoScope);
    };

    const platformRoles = platformRolesOf(ctx);
    if (access.kind === 'platform') {
      // Platform routes exist only on the platform host.
      if (ctx.hostTenant) throw notFound();
      if (!platformRoles.some((r) => access.roles.includes(r))) throw forbidden();
      assertScope();
      req.platformCtx = { user, platformRoles, actor };
      return;
    }

    let tenantId: string | undefined;
    if (access.tenantIdIn === 'body') {
      // The body is parsed and validated by now (preHandler runs after validation).
      const fromBody = (req.body as { tenantId?: unknown } | null | undefined)?.tenantId;
      tenantId = typeof fromBody === 'string' ? fromBody : undefined;
    } else tenantId = params.tenantId;
    if (!tenantId || !UUID_RE.test(tenantId)) throw notFound();
    // On a tenant's host only that tenant's resources exist.
    if (ctx.hostTenant && ctx.hostTenant.id !== tenantId) throw notFound();

    const inTenant = ctx.memberships.filter((m) => m.tenantId === tenantId);
    const tenantRoles = inTenant.filter((m) => m.eventId === null).flatMap((m) => m.roles as TenantRole[]);
    // Keyed by ids from the path: no prototype, so '__proto__' or 'constructor' finds nothing.
    const eventRoles: Record<string, EventRole[]> = Object.create(null);
    for (const m of inTenant) if (m.eventId) eventRoles[m.eventId] = m.roles as EventRole[];

    const allowedByTenant = tenantRoles.some((r) => access.roles.includes(r));
    const allowedByPlatform = !ctx.hostTenant && platformRoles.some((r) => access.platformRoles.includes(r));
    const eventId = params.eventId;
    if (eventId !== undefined && !UUID_RE.test(eventId)) throw notFound();
    const allowedByEvent =
      ((!!access.eventRoles && !!eventId && (eventRoles[eventId] ?? []).some((r) => access.eventRoles!.includes(r))) ||
        (!!access.anyEventRoles && Object.values(eventRoles).some((roles) => roles.some((r) => access.anyEventRoles!.includes(r)))));

    if (!allowedByTenant && !allowedByPlatform && !allowedByEvent) {
      // A member of this tenant without the role gets 403; anyone else cannot learn it exists.
      if (inTenant.length > 0) throw forbidden();
      throw notFound();
    }

    // On the tenant's own host, the host lookup (cached, live tenants only) already found it.
    if (ctx.hostTenant?.id !== tenantId) {
      const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(and(eq(tenants.id, tenantId), isNull(tenants.deletedAt)));
      if (!tenant) throw notFound();
    }
    assertScope();
    req.tenantCtx = { user, tenantId, tenantRoles, platformRoles: allowedByPlatform ? platformRoles : [], eventRoles, actor };
  }
}

function originHostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}

/** A role list as SQL text: the roles are our own constants (a-z and _), checked, never input. */
function rolesSql(roles: readonly string[] | undefined): SQL {
  for (const r of roles ?? []) if (!/^[a-z_]+$/.test(r)) throw new Error(`not a role: ${r}`);
  return sql.raw(`array[${(roles ?? []).map((r) => `'${r}'`).join(', ')}]::text[]`);
}

/**
 * The guard in a route's own statement (a `sessionInHandler` route, for the request's
 * DeferredGuard.inStatement): two CTEs, `guard_session` (the session, its user and memberships:
 * sessions.ts GUARD_SESSION_SQL, every column prefixed `gs_`) and `guard_allowed` (the user's id
 * when the guard's check above passes for `access` on that tenant and event: the session's host is
 * the request's, the user active, the CSRF header the session's, a membership of the tenant with one
 * of the route's tenant roles or of the event with one of its event roles, the tenant not deleted).
 * Never more lenient than checkAccess: what the statement writes, it writes under `guard_allowed`;
 * when it is empty the route calls DeferredGuard.complete, which refuses as the guard does. The
 * parameters are placeholders named as GuardStatementParams. Change it with checkAccess.
 */
export function guardSessionCtes(access: Access): SQL {
  if (access.kind !== 'tenant') throw new Error('guardSessionCtes: a tenant access rule only');
  const P = (name: keyof GuardStatementParams) => sql.placeholder(name);
  return sql`guard_session as (
      select s.host as gs_host, s.csrf_token as gs_csrf_token, s.last_seen_at < ${P('now')}::timestamptz - interval '60 seconds' as gs_stale,
        u.id as gs_id, u.email as gs_email, u.status as gs_status, u.first_name as gs_first_name, u.last_name as gs_last_name,
        coalesce((select json_agg(json_build_object('groupId', m.group_id, 'tenantId', m.tenant_id, 'eventId', m.event_id, 'roles', m.roles))
                  from ${memberships} m where m.user_id = u.id), '[]'::json) as gs_memberships
      from sessions s join users u on u.id = s.user_id
      where s.token_hash = ${P('tokenHash')}::text and s.expires_at > ${P('now')}::timestamptz and s.last_seen_at > ${P('idleCutoff')}::timestamptz
    ),
    guard_allowed as (
      select g.gs_id as user_id from guard_session g
      where g.gs_host = ${P('host')}::text and g.gs_status = 'ACTIVE' and g.gs_csrf_token = ${P('csrf')}::text
        and exists (select 1 from ${tenants} t where t.id = ${P('tenantId')}::uuid and t.deleted_at is null)
        and exists (select 1 from ${memberships} m where m.user_id = g.gs_id and m.tenant_id = ${P('tenantId')}::uuid
          and ((m.event_id is null and m.roles && ${rolesSql(access.roles)})
            -- (checkAccess keeps one membership's roles per event: with two, the statement leaves it to checkAccess)
            or (m.event_id = ${P('eventId')}::uuid and m.roles && ${rolesSql(access.eventRoles)}
              and not exists (select 1 from ${memberships} m2 where m2.user_id = m.user_id and m2.tenant_id = m.tenant_id and m2.event_id = m.event_id and m2.id <> m.id))))
    )`;
}

export function tenantCtxOf(req: FastifyRequest): TenantCtx {
  if (!req.tenantCtx) throw new Error('tenant route without a tenant access rule');
  return req.tenantCtx;
}

export function siteCtxOf(req: FastifyRequest): SiteCtx {
  if (!req.siteCtx) throw new Error('site route without a site access rule');
  return req.siteCtx;
}

export function platformCtxOf(req: FastifyRequest): PlatformCtx {
  if (!req.platformCtx) throw new Error('platform route without a platform access rule');
  return req.platformCtx;
}

export function userOf(req: FastifyRequest) {
  if (!req.ctx.user) throw unauthenticated();
  return req.ctx.user;
}

/**
 * On a tenant's site: is the signed-in caller staff of the host's tenant (a membership in it, event
 * staff included) or a platform operator? Such a visitor's /events is the console's list.
 */
export function isHostTenantStaff(req: FastifyRequest): boolean {
  const tenantId = req.siteCtx?.tenant.id;
  return !!tenantId && !!req.ctx.user && req.ctx.memberships.some((m) => m.tenantId === tenantId || m.tenantId === null);
}

/**
 * On an event site: may the signed-in caller see this event before it is published (issue 15 draft
 * preview)? Staff of the host's tenant (admin, staff) or anyone holding a role on that event.
 */
export function eventPreviewCheck(req: FastifyRequest): (eventId: string) => boolean {
  const tenantId = req.siteCtx?.tenant.id;
  const mine = tenantId && req.ctx.user ? req.ctx.memberships.filter((m) => m.tenantId === tenantId) : [];
  return (eventId) =>
    mine.some((m) => (m.eventId === null && m.roles.some((r) => r === 'tenant_admin' || r === 'tenant_staff')) || (m.eventId === eventId && m.roles.length > 0));
}
