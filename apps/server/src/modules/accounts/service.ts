import { randomUUID } from 'node:crypto';
import {
  EVENT_ROLES,
  M,
  PLATFORM_GROUP_ID,
  PLATFORM_ROLES,
  TENANT_ROLES,
  type AppType,
  type EventRole,
  type TChangePasswordRequest,
  type TInviteInfo,
  type TLinkAccountRequest,
  type TMembership,
  type TProfile,
  type TProfileUpdate,
  type ZRegisterRequest,
  type ZProfileUpdate,
  type ZResetPasswordRequest,
} from '@marquee/core';
import type { z } from 'zod';
import { publicOrigin } from '../../config.js';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { actorOf as auditActorOf, recordAudit, type AuditActor } from '../../platform/audit.js';
import type { AuthUser } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.js';
import { createSession, deleteSession, deleteUserSessions } from '../../platform/auth/sessions.js';
import { newCode, newToken, sha256 } from '../../platform/auth/tokens.js';
import { PICTURE_TYPES, sniffContentType } from '../../platform/content-type.js';
import { AppError, badRequest, DomainError, notFound } from '../../platform/errors.js';
import { alreadyRegisteredMail, eventStaffInviteMail, inviteMail, resetMail, unlockMail, verificationMail } from './mails.js';
import * as repo from './repository.js';

export const CODE_TTL_MINUTES = 30; // spec: accounts §9 verification code valid 30 minutes
export const INVITE_TTL_DAYS = 7;
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
export const PICTURE_MAX_BYTES = 5 * 1024 * 1024; // spec: accounts §9

type SessionPolicy = { idleMinutes: number; maxHours: number };
const policyOf = (deps: Deps): SessionPolicy => ({ idleMinutes: deps.config.sessionIdleMinutes, maxHours: deps.config.sessionMaxHours });

/** Origin of the host a person should use for a group: the platform console or the tenant's host. */
function originFor(deps: Pick<Deps, 'config'>, tenantUrl: string | null | undefined) {
  return publicOrigin(deps.config, tenantUrl ?? undefined);
}

export function toProfile(deps: Deps, u: repo.UserRow): TProfile {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    contactNumber: u.contactNumber,
    birthDate: u.birthDate,
    address1: u.address1,
    address2: u.address2,
    city: u.city,
    state: u.state,
    zip: u.zip,
    country: u.country,
    profile: u.pictureKey ? deps.storage.downloadUrl(u.pictureKey, 24 * 3600) : null,
  };
}

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

// ---- sign-in -----------------------------------------------------------------------------

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

// ---- sign-up and verification ---------------------------------------------------------------

