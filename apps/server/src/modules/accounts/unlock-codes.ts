import { M } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { sha256 } from '../../platform/auth/tokens.js';
import { AppError } from '../../platform/errors.js';
import * as repo from './repository.js';

/** Follows the mailed unlock link: the count of wrong codes starts again from zero. */
export async function unlockCodes({ deps, username, token }: { deps: Deps; username: string; token: string }) {
  const user = await repo.findUserByEmail(deps.db, username);
  const ok = await deps.db.transaction(async (tx) => {
    if (!user) return false;
    const row = await repo.findLiveCode(tx, user.id, 'unlock');
    if (!row || row.codeHash !== sha256(token)) return false;
    await repo.markCodeAttempt(tx, row.id, row.attempts + 1, true);
    await repo.clearCodeFailures(tx, user.id);
    return true;
  });
  if (!ok) throw new AppError('BAD_REQUEST', M.unlockLinkInvalid);
  return { success: true as const };
}
