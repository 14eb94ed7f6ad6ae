import { M } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { conflict, notFound } from '../../platform/errors.js';
import { deleteCoverCrops } from './cover-image.js';
import * as repo from './repository.js';

/**
 * An event with orders is cancelled, not deleted (409). The orders are counted under the locks PLACE
 * ORDER's hold takes, so a racing order is either counted here or refused as not on sale, never left
 * without its event (docs/decisions.md "Deleting an event while someone buys").
 */
export async function deleteEvent({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }) {
  const current = await deps.db.transaction(async (tx) => {
    const row = await repo.lockEventForDelete(tx, ctx.tenantId, eventId);
    if (!row) throw notFound();
    if ((await repo.countOrders(tx, ctx.tenantId, eventId)) > 0) throw conflict(M.eventHasOrders);
    await repo.deleteEvent(tx, ctx.tenantId, eventId);
    return row;
  });
  if (current.seatmapKey) await deps.storage.delete(current.seatmapKey);
  if (current.coverImageId) await deleteCoverCrops(deps.storage, { tenantId: ctx.tenantId, eventId, coverImageId: current.coverImageId });
  return { success: true as const };
}
