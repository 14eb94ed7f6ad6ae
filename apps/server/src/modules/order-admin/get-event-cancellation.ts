import type { TCancellationProgress } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { getCancellationProgress } from '../events/cancellation.js';
import * as repo from './repository.js';

/**
 * The refunds of a cancelled event (issue 21.9, 21.13): the orders it refunds by state, what it
 * gives back (what was still held), what it gave back, and the orders whose refund failed. For an
 * event that is not cancelled, the same figures say what cancelling it now would do.
 */
/** GET …/events/:eventId/cancellation. */
export async function getEventCancellation(opts: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TCancellationProgress> {
  if (!UUID_RE.test(opts.eventId) || !(await repo.findEventStatus(opts.deps.db, opts.ctx.tenantId, opts.eventId))) throw notFound();
  return getCancellationProgress({ deps: opts.deps, tenantId: opts.ctx.tenantId, eventId: opts.eventId });
}
