import { M, type ZResetPasswordRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import { deleteUserSessions } from '../../platform/auth/sessions.js';
import { AppError } from '../../platform/errors.js';
import { consumeCode } from './codes.js';
import * as repo from './repository.js';

export async function resetPassword({ deps, input }: { deps: Deps; input: z.output<typeof ZResetPasswordRequest> }) {
  const user = await repo.findUserByEmail(deps.db, input.username);
  const passwordHash = await hashPassword(input.password);
  const ok = await deps.db.transaction(async (tx) => {
    const row = await consumeCode(deps, tx, user, 'reset', input.code);
    if (!row || !user) return false;
    // A reset code proves control of the address, so it also verifies a pending account.
    await repo.updateUser(tx, user.id, { passwordHash, status: 'ACTIVE' });
    await deleteUserSessions(tx, user.id);
    return true;
  });
  if (!ok) throw new AppError('BAD_REQUEST', M.invalidCode);
  return { success: true as const };
}
