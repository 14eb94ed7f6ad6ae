import { and, asc, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { cashDrawerMovements, cashDrawers, orders } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

// SQL of the cash drawers (issue 23 part B). Every query names the tenant.

export type DrawerRow = typeof cashDrawers.$inferSelect;

// The table is named in full: in a one-table select drizzle writes a column unqualified, which
// inside the subquery would name the movement's own column.
/** Sums of a drawer's movements: cash sales in, cash refunds out (positive), and how many of each. */
const salesSum = sql<number>`coalesce((select sum(m.amount) from cash_drawer_movements m where m.tenant_id = cash_drawers.tenant_id and m.drawer_id = cash_drawers.id and m.kind = 'sale'), 0)::int`;
const refundsSum = sql<number>`coalesce((select -sum(m.amount) from cash_drawer_movements m where m.tenant_id = cash_drawers.tenant_id and m.drawer_id = cash_drawers.id and m.kind = 'refund'), 0)::int`;
const salesCount = sql<number>`(select count(*) from cash_drawer_movements m where m.tenant_id = cash_drawers.tenant_id and m.drawer_id = cash_drawers.id and m.kind = 'sale')::int`;
const refundsCount = sql<number>`(select count(*) from cash_drawer_movements m where m.tenant_id = cash_drawers.tenant_id and m.drawer_id = cash_drawers.id and m.kind = 'refund')::int`;
const statusExpr = sql<string>`(case when ${cashDrawers.closedAt} is null then 'open' else 'closed' end)`;

const drawerColumns = { drawer: cashDrawers, cashSales: salesSum, cashRefunds: refundsSum, salesCount, refundsCount };
export type DrawerWithSums = { drawer: DrawerRow; cashSales: number; cashRefunds: number; salesCount: number; refundsCount: number };

/** The tenant admin's list of drawers: filters on status, staff, and the opening date. */
export const DRAWER_LIST: ListSpec = {
  fields: {
    'details.status': { expr: statusExpr, type: 'text' },
    'details.staffEmail': { expr: cashDrawers.staffEmail, type: 'text', match: 'contains' },
    'details.staffName': { expr: cashDrawers.staffName, type: 'text', match: 'contains' },
    'details.userId': { expr: sql`${cashDrawers.userId}::text`, type: 'text' },
    'details.openedAt': { expr: cashDrawers.openedAt, type: 'timestamp' },
    'details.difference': { expr: sql`coalesce(${cashDrawers.difference}, 0)`, type: 'number' },
  },
  id: cashDrawers.id,
  defaultSort: '-details.openedAt',
};

export async function listDrawers(db: DbOrTx, tenantId: string, q: CompiledList) {
  const scope = eq(cashDrawers.tenantId, tenantId);
  const rows = await db
    .select({ ...drawerColumns, _sort: q.sortKey, _id: q.idKey })
    .from(cashDrawers)
    .where(and(scope, q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(cashDrawers).where(and(scope, q.where));
  return { rows: rows as Array<DrawerWithSums & { _sort: unknown; _id: unknown }>, total: total?.n ?? 0 };
}

/** Every drawer of the tenant, newest first, for the CSV (a tenant has a few a day). */
export async function allDrawers(db: DbOrTx, tenantId: string, where?: SQL): Promise<DrawerWithSums[]> {
  return db
    .select(drawerColumns)
    .from(cashDrawers)
    .where(and(eq(cashDrawers.tenantId, tenantId), where))
    .orderBy(desc(cashDrawers.openedAt), desc(cashDrawers.id));
}

export async function findDrawer(db: DbOrTx, tenantId: string, drawerId: string): Promise<DrawerWithSums | undefined> {
  const [row] = await db
    .select(drawerColumns)
    .from(cashDrawers)
    .where(and(eq(cashDrawers.tenantId, tenantId), eq(cashDrawers.id, drawerId)));
  return row;
}

export async function findOpenDrawerOf(db: DbOrTx, tenantId: string, userId: string): Promise<DrawerWithSums | undefined> {
  const [row] = await db
    .select(drawerColumns)
    .from(cashDrawers)
    .where(and(eq(cashDrawers.tenantId, tenantId), eq(cashDrawers.userId, userId), isNull(cashDrawers.closedAt)));
  return row;
}

export async function movementsOf(db: DbOrTx, tenantId: string, drawerId: string) {
  return db
    .select({ movement: cashDrawerMovements, orderUid: sql<string>`coalesce(${orders.orderUid}, '')` })
    .from(cashDrawerMovements)
    .leftJoin(orders, and(eq(orders.tenantId, cashDrawerMovements.tenantId), eq(orders.id, cashDrawerMovements.orderId)))
    .where(and(eq(cashDrawerMovements.tenantId, tenantId), eq(cashDrawerMovements.drawerId, drawerId)))
    .orderBy(asc(cashDrawerMovements.createdAt), asc(cashDrawerMovements.id));
}

/** Opens a drawer; false when the person already has an open one (the partial unique index). */
export async function insertDrawer(tx: Tx, row: typeof cashDrawers.$inferInsert): Promise<boolean> {
  const inserted = await tx.insert(cashDrawers).values(row).onConflictDoNothing().returning({ id: cashDrawers.id });
  return inserted.length === 1;
}

/** The drawer's row lock: a sale, a refund and the close of one drawer take it, so a closed drawer never changes. */
export async function lockDrawer(tx: Tx, tenantId: string, drawerId: string): Promise<DrawerRow | undefined> {
  const [row] = await tx.select().from(cashDrawers).where(and(eq(cashDrawers.tenantId, tenantId), eq(cashDrawers.id, drawerId))).for('update');
  return row;
}

export async function lockOpenDrawerOf(tx: Tx, tenantId: string, userId: string): Promise<DrawerRow | undefined> {
  const [row] = await tx
    .select()
    .from(cashDrawers)
    .where(and(eq(cashDrawers.tenantId, tenantId), eq(cashDrawers.userId, userId), isNull(cashDrawers.closedAt)))
    .for('update');
  return row;
}

/**
 * The person's open drawer, locked, and one movement into it, in one statement: the drawer's id, or
 * undefined (nothing written) when they have no open drawer. A movement of 0 is not written.
 */
type DrawerMove = { tenantId: string; userId: string; id: string; kind: 'sale' | 'refund'; orderId: string; refundId: null | string; amount: number };

/**
 * The two CTEs `d` (the person's open drawer, locked) and `m` (the movement into it; none of 0), for
 * a statement of its own (below) or the head of another one (the box office's take, issue 23 box).
 */
export function drawerMoveCtes(p: DrawerMove): SQL {
  return sql`d as (
      select id from ${cashDrawers}
      where tenant_id = ${p.tenantId}::uuid and user_id = ${p.userId}::uuid and closed_at is null
      for update),
    m as (
      insert into ${cashDrawerMovements} (tenant_id, id, drawer_id, kind, order_id, refund_id, amount)
      select ${p.tenantId}::uuid, ${p.id}::uuid, d.id, ${p.kind}, ${p.orderId}::uuid, ${p.refundId}::uuid, ${p.amount}::int
      from d where ${p.amount}::int <> 0
      returning 1)`;
}

/** One sale's cash into its seller's open drawer, as drawersMoveCtes takes it. */
export type SaleCashMove = { userId: string; id: string; orderId: string; amount: number };

/**
 * drawerMoveCtes for several box-office cash sales of one batch (issue 23 bo4): `mv` the moves,
 * `d` the sellers' open drawers locked in id order (the lock order among drawers, kind 2a), and `m`
 * each sale's movement into its seller's drawer (none of 0). A move whose seller has no open drawer
 * has no row of `d` (the caller refuses the batch then).
 */
export function drawersMoveCtes(tenantId: string, moves: SaleCashMove[]): SQL {
  const rows = JSON.stringify(moves.map((x) => ({ user_id: x.userId, id: x.id, order_id: x.orderId, amount: x.amount })));
  return sql`mv as (
      select * from jsonb_to_recordset(${rows}::jsonb) as x(user_id uuid, id uuid, order_id uuid, amount int)),
    d as (
      select id, user_id from ${cashDrawers}
      where tenant_id = ${tenantId}::uuid and closed_at is null and user_id in (select user_id from mv)
      order by id
      for update),
    m as (
      insert into ${cashDrawerMovements} (tenant_id, id, drawer_id, kind, order_id, refund_id, amount)
      select ${tenantId}::uuid, mv.id, d.id, 'sale', mv.order_id, null, mv.amount
      from mv join d on d.user_id = mv.user_id where mv.amount <> 0
      returning 1)`;
}

export async function lockOpenDrawerAndMove(tx: Tx, p: DrawerMove): Promise<string | undefined> {
  const res = (await tx.execute(sql`
    with ${drawerMoveCtes(p)}
    select id, (select count(*) from m)::int as moved from d`)) as unknown as { rows: Array<{ id: string }> };
  return res.rows[0]?.id;
}

/** What is in the drawer by its movements: float + sales - refunds (read under the drawer's lock). */
export async function cashMovedIn(tx: Tx, tenantId: string, drawerId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${cashDrawerMovements.amount}), 0)::int` })
    .from(cashDrawerMovements)
    .where(and(eq(cashDrawerMovements.tenantId, tenantId), eq(cashDrawerMovements.drawerId, drawerId)));
  return row?.n ?? 0;
}

export async function closeDrawer(tx: Tx, p: { tenantId: string; drawerId: string; expectedCash: number; countedAmount: number; note: string; at: Date }) {
  await tx
    .update(cashDrawers)
    .set({ closedAt: p.at, expectedCash: p.expectedCash, countedAmount: p.countedAmount, difference: p.countedAmount - p.expectedCash, note: p.note })
    .where(and(eq(cashDrawers.tenantId, p.tenantId), eq(cashDrawers.id, p.drawerId), isNull(cashDrawers.closedAt)));
}

export async function insertMovement(tx: Tx, row: typeof cashDrawerMovements.$inferInsert) {
  await tx.insert(cashDrawerMovements).values(row);
}
