import type { TOrderDetail } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { detailOf } from './order-detail.js';
import { findOrder } from './order-facts.js';

/** GET …/events/:eventId/orders/:orderUID: the order page (spec §2 Order detail page, §3 Order). */
export async function getOrderDetail(opts: { deps: Deps; ctx: TenantCtx; eventId: string; orderUid: string }): Promise<TOrderDetail> {
  return detailOf(opts.deps.db, await findOrder(opts.deps.db, opts.ctx, opts.eventId, opts.orderUid));
}
