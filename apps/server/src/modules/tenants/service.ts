import { randomUUID } from 'node:crypto';
import {
  M,
  TENANT_LOGO_MAX_BYTES,
  isTenantEditable,
  type TBucketStatus,
  type TTenant,
  type TTenantList,
  type ZUpdateTenantRequest,
} from '@marquee/core';
import type { z } from 'zod';
import { publicOrigin } from '../../config.js';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { actorOf as auditActorOf, recordAudit, type AuditActor } from '../../platform/audit.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { invalidateHostTenant } from '../../platform/auth/guard.js';
import { deleteHostSessions } from '../../platform/auth/sessions.js';
import { IMAGE_TYPES, sniffContentType } from '../../platform/content-type.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { AppError, conflict, DomainError, forbidden, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import { isPlatformWriter } from './access.js';
import * as repo from './repository.js';

export const PROVISION_SITE_JOB = 'tenant.provision-site';

export const sitePrefix = (tenantId: string) => `sites/${tenantId}`;
const siteMarkerKey = (tenantId: string) => `${sitePrefix(tenantId)}/site.json`;

export function toTenant(deps: Pick<Deps, 'config' | 'storage'>, row: repo.TenantRow): TTenant {
  return {
    id: row.id,
    details: {
      id: row.id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      status: row.status,
      url: row.url,
      inviteTemplateSubject: row.inviteTemplateSubject,
      inviteTemplateBody: row.inviteTemplateBody,
      logo: row.logoKey ? deps.storage.downloadUrl(row.logoKey, 24 * 3600) : null,
      brandColor: row.brandColor ?? null,
      siteUrl: publicOrigin(deps.config, row.url),
      dateCreated: row.createdAt.toISOString(),
    },
  };
}

export async function listTenants({ deps, query }: { deps: Deps; query: unknown }): Promise<TTenantList> {
  const q = compileList(repo.TENANT_LIST, query);
  const { rows, total } = await repo.listTenants(deps.db, q);
  return q.page(rows, total, ({ row }) => toTenant(deps, row));
}

export async function getTenant({ deps, tenantId }: { deps: Deps; tenantId: string }): Promise<TTenant> {
  const row = await repo.findTenant(deps.db, tenantId);
  if (!row) throw notFound();
  return toTenant(deps, row);
}

export async function assertUrlFree(tx: Tx, url: string, exceptTenantId?: string) {
  const holder = await repo.findTenantByUrl(tx, url);
  if (holder && holder.id !== exceptTenantId) throw new DomainError('TENANT_URL_TAKEN', M.tenantUrlTaken);
  // A url a tenant used before a rename stays its own, as a deleted tenant's does (issue 14 §7).
  const former = await repo.findFormerUrl(tx, url);
  if (former && former.tenantId !== exceptTenantId) throw new DomainError('TENANT_URL_TAKEN', M.tenantUrlTaken);
}

/**
 * spec: accounts §7 update tenant basic info (phone, invite subject and body, url). Disabled
 * tenants cannot be edited (§4). Changing the URL moves the tenant's host, so only the platform
 * may do it.
 */
