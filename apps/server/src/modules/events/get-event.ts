import type { TEvent } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { findOrThrow, toEvent, withCancellation, withSales } from './event-view.js';

export async function getEvent({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TEvent> {
  return withSales(deps, await withCancellation(deps, toEvent(await findOrThrow(deps.db, ctx.tenantId, eventId))));
}
