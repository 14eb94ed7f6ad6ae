import { M, type TLinkAccountRequest } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { verifyPassword } from '../../platform/auth/passwords.js';
import { AppError, DomainError } from '../../platform/errors.js';
import { acceptInvite, liveInvite, originFor } from './account-helpers.js';
import * as repo from './repository.js';

export async function linkAccount({ deps, input }: { deps: Deps; input: TLinkAccountRequest }) {
  const user = await repo.findUserByEmail(deps.db, input.username);
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok || user.status !== 'ACTIVE') throw new DomainError('CREDENTIALS_INVALID', M.linkAuthFailedTitle);
  const invite = await liveInvite(deps, input.inviteCode, input.targetGroupId);
  if (!invite || invite.email !== user.email || (input.eventId && invite.eventId !== input.eventId)) {
    throw new AppError('BAD_REQUEST', M.linkFailedBody);
  }
  await deps.db.transaction((tx) => acceptInvite(tx, invite, user.id));
  const tenant = invite.tenantId ? await repo.findTenant(deps.db, invite.tenantId) : undefined;
  return { success: true as const, targetUrl: originFor(deps, tenant?.url) };
}