/** `hostTenantUrl`: the tenant whose site the person signed up on, so the link brings them back there. */
async function sendVerificationCode(
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

/** The invite a code and group name, if it is live; null otherwise. */
async function liveInvite(deps: Deps, code: string | undefined, groupId: string | undefined) {
  if (!code) return null;
  const invite = await repo.findLiveInvite(deps.db, sha256(code));
  if (!invite || (groupId && invite.groupId !== groupId)) return null;
  return invite;
}

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

/**
 * Checks a one-time code; counts failed attempts, burns the code after too many, and counts them
 * against the account too (see CODE_LOCK_FAILURES). A refusal for backoff or lock writes nothing.
 */
async function consumeCode(deps: Deps, tx: Tx, user: repo.UserRow | undefined, purpose: string, code: string) {
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
async function sendUnlockLink(deps: Deps, tx: Tx, user: repo.UserRow) {
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

async function acceptInvite(tx: Tx, invite: repo.InviteRow, userId: string) {
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

// ---- passwords -------------------------------------------------------------------------------

/**
 * Every answer takes at least this long, whether or not the address has an account: a known
 * address costs a code, a mail and a transaction, an unknown one nothing, and the difference was
 * measurable (issue 14 §4). Well above the known path's time, so the padding hides it.
 */
export const FORGOT_PASSWORD_FLOOR_MS = 200;

export async function forgotPassword({ deps, username, hostTenantUrl }: { deps: Deps; username: string; hostTenantUrl: string | null }) {
  const started = Date.now();
  try {
    const user = await repo.findUserByEmail(deps.db, username);
    if (user && user.status !== 'DISABLED') {
      const code = newCode();
      // A link built from the Host header would let anyone have the code mailed to their own site.
      const origin = originFor(deps, hostTenantUrl);
      const link = `${origin}/forgot-password?${new URLSearchParams({ username: user.email, code })}`;
      await deps.db.transaction(async (tx) => {
        // A locked account gets the unlock link again: a code would not be checked anyway.
        if (user.codeFailures >= CODE_LOCK_FAILURES) return sendUnlockLink(deps, tx, user);
        await repo.insertCode(tx, {
          id: randomUUID(),
          userId: user.id,
          purpose: 'reset',
          codeHash: sha256(code),
          expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
        });
        await deps.mailer.send(tx, resetMail(user.email, code, link));
      });
    }
  } finally {
    const wait = started + FORGOT_PASSWORD_FLOOR_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return { success: true as const, message: M.codeSent };
}

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

// ---- profile ---------------------------------------------------------------------------------

function ownProfile(user: AuthUser, userId: string) {
  // One's own profile only; anyone else's id is simply not there.
  if (user.id !== userId) throw notFound();
}

export async function getProfile({ deps, user, userId }: { deps: Deps; user: AuthUser; userId: string }) {
  ownProfile(user, userId);
  const row = await repo.findUserById(deps.db, userId);
  if (!row) throw notFound();
  return toProfile(deps, row);
}

export async function updateProfile({ deps, user, userId, changes }: { deps: Deps; user: AuthUser; userId: string; changes: z.output<typeof ZProfileUpdate> }) {
  ownProfile(user, userId);
  await repo.updateUser(deps.db, userId, changes as TProfileUpdate & Record<string, unknown>);
  return getProfile({ deps, user, userId });
}

export async function uploadPicture({ deps, user, userId, bytes, truncated }: { deps: Deps; user: AuthUser; userId: string; bytes: Buffer; truncated: boolean }) {
  ownProfile(user, userId);
  if (truncated || bytes.length > PICTURE_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', M.pictureSize);
  const type = sniffContentType(bytes);
  if (!type || !PICTURE_TYPES.includes(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.pictureType);
  const key = `users/${userId}/picture-${randomUUID()}.${type === 'image/png' ? 'png' : 'jpg'}`;
  await deps.storage.put(key, bytes, type);
  const previous = (await repo.findUserById(deps.db, userId))?.pictureKey;
  await repo.updateUser(deps.db, userId, { pictureKey: key });
  if (previous) await deps.storage.delete(previous);
  return getProfile({ deps, user, userId });
}

// ---- invites ---------------------------------------------------------------------------------

export type InviteTarget =
  | { kind: 'platform' }
  | { kind: 'tenant'; tenantId: string; roles: string[] }
  | { kind: 'event'; tenantId: string; eventId: string; roles: string[] };

/**
 * Invites an address to the platform, a tenant or an event. A person without an account gets a
 * sign-up link; one with an account gets an Accept and Link Account link.
 */
export async function sendInvite({
  deps,
  inviter,
  email,
  target,
  tx: outer,
  actor,
}: {
  deps: Pick<Deps, 'db' | 'config' | 'mailer'>;
  inviter: Pick<AuthUser, 'id' | 'email' | 'firstName'>;
  /** Who invites, for the audit log (issue 25); the system when not said. */
  actor?: AuditActor;
  email: string;
  target: InviteTarget;
  /** The caller's transaction (Create New Tenant invites its admin inside its own). */
  tx?: Tx;
}) {
  const db = outer ?? deps.db;
  const tenant = target.kind === 'platform' ? null : await repo.findTenant(db, target.tenantId);
  if (target.kind !== 'platform' && !tenant) throw notFound();
  const event = target.kind === 'event' && UUID_RE.test(target.eventId) ? await repo.findEvent(db, target.tenantId, target.eventId) : undefined;
  if (target.kind === 'event' && !event) throw notFound();
  // A cancelled event is final (issue 21.14): nobody new is invited to work on it.
  const refuseCancelled = (status: string | undefined) => {
    if (status === 'cancelled') throw new DomainError('EVENT_CANCELLED', M.eventCancelledNoInvites);
  };
  refuseCancelled(event?.status);
  const roles =
    target.kind === 'platform'
      ? [...PLATFORM_ROLES] // spec: accounts §6 a platform invite grants all four roles
      : target.roles.filter((r) => (target.kind === 'tenant' ? (TENANT_ROLES as readonly string[]) : (EVENT_ROLES as readonly string[])).includes(r));
  if (roles.length === 0) throw badRequest(M.rolesRequired);
  const groupId = target.kind === 'platform' ? PLATFORM_GROUP_ID : target.tenantId;
  const appType: AppType = target.kind === 'platform' ? 'PLATFORM' : 'TENANT';
  const code = newToken();
  const existing = await repo.findUserByEmail(db, email);
  // An active platform user is not invited again: accepting would only hand back all four roles,
  // whatever Edit Platform User left them with. Refused before anything is written or mailed.
  if (target.kind === 'platform' && existing?.status === 'ACTIVE') {
    const member = (await repo.membershipsOf(db, existing.id)).some((m) => m.groupId === PLATFORM_GROUP_ID && !m.eventId);
    if (member) throw new AppError('CONFLICT', M.alreadyPlatformUser);
  }
  const origin = originFor(deps, tenant?.url);
  const eventId = target.kind === 'event' ? target.eventId : null;
  const targetName = tenant?.name ?? 'Marquee';

  let link: string;
  if (existing && existing.status === 'ACTIVE') {
    const params = new URLSearchParams({ targetGroupId: groupId, code, email, userExist: 'true', targetName, targetUrl: origin });
    if (eventId) {
      params.set('targetEventId', eventId);
      params.set('roles', roles.join(','));
    }
    link = `${origin}/accept-invite?${params}`;
  } else {
    const params = new URLSearchParams({ inviteCode: code, groupId, email });
    if (eventId) {
      params.set('targetEventId', eventId);
      params.set('roles', roles.join(','));
    }
    link = `${origin}/signup?${params}`;
  }

  const subject = tenant ? tenant.inviteTemplateSubject : 'You are invited to administer Marquee';
  // The tenant's template is its words to its own team (the operator writes it with the tenant, for its
  // admin); event staff get Marquee's words for their role instead (issue 21.14).
  const body = tenant ? tenant.inviteTemplateBody : `${inviter.firstName || inviter.email} invited you to join Marquee as a Platform Admin.`;
  const mail =
    tenant && event
      ? eventStaffInviteMail({ to: email, tenantId: tenant.id, tenantName: tenant.name, eventName: event.name, roles: roles as EventRole[], link, newAccount: !(existing && existing.status === 'ACTIVE') })
      : inviteMail({ to: email, subject, body, link, tenantId: tenant?.id ?? null, tenantName: tenant?.name ?? null, writtenBy: (tenant?.inviteTemplateBy as 'platform' | 'tenant' | null | undefined) ?? null });

  const write = async (tx: Tx) => {
    if (event) refuseCancelled(await repo.lockEventStatus(tx, tenant!.id, event.id));
    await repo.insertInvite(tx, {
      id: randomUUID(),
      codeHash: sha256(code),
      email,
      groupId,
      tenantId: tenant?.id ?? null,
      eventId,
      roles,
      appType,
      invitedBy: inviter.id,
      expiresAt: new Date(Date.now() + INVITE_TTL_DAYS * 24 * 3600_000),
    });
    await deps.mailer.send(tx, mail);
    await recordAudit(tx, { actor: auditActorOf({ actor }), tenantId: tenant?.id ?? null, action: target.kind === 'platform' ? 'platform_user.invited' : 'staff.invited', target: { type: 'invite', id: email }, after: { email, roles, eventId } });
  };
  if (outer) await write(outer);
  else await deps.db.transaction(write);
  return { success: true as const };
}

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
