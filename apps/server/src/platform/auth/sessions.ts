import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
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
