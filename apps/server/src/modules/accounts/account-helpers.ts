import { randomUUID } from 'node:crypto';
import { publicOrigin } from '../../config.js';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { sha256 } from '../../platform/auth/tokens.js';
import * as repo from './repository.js';

// What the accounts use cases share: where a person's links point, the session policy, and invites.

type SessionPolicy = { idleMinutes: number; maxHours: number };
export const policyOf = (deps: Deps): SessionPolicy => ({ idleMinutes: deps.config.sessionIdleMinutes, maxHours: deps.config.sessionMaxHours });

/** Origin of the host a person should use for a group: the platform console or the tenant's host. */
export function originFor(deps: Pick<Deps, 'config'>, tenantUrl: string | null | undefined) {
  return publicOrigin(deps.config, tenantUrl ?? undefined);
}

/** The invite a code and group name, if it is live; null otherwise. */
export async function liveInvite(deps: Deps, code: string | undefined, groupId: string | undefined) {
  if (!code) return null;
  const invite = await repo.findLiveInvite(deps.db, sha256(code));
  if (!invite || (groupId && invite.groupId !== groupId)) return null;
  return invite;
}

export async function acceptInvite(tx: Tx, invite: repo.InviteRow, userId: string) {
  await repo.upsertMembership(tx, {
    id: randomUUID(),
    userId,
    groupId: invite.groupId,
    tenantId: invite.tenantId,
    eventId: invite.eventId,
    roles: invite.roles,
  });
  await repo.markInviteAccepted(tx, invite.id);
}