export async function updateTenant({ deps, ctx, changes }: { deps: Deps; ctx: TenantCtx; changes: z.output<typeof ZUpdateTenantRequest>['details'] }) {
  try {
    await deps.db.transaction(async (tx) => {
      const tenant = await repo.findTenant(tx, ctx.tenantId, true);
      if (!tenant) throw notFound();
      if (!isTenantEditable(tenant.status)) throw conflict(M.tenantDisabled);
      const values: Parameters<typeof repo.updateTenant>[2] = {};
      if (changes.phone !== undefined) values.phone = changes.phone;
      if (changes.inviteTemplateSubject !== undefined) values.inviteTemplateSubject = changes.inviteTemplateSubject;
      if (changes.inviteTemplateBody !== undefined) values.inviteTemplateBody = changes.inviteTemplateBody;
      if (changes.brandColor !== undefined) values.brandColor = changes.brandColor;
      // Whose words the invite now carries: the tenant's admins', or an operator's (no tenant role here).
      const rewritten =
        (changes.inviteTemplateSubject !== undefined && changes.inviteTemplateSubject !== tenant.inviteTemplateSubject) ||
        (changes.inviteTemplateBody !== undefined && changes.inviteTemplateBody !== tenant.inviteTemplateBody);
      if (rewritten) values.inviteTemplateBy = ctx.tenantRoles.length > 0 ? 'tenant' : 'platform';
      if (changes.url !== undefined && changes.url !== tenant.url) {
        if (!isPlatformWriter(ctx.platformRoles)) throw forbidden(M.tenantUrlPlatformOnly);
        await assertUrlFree(tx, changes.url, tenant.id);
        values.url = changes.url;
        // The old host is retired: reserved for this tenant, and every session bound to it ends,
        // so no old cookie, ticket mail or event link can ever reach another organiser there.
        await repo.retireUrl(tx, tenant.id, tenant.url, changes.url);
        await deleteHostSessions(tx, `${tenant.url}.${deps.config.baseDomain}`);
      }
      await repo.updateTenant(tx, tenant.id, values);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('TENANT_URL_TAKEN', M.tenantUrlTaken);
    throw err;
  } finally {
    invalidateHostTenant(deps.db, ctx.tenantId);
  }
  return getTenant({ deps, tenantId: ctx.tenantId });
}

/** spec: accounts §2 screen 12 logo/thumbnail upload: an image, judged by its bytes, at most 5 MB. */
export async function uploadTenantLogo({ deps, tenantId, bytes, truncated }: { deps: Deps; tenantId: string; bytes: Buffer; truncated: boolean }) {
  if (truncated || bytes.length > TENANT_LOGO_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', M.logoSize);
  const type = sniffContentType(bytes);
  if (!type || !IMAGE_TYPES.includes(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.logoType);
  const tenant = await repo.findTenant(deps.db, tenantId);
  if (!tenant) throw notFound();
  if (!isTenantEditable(tenant.status)) throw conflict(M.tenantDisabled);
  const key = `tenants/${tenantId}/logo-${randomUUID()}.${type.slice('image/'.length)}`;
  await deps.storage.put(key, bytes, type);
  await repo.updateTenant(deps.db, tenantId, { logoKey: key });
  if (tenant.logoKey) await deps.storage.delete(tenant.logoKey);
  return getTenant({ deps, tenantId });
}

/**
 * spec: accounts §4: only active or pending tenants can be deleted. Deleting is soft: orders,
 * payouts and reports keep their rows, and the guard stops serving the tenant's host and ids.
 */
export async function deleteTenant({ deps, tenantId, actor }: { deps: Deps; tenantId: string; actor?: AuditActor }) {
  await deps.db.transaction(async (tx) => {
    const tenant = await repo.findTenant(tx, tenantId, true);
    if (!tenant) throw notFound();
    if (!isTenantEditable(tenant.status)) throw conflict(M.tenantDeleteNotAllowed);
    await repo.softDeleteTenant(tx, tenantId);
    await recordAudit(tx, { actor: auditActorOf({ actor }), tenantId, action: 'tenant.deleted', target: { type: 'tenant', id: tenantId }, before: { name: tenant.name, url: tenant.url, status: tenant.status }, after: null });
  });
  invalidateHostTenant(deps.db, tenantId);
  return { success: true as const };
}

// ---- site provisioning (the spec's "bucket") ---------------------------------------------------

export async function getBucketStatus({ deps, tenantId }: { deps: Deps; tenantId: string }): Promise<TBucketStatus> {
  const site = await repo.findSite(deps.db, tenantId);
  const ready = site?.status === 'create_complete' && (await deps.storage.get(siteMarkerKey(tenantId))) !== null;
  if (ready) return { CFStatus: { status: 'create_complete' } };
  // A site whose job has not failed yet is still being prepared; a failed attempt is NOT_FOUND.
  const inProgress = site?.status === 'pending' && !site.lastError;
  return { CFStatus: { status: inProgress ? 'CREATE_IN_PROGRESS' : 'NOT_FOUND' } };
}

/** spec: accounts §4/§7 "add tenant with retry true": recreates the tenant's site. */
export async function retryBucket({ deps, tenantId }: { deps: Deps; tenantId: string }): Promise<TBucketStatus> {
  await deps.db.transaction(async (tx) => {
    if (!(await repo.findTenant(tx, tenantId, true))) throw notFound();
    const generation = await repo.restartSite(tx, tenantId, sitePrefix(tenantId));
    await deps.jobs.enqueue(tx, PROVISION_SITE_JOB, { tenantId }, { dedupeKey: `${PROVISION_SITE_JOB}:${tenantId}:${generation}` });
  });
  return { CFStatus: { status: 'CREATE_IN_PROGRESS' } };
}

/**
 * The provisioning job: prepares the tenant's site storage (its folder and a marker object),
 * marks the site ready and activates a pending tenant. Safe to run any number of times.
 */
export async function provisionTenantSite(deps: Pick<Deps, 'db' | 'storage'>, tenantId: string) {
  const tenant = await repo.findTenant(deps.db, tenantId);
  if (!tenant) return; // deleted meanwhile: nothing to serve
  try {
    const marker = { tenantId, url: tenant.url, provisionedAt: new Date().toISOString() };
    await deps.storage.put(siteMarkerKey(tenantId), Buffer.from(JSON.stringify(marker)), 'application/json');
  } catch (err) {
    await repo.markSiteError(deps.db, tenantId, err instanceof Error ? err.message : String(err));
    throw err;
  }
  await deps.db.transaction(async (tx) => {
    if (!(await repo.findSite(tx, tenantId))) await repo.insertSite(tx, tenantId, sitePrefix(tenantId));
    await repo.markSiteComplete(tx, tenantId);
    await repo.activatePendingTenant(tx, tenantId);
  });
  invalidateHostTenant(deps.db, tenantId);
}

export function registerTenantJobs(deps: Deps) {
  deps.jobs.register(PROVISION_SITE_JOB, async (payload: { tenantId?: unknown }) => {
    if (typeof payload?.tenantId !== 'string') return;
    await provisionTenantSite(deps, payload.tenantId);
  });
}
