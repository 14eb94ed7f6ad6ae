import { randomUUID } from 'node:crypto';
import { EVENT_ROLES, isEventWritable, M, PLATFORM_GROUP_ID, PLATFORM_ROLES, TENANT_ROLES, type AppType, type EventRole, type EventStatus } from '@marquee/core';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { actorOf as auditActorOf, recordAudit, type AuditActor } from '../../platform/audit.js';
import type { AuthUser } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { newToken, sha256 } from '../../platform/auth/tokens.js';
import { AppError, badRequest, DomainError, notFound } from '../../platform/errors.js';
import { originFor } from './account-helpers.js';
import { eventStaffInviteMail, inviteMail } from './mails.js';
import * as repo from './repository.js';

export const INVITE_TTL_DAYS = 7;

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
  // A cancelled event is final (issue 21.14): nobody new is invited to work on it. The rule is core's
  // isEventWritable, the one the event's Staff tab reads to hide its invite form.
  const refuseCancelled = (status: string | undefined) => {
    if (status !== undefined && !isEventWritable(status as EventStatus)) throw new DomainError('EVENT_CANCELLED', M.eventCancelledNoInvites);
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
