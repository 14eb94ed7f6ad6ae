import { and, count, eq, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { invites, memberships, users } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

const inviteUser = alias(users, 'invite_user');
const member = alias(memberships, 'member');
const memberUser = alias(users, 'member_user');

/**
 * Everyone on a tenant's Staff page: its tenant-wide members (memberships without an event; their
 * account's status) and the people with an open tenant-wide invite who are not members yet
 * (PENDING while the invite is live, EXPIRED after), one row per address. A member's id is their
 * user id, an invitee's the id of their newest open invite. Event-only staff are not listed.
 * With `eventId`, the same for that one event: its event staff and the open invites to it (the
 * event's Staff tab, issue 21.14).
 */
function staffOf(tenantId: string, eventId: string | null = null) {
  const forMembership = (eventIdColumn: SQLWrapper) => (eventId ? sql`${eventIdColumn} = ${eventId}` : sql`${eventIdColumn} is null`);
  const forInvite = eventId ? sql`${invites.eventId} = ${eventId}` : sql`${invites.eventId} is null`;
  return sql`(
    select ${users.id}::text as id,
           ${users.email} as email,
           ${users.firstName} as first_name,
           ${users.lastName} as last_name,
           ${users.status} as status,
           ${memberships.roles} as roles,
           true as is_member
    from ${memberships} join ${users} on ${users.id} = ${memberships.userId}
    where ${memberships.tenantId} = ${tenantId} and ${forMembership(memberships.eventId)}
    union all
    select * from (
      select distinct on (${invites.email})
             ${invites.id}::text as id,
             ${invites.email} as email,
             coalesce(${inviteUser.firstName}, '') as first_name,
             coalesce(${inviteUser.lastName}, '') as last_name,
             case when ${invites.expiresAt} > now() then 'PENDING' else 'EXPIRED' end as status,
             ${invites.roles} as roles,
             false as is_member
      from ${invites} left join ${users} as invite_user on ${inviteUser.email} = ${invites.email}
      where ${invites.tenantId} = ${tenantId} and ${forInvite} and ${invites.acceptedAt} is null
        and not exists (
          select 1 from ${memberships} as member join ${users} as member_user on ${memberUser.id} = ${member.userId}
          where ${member.tenantId} = ${tenantId} and ${forMembership(member.eventId)} and ${memberUser.email} = ${invites.email})
      order by ${invites.email}, ${invites.createdAt} desc
    ) as open_invites
  ) as st`;
}

export const STAFF_LIST: ListSpec = {
  fields: {
    'details.email': { expr: sql`st.email`, type: 'text', match: 'contains' },
    'details.firstName': { expr: sql`st.first_name`, type: 'text', match: 'contains' },
    'details.lastName': { expr: sql`st.last_name`, type: 'text', match: 'contains' },
    'details.name': { expr: sql`trim(st.first_name || ' ' || st.last_name)`, type: 'text', match: 'contains' },
    'details.status': { expr: sql`st.status`, type: 'text' },
    // The console's one search box: name or e-mail address.
    'details.search': { expr: sql`(st.first_name || ' ' || st.last_name || ' ' || st.email)`, type: 'text', match: 'contains', sortable: false },
  },
  id: sql`st.id`,
  defaultSort: 'details.email',
};

export type StaffRow = { id: string; email: string; firstName: string; lastName: string; status: string; roles: string[]; isMember: boolean };

const columns = {
  id: sql<string>`st.id`,
  email: sql<string>`st.email`,
  firstName: sql<string>`st.first_name`,
  lastName: sql<string>`st.last_name`,
  status: sql<string>`st.status`,
  roles: sql<string[]>`st.roles`,
  isMember: sql<boolean>`st.is_member`,
};

/** The tenant's Staff page, or with `eventId` the people who work on that event. */
export async function listStaff(db: DbOrTx, tenantId: string, q: CompiledList, eventId: string | null = null) {
  const rows = await db
    .select({ ...columns, _sort: q.sortKey, _id: q.idKey })
    .from(staffOf(tenantId, eventId))
    .where(q.pageWhere)
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(staffOf(tenantId, eventId)).where(q.where);
  return { rows, total: total?.n ?? 0 };
}

/** One row of the tenant's Staff page by its id (a member's user id or an invitee's invite id). */
export async function findStaff(db: DbOrTx, tenantId: string, staffId: string): Promise<StaffRow | undefined> {
  const [row] = await db.select(columns).from(staffOf(tenantId)).where(sql`st.id = ${staffId}`);
  return row;
}

/** A user's tenant-wide membership of the tenant, locked for the change. */
export async function lockMembership(db: DbOrTx, tenantId: string, userId: string) {
  const [row] = await db
    .select({ id: memberships.id, userId: memberships.userId, roles: memberships.roles, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId), isNull(memberships.eventId)))
    .for('update', { of: memberships });
  return row;
}

export async function setMembershipRoles(db: DbOrTx, membershipId: string, roles: string[]) {
  await db.update(memberships).set({ roles }).where(eq(memberships.id, membershipId));
}

/** Every membership the user has in the tenant, tenant-wide and for its events. */
export async function deleteTenantMemberships(db: DbOrTx, tenantId: string, userId: string) {
  await db.delete(memberships).where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)));
}

/** Withdraws every open invite of the address to the tenant (tenant-wide and for its events). */
export async function deleteOpenInvites(db: DbOrTx, tenantId: string, email: string) {
  await db.delete(invites).where(and(eq(invites.tenantId, tenantId), eq(invites.email, email.toLowerCase()), isNull(invites.acceptedAt)));
}

/** Sets the roles of every open tenant-wide invite of the address, so whichever link they follow grants these. */
export async function setOpenInviteRoles(db: DbOrTx, tenantId: string, email: string, roles: string[]) {
  await db
    .update(invites)
    .set({ roles })
    .where(and(eq(invites.tenantId, tenantId), eq(invites.email, email.toLowerCase()), isNull(invites.eventId), isNull(invites.acceptedAt)));
}

export async function findUserIdByEmail(db: DbOrTx, email: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
  return row?.id;
}
