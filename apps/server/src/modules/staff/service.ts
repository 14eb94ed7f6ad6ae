import { M, type TenantRole, type TStaffList, type TStaffMember } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../../platform/audit.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { conflict, notFound } from '../../platform/errors.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { compileList } from '../../platform/list-query.js';
import { findEvent, lockActiveRoleHolders } from '../accounts/repository.js';
import * as repo from './repository.js';

// A tenant's Staff page: who has tenant-wide access or has been invited to it. Inviting is
// accounts' sendInvite (POST /api/tenants/:tenantId/staff/invites); this module lists, changes
// roles and removes. See docs/decisions.md, "Tenant staff".

const ADMIN: TenantRole = 'tenant_admin';

function toStaffMember(row: repo.StaffRow): TStaffMember {
  return {
    id: row.id,
    details: { email: row.email, firstName: row.firstName, lastName: row.lastName, roles: row.roles, status: row.status },
  };
}

export async function listStaff({ deps, ctx, query }: { deps: Deps; ctx: TenantCtx; query: unknown }): Promise<TStaffList> {
  const q = compileList(repo.STAFF_LIST, query);
  const { rows, total } = await repo.listStaff(deps.db, ctx.tenantId, q);
  return q.page(rows, total, toStaffMember);
}

/**
 * The people who work on one event (its Staff tab, issue 21.14): its event staff, and the people
 * invited to it who have not joined (pending while the invite is live, expired after). The tenant's
 * admins and staff, who see every event, are on the Staff page. Another tenant's event is a 404.
 */
export async function listEventStaff({ deps, ctx, eventId, query }: { deps: Deps; ctx: TenantCtx; eventId: string; query: unknown }): Promise<TStaffList> {
  if (!UUID_RE.test(eventId) || !(await findEvent(deps.db, ctx.tenantId, eventId))) throw notFound();
  const q = compileList(repo.STAFF_LIST, query);
  const { rows, total } = await repo.listStaff(deps.db, ctx.tenantId, q, eventId.toLowerCase());
  return q.page(rows, total, toStaffMember);
}

/** The last active admin can neither lose the role nor leave (whoever asks, themselves included). */
function keepsAnAdmin(activeAdmins: string[], userId: string) {
  if (activeAdmins.includes(userId) && activeAdmins.every((id) => id === userId)) throw conflict(M.lastTenantAdmin);
}

/**
 * Sets a staff member's tenant roles. For a member, their membership; for someone invited who has
 * not joined, every open tenant-wide invite of theirs, so whichever link they follow grants these.
 */
export async function updateStaffRoles({ deps, ctx, staffId, roles }: { deps: Deps; ctx: TenantCtx; staffId: string; roles: TenantRole[] }) {
  const wanted = [...new Set(roles)];
  await deps.db.transaction(async (tx) => {
    const admins = await lockActiveRoleHolders(tx, { tenantId: ctx.tenantId }, 'tenant_admin');
    const membership = await repo.lockMembership(tx, ctx.tenantId, staffId);
    if (membership) {
      if (!wanted.includes(ADMIN)) keepsAnAdmin(admins, membership.userId);
      await repo.setMembershipRoles(tx, membership.id, wanted);
      await recordAudit(tx, { actor: ctx.actor, tenantId: ctx.tenantId, action: 'staff.roles_changed', target: { type: 'user', id: membership.userId }, before: { email: membership.email, roles: membership.roles }, after: { email: membership.email, roles: wanted } });
      return;
    }
    const invitee = await repo.findStaff(tx, ctx.tenantId, staffId);
    if (!invitee || invitee.isMember) throw notFound();
    await repo.setOpenInviteRoles(tx, ctx.tenantId, invitee.email, wanted);
    await recordAudit(tx, { actor: ctx.actor, tenantId: ctx.tenantId, action: 'staff.roles_changed', target: { type: 'invite', id: staffId }, before: { email: invitee.email }, after: { email: invitee.email, roles: wanted } });
  });
  const row = await repo.findStaff(deps.db, ctx.tenantId, staffId);
  if (!row) throw notFound();
  return toStaffMember(row);
}

/**
 * Removes a person from the tenant: every role they hold in it (tenant-wide and for its events) and
 * every open invite to it. Their account stays. Access is read from the memberships on every
 * request, so their sessions lose the tenant at once.
 */
export async function removeStaff({ deps, ctx, staffId }: { deps: Deps; ctx: TenantCtx; staffId: string }) {
  await deps.db.transaction(async (tx) => {
    const admins = await lockActiveRoleHolders(tx, { tenantId: ctx.tenantId }, 'tenant_admin');
    const membership = await repo.lockMembership(tx, ctx.tenantId, staffId);
    let email: string;
    let userId: string | undefined;
    if (membership) {
      keepsAnAdmin(admins, membership.userId);
      email = membership.email;
      userId = membership.userId;
    } else {
      const invitee = await repo.findStaff(tx, ctx.tenantId, staffId);
      if (!invitee || invitee.isMember) throw notFound();
      email = invitee.email;
      userId = await repo.findUserIdByEmail(tx, email);
    }
    if (userId) await repo.deleteTenantMemberships(tx, ctx.tenantId, userId);
    await repo.deleteOpenInvites(tx, ctx.tenantId, email);
    await recordAudit(tx, { actor: ctx.actor, tenantId: ctx.tenantId, action: 'staff.removed', target: { type: 'user', id: userId ?? null }, before: { email, roles: membership?.roles ?? [] }, after: null });
  });
  return { success: true as const };
}
