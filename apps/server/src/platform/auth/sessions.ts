import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import { runPrepared, type Db, type DbOrTx } from '../../db/client.js';
import { sessions, users } from '../../db/schema/index.js';
import { newToken, sha256 } from './tokens.js';

export const SESSION_COOKIE = 'mq_session';

export type SessionPolicy = { idleMinutes: number; maxHours: number };

export async function createSession(db: DbOrTx, userId: string, host: string, policy: SessionPolicy) {
  const token = newToken();
  const csrfToken = newToken();
  const expiresAt = new Date(Date.now() + policy.maxHours * 3600_000);
  await db.insert(sessions).values({ tokenHash: sha256(token), userId, csrfToken, host, expiresAt });
  return { token, csrfToken, expiresAt };
}

/** The live session for a token: not past its absolute expiry, nor idle too long. Touches it. */
export async function findSession(db: DbOrTx, token: string, policy: SessionPolicy) {
  const tokenHash = sha256(token);
  const idleCutoff = new Date(Date.now() - policy.idleMinutes * 60_000);
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date()), gt(sessions.lastSeenAt, idleCutoff)));
  if (!row) return null;
  // Writing on every request would be wasteful; a minute's precision is enough for idle expiry.
  if (Date.now() - row.session.lastSeenAt.getTime() > 60_000) {
    await db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.tokenHash, tokenHash));
  }
  return row;
}

export type SessionMembership = { groupId: string; tenantId: string | null; eventId: string | null; roles: string[] };

export type GuardSession = {
  host: string;
  csrfToken: string;
  user: { id: string; email: string; status: string; firstName: string; lastName: string };
  memberships: SessionMembership[];
};

// The guard's read of a request's session, its user and the user's memberships in one statement,
// prepared by name: every signed-in request makes it, and each round trip to PostgreSQL costs more
// Node CPU than the rest of a door scan (bench/README.md "Door scans").
const GUARD_SESSION_SQL = `
  select s.host, s.csrf_token, s.last_seen_at < $2::timestamptz - interval '60 seconds' as stale,
    u.id, u.email, u.status, u.first_name, u.last_name,
    coalesce((select json_agg(json_build_object('groupId', m.group_id, 'tenantId', m.tenant_id, 'eventId', m.event_id, 'roles', m.roles))
              from memberships m where m.user_id = u.id), '[]'::json) as memberships
  from sessions s join users u on u.id = s.user_id
  where s.token_hash = $1 and s.expires_at > $2::timestamptz and s.last_seen_at > $3::timestamptz`;

/**
 * findSession as the guard needs it (the live session for a token, touched at most once a minute),
 * with the user's memberships read in the same statement.
 */
export async function findGuardSession(db: Db, token: string, policy: SessionPolicy): Promise<GuardSession | null> {
  const { tokenHash, now, idleCutoff } = guardSessionKeys(token, policy);
  const [row] = await runPrepared(db, 'mq_guard_session', GUARD_SESSION_SQL, [tokenHash, now, idleCutoff]);
  if (!row) return null;
  await touchIfStale(db, tokenHash, row.stale);
  return guardSessionOf(row);
}

/** What GUARD_SESSION_SQL (and its copy in a route's own statement, guard.ts guardSessionCtes) asks by. */
export function guardSessionKeys(token: string, policy: SessionPolicy): { tokenHash: string; now: string; idleCutoff: string } {
  const now = Date.now();
  return { tokenHash: sha256(token), now: new Date(now).toISOString(), idleCutoff: new Date(now - policy.idleMinutes * 60_000).toISOString() };
}

/** Idle expiry: the session is touched at most once a minute (`stale`: its last touch is older). */
export async function touchIfStale(db: Db, tokenHash: string, stale: unknown): Promise<void> {
  if (stale === true || stale === 't') await db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.tokenHash, tokenHash));
}

/** A row of GUARD_SESSION_SQL's columns (in a route's own statement, each prefixed with `prefix`) as the guard's session. */
export function guardSessionOf(row: Record<string, unknown>, prefix = ''): GuardSession {
  const col = (name: string) => row[prefix + name];
  const raw = col('memberships');
  const memberships = (typeof raw === 'string' ? JSON.parse(raw) : raw) as SessionMembership[];
  return {
    host: col('host') as string,
    csrfToken: col('csrf_token') as string,
    user: { id: col('id') as string, email: col('email') as string, status: col('status') as string, firstName: col('first_name') as string, lastName: col('last_name') as string },
    memberships,
  };
}

export async function deleteSession(db: DbOrTx, token: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, sha256(token)));
}

export async function deleteUserSessions(db: DbOrTx, userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Ends every session bound to a host name, whatever port it was reached on (a tenant's old host). */
export async function deleteHostSessions(db: DbOrTx, hostname: string) {
  await db.delete(sessions).where(sql`lower(split_part(${sessions.host}, ':', 1)) = ${hostname.toLowerCase()}`);
}

export async function pruneSessions(db: DbOrTx, policy: SessionPolicy) {
  const idleCutoff = new Date(Date.now() - policy.idleMinutes * 60_000);
  await db.delete(sessions).where(or(lt(sessions.expiresAt, sql`now()`), lt(sessions.lastSeenAt, idleCutoff)));
}
