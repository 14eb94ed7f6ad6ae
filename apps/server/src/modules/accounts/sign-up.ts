import { randomUUID } from 'node:crypto';
import { M, type AppType, type ZRegisterRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import { AppError } from '../../platform/errors.js';
import { acceptInvite, liveInvite, originFor } from './account-helpers.js';
import { consumeCode, sendVerificationCode } from './codes.js';
import { alreadyRegisteredMail } from './mails.js';
import * as repo from './repository.js';

// Signing up, and verifying the address with the mailed code.

/**
 * `hostTenantUrl` is the tenant whose host served the request (null on the platform host): links
 * in mails are built from configuration, never from the Host header.
 */
export async function register({ deps, input, hostTenantUrl }: { deps: Deps; input: z.output<typeof ZRegisterRequest>; hostTenantUrl: string | null }) {
  const appType: AppType = input.appType;
  const invite = await liveInvite(deps, input.inviteCode, input.groupId);
  if (appType !== 'ATTENDEE' || input.inviteCode) {
    // TENANT and PLATFORM accounts come only through an invite to that address.
    if (!invite || invite.email !== input.username) throw new AppError('BAD_REQUEST', M.inviteFailedTitle);
  }
  const passwordHash = await hashPassword(input.password);
  const existing = await repo.findUserByEmail(deps.db, input.username);
  await deps.db.transaction(async (tx) => {
    if (existing && existing.status !== 'PENDING') {
      // No enumeration: the answer is the same; the owner of the address is told by mail.
      const origin = originFor(deps, hostTenantUrl);
      await deps.mailer.send(tx, alreadyRegisteredMail(existing.email, `${origin}/login`, `${origin}/forgot-password`));
      return;
    }
    if (existing) {
      // A repeated sign-up for a pending address proves nothing about the mailbox: it only sends a
      // new code, and the first sign-up's password and name stay (issue 14 §2). Someone who forgot
      // that password uses forgot-password, whose code also verifies the account.
      // The new code answers the sign-up that set the credentials: it carries that sign-up's invite
      // (if any), never this request's, or verifying would hand an invite's roles to whoever
      // chose the password first.
      const pendingInvite = await repo.findPendingSignupInvite(tx, existing.id);
      const code = invite && invite.id === pendingInvite?.id ? input.inviteCode : undefined;
      await sendVerificationCode(deps, tx, existing, pendingInvite, code, hostTenantUrl);
      return;
    }
    const id = randomUUID();
    await repo.insertUser(tx, {
      id,
      email: input.username,
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      contactNumber: input.contactNumber ?? null,
      state: input.state || null,
      zip: input.zip || null,
      status: 'PENDING',
    });
    const user = (await repo.findUserById(tx, id))!;
    await sendVerificationCode(deps, tx, user, invite, invite ? input.inviteCode : undefined, hostTenantUrl);
  });
  return { success: true as const, message: M.registerSuccess };
}

export async function verifyEmail({ deps, username, code }: { deps: Deps; username: string; code: string }) {
  const user = await repo.findUserByEmail(deps.db, username);
  const outcome = await deps.db.transaction(async (tx) => {
    const row = await consumeCode(deps, tx, user, 'signup', code);
    if (!row || !user) return false;
    await repo.updateUser(tx, user.id, { status: 'ACTIVE' });
    if (row.inviteId) {
      const invite = await repo.findInviteById(tx, row.inviteId);
      if (invite && !invite.acceptedAt && invite.email === user.email) await acceptInvite(tx, invite, user.id);
    }
    return true;
  });
  // The failed attempt is committed (it counts) before the error is raised.
  if (!outcome) throw new AppError('BAD_REQUEST', M.invalidCode);
  return { success: true as const };
}
