import { randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_RE, type ApiKeyScope } from '@marquee/core';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { apiKeys, users } from '../../db/schema/index.js';
import { sha256 } from './tokens.js';

// Issue 25: API keys. The wire form is `mq_<prefix>_<secret>`: 12 random characters that find the
// key (unique index) and a 256-bit random secret, of which only the SHA-256 is kept and compared in
// constant time. A slow hash (argon2) buys nothing for a secret with 256 bits of entropy and would
// cost every API call tens of milliseconds.

const PREFIX_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export function newApiKeySecret(): { key: string; prefix: string; secretHash: string } {
  const bytes = randomBytes(12);
  let prefix = '';
  for (const b of bytes) prefix += PREFIX_ALPHABET[b % PREFIX_ALPHABET.length];
  const secret = randomBytes(32).toString('base64url');
  return { key: `mq_${prefix}_${secret}`, prefix, secretHash: sha256(secret) };
}

/** The principal a valid key stands for: the key, and the user who created it (it acts as them). */
export type ApiKeyPrincipal = {
  id: string;
  name: string;
  /** null for a platform key. */
  tenantId: string | null;
  scopes: ApiKeyScope[];
  user: { id: string; email: string; status: string; firstName: string; lastName: string };
};

/** How often a key's last use is written: at most once a minute, as sessions' last-seen. */
const LAST_USED_PRECISION_MS = 60_000;

/**
 * The live key a bearer token names (not revoked, not expired, its creator still active), or null.
 * Touches its last use when that is more than a minute old.
 */
export async function findApiKey(db: DbOrTx, bearer: string): Promise<ApiKeyPrincipal | null> {
  const m = API_KEY_RE.exec(bearer);
  if (!m) return null;
  const [, prefix, secret] = m;
  const [row] = await db
    .select({ key: apiKeys, user: { id: users.id, email: users.email, status: users.status, firstName: users.firstName, lastName: users.lastName } })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.createdBy))
    .where(eq(apiKeys.prefix, prefix!));
  if (!row) return null;
  const given = Buffer.from(sha256(secret!), 'hex');
  const stored = Buffer.from(row.key.secretHash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
  const now = Date.now();
  if (row.key.revokedAt || (row.key.expiresAt && row.key.expiresAt.getTime() <= now) || row.user.status !== 'ACTIVE') return null;
  if (!row.key.lastUsedAt || now - row.key.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
    // Conditional, so that nodes and concurrent requests write it once a minute at most.
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.id, row.key.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))));
  }
  return { id: row.key.id, name: row.key.name, tenantId: row.key.tenantId, scopes: row.key.scopes as ApiKeyScope[], user: row.user };
}

/** The token of an `Authorization: Bearer <token>` header, or null when there is none. */
export function bearerOf(header: string | undefined): string | null {
  // Issue 28: Apple Wallet's pass web service authorises with its own scheme (modules/fulfilment/apple-pass-auth.ts).
  if (!header || /^ApplePass\s/.test(header)) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : '';
}
