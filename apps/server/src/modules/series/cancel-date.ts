import type { TSeries } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import { changeEventStatus } from '../events/change-event-status.js';
import { getSeries } from './get-series.js';
import * as repo from './repository.js';

/**
 * Cancels one date: the event's own cancellation, which refunds and mails that date's buyers only
 * (order-admin's jobs, per event); the other dates are untouched.
 */
export async function cancelSeriesDate({ deps, ctx, seriesId, eventId, message }: { deps: Deps; ctx: TenantCtx; seriesId: string; eventId: string; message?: string }): Promise<TSeries> {
  if (!(await repo.findDate(deps.db, ctx.tenantId, seriesId, eventId))) throw notFound();
  await changeEventStatus({ deps, ctx, eventId, action: 'cancel', ...(message ? { message } : {}) });
  return getSeries({ deps, ctx, seriesId });
}
