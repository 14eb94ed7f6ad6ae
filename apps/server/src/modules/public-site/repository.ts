import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { tenants } from '../../db/schema/index.js';

/** The live tenant whose host label this is (outside /api the guard does not resolve it). */
export async function findTenantIdByUrl(db: DbOrTx, url: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: tenants.id })
    .from(tenants)
    .where(and(eq(tenants.url, url), isNull(tenants.deletedAt)));
  return row?.id;
}
