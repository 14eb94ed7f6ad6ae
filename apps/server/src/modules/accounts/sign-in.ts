import { M, PLATFORM_GROUP_ID, type TMembership } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { AuthUser } from '../../platform/auth/context.js';
import { verifyPassword } from '../../platform/auth/passwords.js';
import { createSession, deleteSession } from '../../platform/auth/sessions.js';
import { DomainError, notFound } from '../../platform/errors.js';
import { originFor, policyOf } from './account-helpers.js';
import { sendVerificationCode } from './codes.js';
import { toProfile } from './profile.js';
import * as repo from './repository.js';

// Signing in and out, and the session's own view of who is signed in.

export async function getSessionInfo({ deps, user, csrfToken }: { deps: Deps; user: AuthUser; csrfToken: string }) {
  const row = await repo.findUserById(deps.db, user.id);
  if (!row) throw notFound();
  const rows = await repo.membershipsOf(deps.db, user.id);
  const memberships: TMembership[] = rows
    .filter((m) => m.groupId === PLATFORM_GROUP_ID || m.tenantName !== null)
    .map((m) => ({
      groupId: m.groupId,
      kind: m.groupId === PLATFORM_GROUP_ID ? 'platform' : m.eventId ? 'event' : 'tenant',
      tenantId: m.tenantId,
      tenantName: m.tenantName,
      tenantUrl: m.tenantUrl ? originFor(deps, m.tenantUrl) : null,
      eventId: m.eventId,
      roles: m.roles,
    }));
  return { user: toProfile(deps, row), memberships, csrfToken };
}

export async function login({ deps, username, password, host }: { deps: Deps; username: string; password: string; host: string }) {
  const user = await repo.findUserByEmail(deps.db, username);
  const ok = await verifyPassword(user?.passwordHash, password);
  if (!user || !ok || user.status === 'DISABLED') throw new DomainError('CREDENTIALS_INVALID', M.signInFailed);
  if (user.status === 'PENDING') {
    // Only someone who knows the password learns the account is unverified; they get a new code,
    // still tied to the invite they signed up with (the new code replaces the old one).
    await deps.db.transaction(async (tx) => sendVerificationCode(deps, tx, user, await repo.findPendingSignupInvite(tx, user.id)));
    throw new DomainError('EMAIL_NOT_VERIFIED', M.emailNotVerified);
  }
  await repo.updateUser(deps.db, user.id, { lastLoginAt: new Date() });
  const session = await createSession(deps.db, user.id, host, policyOf(deps));
  const authUser: AuthUser = { id: user.id, email: user.email, status: user.status, firstName: user.firstName, lastName: user.lastName };
  return { ...session, user: authUser };
}

export async function logout({ deps, token }: { deps: Deps; token: string | null }) {
  if (token) await deleteSession(deps.db, token);
}
