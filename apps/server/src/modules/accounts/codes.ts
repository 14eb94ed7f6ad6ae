import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { newCode, newToken, sha256 } from '../../platform/auth/tokens.js';
import { AppError } from '../../platform/errors.js';
import { originFor } from './account-helpers.js';
import { unlockMail, verificationMail } from './mails.js';
import * as repo from './repository.js';

// One-time codes (sign-up, reset) and the unlock link, shared by the sign-up, sign-in and password use cases.

export const CODE_TTL_MINUTES = 30; // spec: accounts §9 verification code valid 30 minutes
const MAX_CODE_ATTEMPTS = 5;
/**
 * Wrong codes are also counted per account, across every code issued (a reissued code brings no
 * fresh tries): from the 6th on each further check waits 30 s, doubling; at the 10th, codes are not
 * checked at all until the owner follows a link mailed to the address (issue 14 §1).
 */
export const CODE_BACKOFF_AFTER = 6;
export const CODE_LOCK_FAILURES = 10;
const UNLOCK_TTL_DAYS = 7;
const codeRetryAt = (failures: number) =>
  failures >= CODE_BACKOFF_AFTER ? new Date(Date.now() + 30_000 * 2 ** (failures - CODE_BACKOFF_AFTER)) : null;

/** `hostTenantUrl`: the tenant whose site the person signed up on, so the link brings them back there. */
export async function sendVerificationCode(
  deps: Deps,
  tx: Tx,
  user: repo.UserRow,
  invite: repo.InviteRow | null,
  inviteCode?: string,
  hostTenantUrl?: string | null,
) {
  const code = newCode();
  await repo.insertCode(tx, {
    id: randomUUID(),
    userId: user.id,
    purpose: 'signup',
    codeHash: sha256(code),
    inviteId: invite?.id ?? null,
    expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
  });
  const tenant = invite?.tenantId ? await repo.findTenant(tx, invite.tenantId) : undefined;
  const origin = originFor(deps, tenant?.url ?? hostTenantUrl);
  const params = new URLSearchParams({ newUserName: user.email, code, groupId: invite?.groupId ?? '' });
  let link = `${origin}/verify?${params}`;
  if (invite?.eventId) {
    // spec: accounts §2 /event-staff-verify?newUserName&code&groupId&inviteCode&targetEventId&roles
    if (inviteCode) params.set('inviteCode', inviteCode);
    params.set('targetEventId', invite.eventId);
    params.set('roles', invite.roles.join(','));
    link = `${origin}/event-staff-verify?${params}`;
  }
  await deps.mailer.send(tx, { ...verificationMail(user.email, code, link), tenantId: tenant?.id ?? null });
}

/**
 * Checks a one-time code; counts failed attempts, burns the code after too many, and counts them
 * against the account too (see CODE_LOCK_FAILURES). A refusal for backoff or lock writes nothing.
 */
export async function consumeCode(deps: Deps, tx: Tx, user: repo.UserRow | undefined, purpose: string, code: string) {
  if (!user) return null;
  const account = await repo.lockUser(tx, user.id);
  if (!account) return null;
  if (account.codeFailures >= CODE_LOCK_FAILURES) throw new AppError('RATE_LIMITED', M.codesLocked);
  if (account.codeRetryAt && account.codeRetryAt > new Date()) throw new AppError('RATE_LIMITED', M.tooManyRequests);
  const row = await repo.findLiveCode(tx, user.id, purpose);
  if (!row) return null;
  const ok = row.codeHash === sha256(code.trim());
  const attempts = row.attempts + 1;
  await repo.markCodeAttempt(tx, row.id, attempts, ok || attempts >= MAX_CODE_ATTEMPTS);
  if (ok) {
    if (account.codeFailures > 0) await repo.clearCodeFailures(tx, user.id);
    return row;
  }
  const failures = await repo.countCodeFailure(tx, user.id, codeRetryAt);
  if (failures === CODE_LOCK_FAILURES) await sendUnlockLink(deps, tx, account);
  return null;
}

/** Mails the link that lifts a code lock: a 256-bit token, which cannot be guessed as a code can. */
export async function sendUnlockLink(deps: Deps, tx: Tx, user: repo.UserRow) {
  const token = newToken();
  await repo.insertCode(tx, {
    id: randomUUID(),
    userId: user.id,
    purpose: 'unlock',
    codeHash: sha256(token),
    expiresAt: new Date(Date.now() + UNLOCK_TTL_DAYS * 24 * 3600_000),
  });
  // A page that asks before it unlocks: mail scanners and link previews open links, and a GET changes nothing.
  const link = `${originFor(deps, null)}/unlock?${new URLSearchParams({ username: user.email, token })}`;
  await deps.mailer.send(tx, unlockMail(user.email, link));
}
