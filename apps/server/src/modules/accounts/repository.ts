import { PLATFORM_GROUP_ID } from '@marquee/core';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, invites, memberships, tenants, users, verificationCodes } from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type InviteRow = typeof invites.$inferSelect;

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** The user row, locked for this transaction: concurrent code checks are counted one by one. */
export async function lockUser(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

export async function insertUser(db: DbOrTx, values: typeof users.$inferInsert) {
  await db.insert(users).values(values);
}

export async function updateUser(db: DbOrTx, id: string, values: Partial<typeof users.$inferInsert>) {
  await db.update(users).set({ ...values, updatedAt: new Date() }).where(eq(users.id, id));
}

export async function insertCode(db: DbOrTx, values: typeof verificationCodes.$inferInsert) {
  // A new code replaces any earlier unused code of the same purpose.
  await db
    .update(verificationCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(verificationCodes.userId, values.userId), eq(verificationCodes.purpose, values.purpose), isNull(verificationCodes.usedAt)));
  await db.insert(verificationCodes).values(values);
}

export async function findLiveCode(db: DbOrTx, userId: string, purpose: string) {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.userId, userId),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.usedAt),
        gt(verificationCodes.expiresAt, new Date()),
      ),
    )
    .for('update');
  return row;
}

export async function markCodeAttempt(db: DbOrTx, id: string, attempts: number, used: boolean) {
  await db
    .update(verificationCodes)
    .set({ attempts, usedAt: used ? new Date() : null })
    .where(eq(verificationCodes.id, id));
}

export async function insertInvite(db: DbOrTx, values: typeof invites.$inferInsert) {
  await db.insert(invites).values(values);
}

export async function findLiveInvite(db: DbOrTx, codeHash: string): Promise<InviteRow | undefined> {
  const [row] = await db
    .select()
    .from(invites)
    .where(and(eq(invites.codeHash, codeHash), isNull(invites.acceptedAt), gt(invites.expiresAt, new Date())));
  return row;
}

export async function findInviteById(db: DbOrTx, id: string): Promise<InviteRow | undefined> {
  const [row] = await db.select().from(invites).where(eq(invites.id, id));
  return row;
}

/** The live, unaccepted invite that the user's latest sign-up code was sent for, if any. */
export async function findPendingSignupInvite(db: DbOrTx, userId: string): Promise<InviteRow | null> {
  const [row] = await db
    .select({ invite: invites })
    .from(verificationCodes)
    .leftJoin(invites, eq(invites.id, verificationCodes.inviteId))
    .where(and(eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, 'signup')))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  const invite = row?.invite;
  return invite && !invite.acceptedAt && invite.expiresAt > new Date() ? invite : null;
}

export async function markInviteAccepted(db: DbOrTx, id: string) {
  await db.update(invites).set({ acceptedAt: new Date() }).where(eq(invites.id, id));
}

/** Adds roles to a user's membership of a group (merging with roles already held). */
export async function upsertMembership(
  db: DbOrTx,
  m: { id: string; userId: string; groupId: string; tenantId: string | null; eventId: string | null; roles: string[] },
) {
  const [existing] = await db
    .select()
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, m.userId),
        eq(memberships.groupId, m.groupId),
        m.eventId ? eq(memberships.eventId, m.eventId) : isNull(memberships.eventId),
      ),
    );
  if (existing) {
    const roles = [...new Set([...existing.roles, ...m.roles])];
    await db.update(memberships).set({ roles }).where(eq(memberships.id, existing.id));
    return;
  }
  await db.insert(memberships).values(m);
}

export async function membershipsOf(db: DbOrTx, userId: string) {
  return db
    .select({
      groupId: memberships.groupId,
      tenantId: memberships.tenantId,
      eventId: memberships.eventId,
      roles: memberships.roles,
      tenantName: tenants.name,
      tenantUrl: tenants.url,
    })
    .from(memberships)
    .leftJoin(tenants, and(eq(tenants.id, memberships.tenantId), isNull(tenants.deletedAt)))
    .where(eq(memberships.userId, userId));
}

export async function findTenant(db: DbOrTx, id: string) {
  const [row] = await db.select().from(tenants).where(and(eq(tenants.id, id), isNull(tenants.deletedAt)));
  return row;
}

export async function findEvent(db: DbOrTx, tenantId: string, eventId: string) {
  const [row] = await db
    .select({ id: events.id, name: events.name, status: events.status })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row;
}

/** The event's status, with a share lock: a cancellation (an UPDATE of the row) waits for, or is seen by, the caller's transaction. */
export async function lockEventStatus(db: DbOrTx, tenantId: string, eventId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ status: events.status })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)))
    .for('share');
  return row?.status;
}

/**
 * The user ids of the active users holding `role` in a tenant's group (or the platform's), locked
 * so that two concurrent demotions or removals cannot both pass a "keep the last one" check.
 */
export async function lockActiveRoleHolders(db: DbOrTx, group: { tenantId: string } | 'platform', role: string): Promise<string[]> {
  const inGroup = group === 'platform' ? eq(memberships.groupId, PLATFORM_GROUP_ID) : eq(memberships.tenantId, group.tenantId);
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(inGroup, isNull(memberships.eventId), sql`${role} = any(${memberships.roles})`, eq(users.status, 'ACTIVE')))
    .orderBy(memberships.id)
    .for('update', { of: memberships });
  return rows.map((r) => r.userId);
}

/** Counts one wrong code against the account; returns the new count. */
export async function countCodeFailure(db: DbOrTx, userId: string, retryAt: (failures: number) => Date | null) {
  const [row] = await db
    .update(users)
    .set({ codeFailures: sql`${users.codeFailures} + 1` })
    .where(eq(users.id, userId))
    .returning({ codeFailures: users.codeFailures });
  const failures = row?.codeFailures ?? 0;
  await db.update(users).set({ codeRetryAt: retryAt(failures) }).where(eq(users.id, userId));
  return failures;
}

export async function clearCodeFailures(db: DbOrTx, userId: string) {
  await db.update(users).set({ codeFailures: 0, codeRetryAt: null }).where(eq(users.id, userId));
}
