import { M, type AppType, type TInviteInfo } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { AppError } from '../../platform/errors.js';
import { liveInvite, originFor } from './account-helpers.js';
import * as repo from './repository.js';

export async function describeInvite({ deps, code, groupId }: { deps: Deps; code: string; groupId?: string }): Promise<TInviteInfo> {
  const invite = await liveInvite(deps, code, groupId);
  if (!invite) throw new AppError('NOT_FOUND', M.inviteFailedTitle);
  const tenant = invite.tenantId ? await repo.findTenant(deps.db, invite.tenantId) : undefined;
  if (invite.tenantId && !tenant) throw new AppError('NOT_FOUND', M.inviteFailedTitle);
  const user = await repo.findUserByEmail(deps.db, invite.email);
  return {
    email: invite.email,
    groupId: invite.groupId,
    groupName: tenant?.name ?? 'Marquee',
    appType: invite.appType as AppType,
    eventId: invite.eventId,
    roles: invite.roles,
    userExists: !!user && user.status === 'ACTIVE',
    targetUrl: originFor(deps, tenant?.url),
  };
}
