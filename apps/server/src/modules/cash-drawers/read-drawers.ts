import type { TCashDrawer, TCashDrawerDetail, TCashDrawerList, TCurrentDrawer } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import { canSeeAll } from './access.js';
import * as repo from './repository.js';

// The drawers' reads (issue 23 part B): one's own open drawer, a drawer's detail, the tenant's list.

export function drawerDetails(r: repo.DrawerWithSums): TCashDrawer['details'] {
  const d = r.drawer;
  const open = d.closedAt === null;
  return {
    status: open ? 'open' : 'closed',
    userId: d.userId,
    staffName: d.staffName,
    staffEmail: d.staffEmail,
    openedAt: d.openedAt.toISOString(),
    closedAt: d.closedAt?.toISOString() ?? null,
    openingFloat: d.openingFloat,
    cashSales: r.cashSales,
    cashRefunds: r.cashRefunds,
    // While open, what should be there now; once closed, what was expected at the close (frozen).
    expectedCash: d.expectedCash ?? d.openingFloat + r.cashSales - r.cashRefunds,
    countedAmount: d.countedAmount,
    difference: d.difference,
    note: d.note,
    salesCount: r.salesCount,
    refundsCount: r.refundsCount,
  };
}

async function withMovements(deps: Deps, tenantId: string, r: repo.DrawerWithSums): Promise<TCashDrawerDetail> {
  const movements = await repo.movementsOf(deps.db, tenantId, r.drawer.id);
  return {
    id: r.drawer.id,
    details: {
      ...drawerDetails(r),
      movements: movements.map((m) => ({
        id: m.movement.id,
        kind: m.movement.kind as 'sale' | 'refund',
        orderId: m.movement.orderId,
        orderUID: m.orderUid,
        amount: m.movement.amount,
        createdAt: m.movement.createdAt.toISOString(),
      })),
    },
  };
}

/** The caller's own open drawer, with its movements, or null. */
export async function currentDrawer({ deps, ctx }: { deps: Deps; ctx: TenantCtx }): Promise<TCurrentDrawer> {
  const r = await repo.findOpenDrawerOf(deps.db, ctx.tenantId, ctx.user.id);
  return { drawer: r ? await withMovements(deps, ctx.tenantId, r) : null };
}

/** One drawer: its owner, or whoever sees every drawer; anyone else (and another tenant's drawer): 404. */
export async function getDrawer({ deps, ctx, drawerId }: { deps: Deps; ctx: TenantCtx; drawerId: string }): Promise<TCashDrawerDetail> {
  if (!UUID_RE.test(drawerId)) throw notFound();
  const r = await repo.findDrawer(deps.db, ctx.tenantId, drawerId);
  if (!r || (r.drawer.userId !== ctx.user.id && !canSeeAll(ctx))) throw notFound();
  return withMovements(deps, ctx.tenantId, r);
}

/** Every drawer of the tenant (its admins): filters on status, staff, opening date, difference. */
export async function listDrawers({ deps, ctx, query }: { deps: Deps; ctx: TenantCtx; query: unknown }): Promise<TCashDrawerList> {
  const q = compileList(repo.DRAWER_LIST, query);
  const { rows, total } = await repo.listDrawers(deps.db, ctx.tenantId, q);
  return q.page(rows, total, (r) => ({ id: r.drawer.id, details: drawerDetails(r) }));
}
