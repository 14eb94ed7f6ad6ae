import { M, type TChangePasswordRequest } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { AuthUser } from '../../platform/auth/context.js';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.js';
import { createSession, deleteUserSessions } from '../../platform/auth/sessions.js';
import { AppError, notFound } from '../../platform/errors.js';
import { policyOf } from './account-helpers.js';
import * as repo from './repository.js';

export async function changePassword({ deps, user, input, host }: { deps: Deps; user: AuthUser; input: TChangePasswordRequest; host: string }) {
  const row = await repo.findUserById(deps.db, user.id);
  if (!row) throw notFound();
  if (!(await verifyPassword(row.passwordHash, input.oldPassword))) throw new AppError('BAD_REQUEST', M.wrongPassword);
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction(async (tx) => {
    await repo.updateUser(tx, user.id, { passwordHash });
    // Every session ends; this browser gets a fresh one so the person stays signed in here.
    await deleteUserSessions(tx, user.id);
    return createSession(tx, user.id, host, policyOf(deps));
  });
}
