import { randomUUID } from 'node:crypto';
import { M, PLATFORM_GROUP_ID, type TPlatformUser, type TPlatformUserList, type ZUpdatePlatformUserRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../../platform/audit.js';
import type { PlatformCtx } from '../../platform/auth/context.js';
import { conflict, forbidden, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import { lockActiveRoleHolders } from '../accounts/repository.js';
import * as repo from './repository.js';

// Inviting is accounts' sendInvite (POST /api/platform/users); this module lists, verifies,
// edits and removes platform users.

const SUPER = 'super_user';

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const d = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function toPlatformUser(row: repo.PersonRow): TPlatformUser {
  return {
    id: row.email,
    group: { id: PLATFORM_GROUP_ID, name: row.name, status: row.status, lastLogin: iso(row.lastLogin), roles: row.roles },
  };
}

export async function listPlatformUsers({ deps, query }: { deps: Deps; query: unknown }): Promise<TPlatformUserList> {
  const q = compileList(repo.PLATFORM_USER_LIST, query);
  const { rows, total } = await repo.listPlatformUsers(deps.db, q);
  return q.page(rows, total, toPlatformUser);
}

async function personResource(deps: Deps, email: string): Promise<TPlatformUser> {
  const row = await repo.findPerson(deps.db, email);
  if (!row) throw notFound();
  return toPlatformUser(row);
}

/**
 * Verify User (spec: accounts §2 screen 10, §4): activates a pending platform user's account and
 * grants the roles of their invite, as the verification code would have. (The original reused the
 * delete call here, a defect the spec points out.) Only someone who acted on the invite can be
 * verified: a pending account signed up through the invite's link (which only the invited mailbox
 * received). An existing account joins by accepting the invite itself, so a mistyped address can
 * never hand a stranger's account platform roles; an account someone signed up for on their own
 * (whoever knows its password) is not verified into the platform either. Granting super_user this
 * way takes a super user, as editing roles does (docs/decisions.md, "Platform user verification").
 */
export async function verifyPlatformUser({ deps, actor, email }: { deps: Deps; actor: PlatformCtx; email: string }) {
  await deps.db.transaction(async (tx) => {
    const user = await repo.findUserByEmail(tx, email);
    const membership = user ? await repo.findPlatformMembership(tx, user.id, true) : undefined;
    const invite = await repo.findOpenPlatformInvite(tx, email);
    if (!membership && !invite) throw notFound();
    if (!user) throw conflict(M.userNotSignedUp);
    if (membership && user.status !== 'PENDING') throw conflict(M.userNotPending);
    const roles = membership?.roles ?? invite?.roles ?? [];
    if (roles.includes(SUPER) && !actor.platformRoles.includes(SUPER)) throw forbidden(M.superUserOnly);
    if (!membership) {
      if (user.status === 'ACTIVE') throw conflict(M.verifyExistingAccount);
      if (user.status !== 'PENDING') throw conflict(M.userNotPending);
      if (!(await repo.signedUpThroughPlatformInvite(tx, user.id, email))) throw conflict(M.verifyNotThroughInvite);
    }
    await repo.updateUser(tx, user.id, { status: 'ACTIVE' });
    if (!membership && invite) {
      await repo.insertMembership(tx, { id: randomUUID(), userId: user.id, groupId: PLATFORM_GROUP_ID, tenantId: null, eventId: null, roles: invite.roles });
    }
    await repo.acceptPlatformInvites(tx, email);
  });
  return personResource(deps, email);
}

/** Edit Platform User: name and roles. Only a super user moves the super_user role, and one always remains. */
export async function updatePlatformUser({
  deps,
  actor,
  email,
  changes,
}: {
  deps: Deps;
  actor: PlatformCtx;
  email: string;
  changes: z.output<typeof ZUpdatePlatformUserRequest>['group'];
}) {
  await deps.db.transaction(async (tx) => {
    const supers = await lockActiveRoleHolders(tx, 'platform', 'super_user');
    const user = await repo.findUserByEmail(tx, email);
    const membership = user ? await repo.findPlatformMembership(tx, user.id, true) : undefined;
    const invite = membership ? undefined : await repo.findOpenPlatformInvite(tx, email);
    if (!membership && !invite) throw notFound();
    if (changes.roles) {
      const roles = [...new Set(changes.roles)];
      const current = membership?.roles ?? invite?.roles ?? [];
      if (current.includes(SUPER) !== roles.includes(SUPER) && !actor.platformRoles.includes(SUPER)) throw forbidden(M.superUserOnly);
      if (membership && user && current.includes(SUPER) && !roles.includes(SUPER) && supers.every((id) => id === user.id)) {
        throw conflict(M.lastSuperUser);
      }
      if (membership) await repo.setMembershipRoles(tx, membership.id, roles);
      else if (invite) await repo.setInviteRoles(tx, invite.id, roles);
      await recordAudit(tx, { actor: actor.actor, tenantId: null, action: 'platform_user.changed', target: { type: 'user', id: user?.id ?? null }, before: { email, roles: current }, after: { email, roles } });
    }
    if (changes.name !== undefined) {
      if (!user) throw conflict(M.userNotSignedUp);
      const [firstName = '', ...rest] = changes.name.split(/\s+/);
      await repo.updateUser(tx, user.id, { firstName, lastName: rest.join(' ') });
    }
  });
  return personResource(deps, email);
}

/** Removes platform access (membership and open invites); the account itself stays. */
export async function deletePlatformUser({ deps, actor, email }: { deps: Deps; actor: PlatformCtx; email: string }) {
  if (email.toLowerCase() === actor.user.email.toLowerCase()) throw conflict(M.cannotRemoveSelf);
  await deps.db.transaction(async (tx) => {
    const supers = await lockActiveRoleHolders(tx, 'platform', 'super_user');
    const user = await repo.findUserByEmail(tx, email);
    const membership = user ? await repo.findPlatformMembership(tx, user.id, true) : undefined;
    if (membership && user) {
      if (membership.roles.includes(SUPER)) {
        if (!actor.platformRoles.includes(SUPER)) throw forbidden(M.superUserOnly);
        if (supers.every((id) => id === user.id)) throw conflict(M.lastSuperUser);
      }
      await repo.deleteMembership(tx, membership.id);
      await recordAudit(tx, { actor: actor.actor, tenantId: null, action: 'platform_user.changed', target: { type: 'user', id: user.id }, before: { email, roles: membership.roles }, after: { email, roles: [] } });
    }
    const withdrawn = await repo.deleteOpenPlatformInvites(tx, email);
    if (!membership && withdrawn === 0) throw notFound();
  });
  return { success: true as const };
}
