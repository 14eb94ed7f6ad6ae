import type { TCreateOrderResponse, ZCreateOrderRequest } from '@marquee/core';
import type { z } from 'zod';
import { publicOrigin } from '../../config.js';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import { createOrder } from './place-order.js';
import { findTenantForApp } from './repository.js';

/**
 * Issue 25, the APP channel: an app holding a key with the `orders:write` scope places an order on
 * behalf of a buyer. It is PLACE ORDER itself (the same checks, hold, price and payment page), sold
 * on channel APP and so priced with the tenant's APP pass-along option. The buyer pays on the
 * payment page the answer's `message` names (docs/api.md has the walk-through). The waiting room
 * guards the public site; an app's orders are limited per key instead.
 */
export async function placeAppOrder(opts: { deps: Deps; ctx: TenantCtx; eventId: string; input: z.output<typeof ZCreateOrderRequest> }): Promise<TCreateOrderResponse> {
  const { deps, ctx } = opts;
  const tenant = await findTenantForApp(deps.db, ctx.tenantId);
  if (!tenant) throw notFound();
  const host = new URL(publicOrigin(deps.config, tenant.url)).host;
  return createOrder({ deps, site: { tenant, user: null }, host, eventId: opts.eventId, input: opts.input, channel: 'APP' });
}
