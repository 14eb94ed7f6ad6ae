import { PLATFORM_GROUP_ID } from '@marquee/core';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { invites, memberships, users, verificationCodes } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

const inviteUser = alias(users, 'invite_user');
const otherMember = alias(memberships, 'other_member');
const otherUser = alias(users, 'other_user');

/**
 * Everyone on the Platform Users screen: members of the platform group (their account's status),
 * plus people with an open platform invite and no membership yet (PENDING while the invite is
 * live, EXPIRED after). One row per e-mail address.
 */
const people = sql`(
  select ${users.email} as email,
         trim(${users.firstName} || ' ' || ${users.lastName}) as name,
         ${users.status} as status,
         ${users.lastLoginAt} as last_login,
         ${memberships.roles} as roles,
         ${memberships.createdAt} as created_at
  from ${memberships} join ${users} on ${users.id} = ${memberships.userId}
  where ${memberships.groupId} = ${PLATFORM_GROUP_ID} and ${memberships.eventId} is null
  union all
  select * from (
    select distinct on (${invites.email})
           ${invites.email} as email,
           coalesce(trim(${inviteUser.firstName} || ' ' || ${inviteUser.lastName}), '') as name,
           case when ${invites.expiresAt} > now() then 'PENDING' else 'EXPIRED' end as status,
           ${inviteUser.lastLoginAt} as last_login,
           ${invites.roles} as roles,
           ${invites.createdAt} as created_at
    from ${invites} left join ${users} as invite_user on ${inviteUser.email} = ${invites.email}
    where ${invites.groupId} = ${PLATFORM_GROUP_ID} and ${invites.acceptedAt} is null
      and not exists (
        select 1 from ${memberships} as other_member join ${users} as other_user on ${otherUser.id} = ${otherMember.userId}
        where ${otherMember.groupId} = ${PLATFORM_GROUP_ID} and ${otherUser.email} = ${invites.email})
    order by ${invites.email}, ${invites.createdAt} desc
  ) as open_invites
) as pu`;

export const PLATFORM_USER_LIST: ListSpec = {
  fields: {
    'details.id': { expr: sql`pu.email`, type: 'text', match: 'contains' },
    'details.name': { expr: sql`pu.name`, type: 'text', match: 'contains' },
    'details.status': { expr: sql`pu.status`, type: 'text' },
    'details.lastLogin': { expr: sql`pu.last_login`, type: 'timestamp', sortable: false },
    'details.dateCreated': { expr: sql`pu.created_at`, type: 'timestamp' },
  },
  id: sql`pu.email`,
  defaultSort: 'details.id',
};

export type PersonRow = { email: string; name: string; status: string; lastLogin: unknown; roles: string[] };

export async function listPlatformUsers(db: DbOrTx, q: CompiledList) {
  const rows = await db
    .select({
      email: sql<string>`pu.email`,
      name: sql<string>`pu.name`,
      status: sql<string>`pu.status`,
      lastLogin: sql<unknown>`pu.last_login`,
      roles: sql<string[]>`pu.roles`,
      _sort: q.sortKey,
      _id: q.idKey,
    })
    .from(people)
    .where(q.pageWhere)
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(people).where(q.where);
  return { rows, total: total?.n ?? 0 };
}

/** One person of the screen by e-mail address. */
export async function findPerson(db: DbOrTx, email: string): Promise<PersonRow | undefined> {
  const [row] = await db
    .select({
      email: sql<string>`pu.email`,
      name: sql<string>`pu.name`,
      status: sql<string>`pu.status`,
      lastLogin: sql<unknown>`pu.last_login`,
      roles: sql<string[]>`pu.roles`,
    })
    .from(people)
    .where(sql`pu.email = ${email.toLowerCase()}`);
  return row;
}

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

export async function findPlatformMembership(db: DbOrTx, userId: string, lock = false) {
  const query = db
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.groupId, PLATFORM_GROUP_ID), isNull(memberships.eventId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The newest unaccepted platform invite of an address (live or expired). */
export async function findOpenPlatformInvite(db: DbOrTx, email: string) {
  const [row] = await db
    .select()
    .from(invites)
    .where(and(eq(invites.email, email.toLowerCase()), eq(invites.groupId, PLATFORM_GROUP_ID), isNull(invites.acceptedAt)))
    .orderBy(desc(invites.createdAt))
    .limit(1);
  return row;
}

/**
 * Whether the account's newest sign-up code was issued for an open platform invite of this address,
 * that is, the person signed up through the invite's link (which only that mailbox received).
 */
export async function signedUpThroughPlatformInvite(db: DbOrTx, userId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ groupId: invites.groupId, email: invites.email, acceptedAt: invites.acceptedAt })
    .from(verificationCodes)
    .leftJoin(invites, eq(invites.id, verificationCodes.inviteId))
    .where(and(eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, 'signup')))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return !!row && row.groupId === PLATFORM_GROUP_ID && row.email === email.toLowerCase() && row.acceptedAt === null;
}

export async function insertMembership(db: DbOrTx, values: typeof memberships.$inferInsert) {
  await db.insert(memberships).values(values);
}

export async function setMembershipRoles(db: DbOrTx, membershipId: string, roles: string[]) {
  await db.update(memberships).set({ roles }).where(eq(memberships.id, membershipId));
}

export async function deleteMembership(db: DbOrTx, membershipId: string) {
  await db.delete(memberships).where(eq(memberships.id, membershipId));
}

export async function setInviteRoles(db: DbOrTx, inviteId: string, roles: string[]) {
  await db.update(invites).set({ roles }).where(eq(invites.id, inviteId));
}

/** Accepts every open platform invite of the address (the one verified and any older ones). */
export async function acceptPlatformInvites(db: DbOrTx, email: string) {
  await db
    .update(invites)
    .set({ acceptedAt: new Date() })
    .where(and(eq(invites.email, email.toLowerCase()), eq(invites.groupId, PLATFORM_GROUP_ID), isNull(invites.acceptedAt)));
}

/** Withdraws the address's open platform invites; returns how many there were. */
export async function deleteOpenPlatformInvites(db: DbOrTx, email: string): Promise<number> {
  const rows = await db
    .delete(invites)
    .where(and(eq(invites.email, email.toLowerCase()), eq(invites.groupId, PLATFORM_GROUP_ID), isNull(invites.acceptedAt)))
    .returning({ id: invites.id });
  return rows.length;
}

export async function updateUser(db: DbOrTx, id: string, values: Partial<typeof users.$inferInsert>) {
  await db.update(users).set({ ...values, updatedAt: new Date() }).where(eq(users.id, id));
}

