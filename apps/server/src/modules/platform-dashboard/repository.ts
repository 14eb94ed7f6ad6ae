import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, orders, tenants } from '../../db/schema/index.js';
import { channelFigures, dashboardFigures } from '../reports/repository.js';
import { PAID } from '../reports/report-source.js';

/**
 * Platform-wide sales, with the one definition of each figure (docs/reports.md). Orders of deleted
 * tenants still count: deleting a tenant keeps its sales history (spec: accounts §4).
 */
export async function salesTotals(db: DbOrTx) {
  const [figures, [buyers]] = await Promise.all([
    dashboardFigures(db, { platform: true }),
    db.select({ attendees: sql<string>`count(distinct lower(${orders.email})) filter (where ${orders.email} <> '')` }).from(orders).where(sql`${orders.status} in ${PAID}`),
  ]);
  return { ...figures, attendees: Number(buyers?.attendees ?? 0) };
}

export async function liveTenantCount(db: DbOrTx) {
  const [row] = await db.select({ n: count() }).from(tenants).where(isNull(tenants.deletedAt));
  return row?.n ?? 0;
}

/** Published events of tenants that still exist. */
export async function publishedEventCount(db: DbOrTx) {
  const [row] = await db
    .select({ n: count() })
    .from(events)
    .innerJoin(tenants, eq(tenants.id, events.tenantId))
    .where(and(eq(events.status, 'published'), isNull(tenants.deletedAt)));
  return row?.n ?? 0;
}

/** Sales by channel across every tenant (deleted ones included, as the figures above). */
export async function channelTotals(db: DbOrTx) {
  return channelFigures(db, { platform: true });
}
