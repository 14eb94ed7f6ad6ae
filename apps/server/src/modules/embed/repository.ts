import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { embedOrigins } from '../../db/schema/index.js';

/** The tenant's allowed websites, in the order they were added. */
export async function listOrigins(db: DbOrTx, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ origin: embedOrigins.origin })
    .from(embedOrigins)
    .where(eq(embedOrigins.tenantId, tenantId))
    .orderBy(asc(embedOrigins.createdAt), asc(embedOrigins.origin));
  return rows.map((r) => r.origin);
}

/** Replaces the tenant's list with `origins` (in one transaction, the caller's). */
export async function replaceOrigins(tx: DbOrTx, tenantId: string, origins: readonly string[]): Promise<void> {
  await tx.delete(embedOrigins).where(eq(embedOrigins.tenantId, tenantId));
  if (!origins.length) return;
  const now = Date.now();
  // One millisecond apart, so that the list reads back in the order it was given.
  await tx.insert(embedOrigins).values(origins.map((origin, i) => ({ tenantId, origin, createdAt: new Date(now + i) })));
}
