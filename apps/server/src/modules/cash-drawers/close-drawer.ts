import { M, type TCashDrawerDetail } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { DomainError, forbidden, notFound } from '../../platform/errors.js';
import { canSeeAll } from './access.js';
import { getDrawer } from './read-drawers.js';
import * as repo from './repository.js';

/**
 * The staff member closes their drawer with what they counted: under the drawer's row lock (a cash
 * sale or refund in flight either committed before and is counted, or waits and then finds the
 * drawer closed and is refused), expected = float + cash sales - cash refunds is frozen beside the
 * counted amount and their difference. Only its owner closes it; an admin who can see it is told so
 * (403), anyone else gets 404.
 */
export async function closeDrawer({
  deps,
  ctx,
  drawerId,
  countedAmount,
  note,
}: {
  deps: Deps;
  ctx: TenantCtx;
  drawerId: string;
  countedAmount: number;
  note: string;
}): Promise<TCashDrawerDetail> {
  if (!UUID_RE.test(drawerId)) throw notFound();
  await deps.db.transaction(async (tx) => {
    const drawer = await repo.lockDrawer(tx, ctx.tenantId, drawerId);
    if (!drawer) throw notFound();
    if (drawer.userId !== ctx.user.id) throw canSeeAll(ctx) ? forbidden(M.drawerNotYours) : notFound();
    if (drawer.closedAt) throw new DomainError('DRAWER_CLOSED', M.drawerClosed);
    const expectedCash = drawer.openingFloat + (await repo.cashMovedIn(tx, ctx.tenantId, drawerId));
    await repo.closeDrawer(tx, { tenantId: ctx.tenantId, drawerId, expectedCash, countedAmount, note, at: new Date() });
  });
  return getDrawer({ deps, ctx, drawerId });
}
