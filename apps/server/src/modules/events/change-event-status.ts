import { type EventStatus, M, type TEvent } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { emitDomainEvent } from '../../platform/domain-events.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { AppError, conflict } from '../../platform/errors.js';
import { enqueueEventCancellation } from './cancellation.js';
import { findOrThrow, toEvent, withCancellation } from './event-view.js';
import { getEvent } from './get-event.js';
import * as repo from './repository.js';
import { assertWritable } from './writable.js';

const TRANSITIONS: Record<'publish' | 'unpublish' | 'cancel', { from: EventStatus[]; to: EventStatus }> = {
  publish: { from: ['draft'], to: 'published' },
  unpublish: { from: ['published'], to: 'draft' },
  cancel: { from: ['draft', 'published'], to: 'cancelled' },
};

/** draft -> published -> draft; either -> cancelled, which is final. Repeating a transition is a no-op. */
export async function changeEventStatus({
  deps,
  ctx,
  eventId,
  action,
  message,
}: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  action: keyof typeof TRANSITIONS;
  /** Cancel only: the organiser's message to the buyers, put in their notices (issue 21.9). */
  message?: string;
}): Promise<TEvent> {
  const current = await findOrThrow(deps.db, ctx.tenantId, eventId);
  const { from, to } = TRANSITIONS[action];
  if (current.status === to) return toEvent(current);
  assertWritable(current);
  if (action === 'publish') {
    if (!current.startDateTime) throw new AppError('CONFLICT', M.publishNeedsStart, { 'details.startDateTime': M.publishNeedsStart });
    if ((await repo.countTicketTypes(deps.db, ctx.tenantId, eventId)) === 0) throw conflict(M.publishNeedsTickets);
  }
  // Cancelling refunds every paid order, as jobs queued with the change (docs/decisions.md
  // "Cancelling an event refunds its orders").
  const row = await deps.db.transaction(async (tx) => {
    const changed = await repo.transitionEvent(tx, ctx.tenantId, eventId, from, to);
    if (changed && to === 'cancelled') await enqueueEventCancellation(deps, tx, { tenantId: ctx.tenantId, eventId, userId: ctx.user.id, ...(message ? { message } : {}) });
    if (changed && (to === 'published' || to === 'cancelled')) {
      const event = { id: changed.id, name: changed.name, urlName: changed.urlName, startDateTime: changed.startDateTime?.toISOString() ?? null };
      await emitDomainEvent(deps, tx, { tenantId: ctx.tenantId, type: to === 'published' ? 'event.published' : 'event.cancelled', data: { event } });
    }
    return changed;
  });
  if (!row) return getEvent({ deps, ctx, eventId });
  return withCancellation(deps, toEvent(row));
}
