import { CANCEL_REFUND_MAX_TRIES, type TCancellationProgress, type TCancellationRefund } from '@marquee/core';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { cancellationCounts, type CancellationStateRow } from './cancellation-repository.js';
import * as repo from './repository.js';

// Cancelling an event refunds its paid orders and tells every buyer. The event only asks for it:
// it queues CANCEL_EVENT_JOB in the transaction that cancels it, and modules/order-admin, which
// registers the job's handler, does the refunds and the notices. The job's name lives here, where
// both can see it, so the event never imports the order pages. The progress of the refunds is read
// here, for the event page.

/** The job's kind (its name predates this file; jobs already queued keep running). */
export const CANCEL_EVENT_JOB = 'order-admin.cancel-event';
/** `message`: the organiser's words to the buyers, put in every cancellation notice (issue 21.9). */
export type CancelEventJob = { tenantId: string; eventId: string; userId: string | null; message?: string };

/** The orders whose refund failed that the progress lists. */
const PROBLEMS_SHOWN = 50;

/** Queued in the transaction that cancels the event (service.ts changeEventStatus). */
export async function enqueueEventCancellation(deps: Deps, tx: DbOrTx, job: CancelEventJob) {
  await deps.jobs.enqueue(tx, CANCEL_EVENT_JOB, job, { dedupeKey: `cancel-event:${job.eventId}` });
}

export const toCancellationRefund = (row: CancellationStateRow): TCancellationRefund => ({
  state: row.state,
  amount: row.amount,
  tries: row.tries,
  maxTries: CANCEL_REFUND_MAX_TRIES,
  nextTryAt: row.nextTryAt?.toISOString() ?? null,
  failureReason: row.failureReason,
});

/** How the cancelled event's refunds stand (the event page, and GET …/events/:eventId/cancellation). */
export async function getCancellationProgress(opts: { deps: Deps; tenantId: string; eventId: string }): Promise<TCancellationProgress> {
  const { deps, tenantId, eventId } = opts;
  const status = (await repo.findEvent(deps.db, tenantId, eventId))?.status ?? null;
  const c = await cancellationCounts(deps.db, tenantId, eventId, CANCEL_REFUND_MAX_TRIES, PROBLEMS_SHOWN);
  const problems = c.problems.map((p) => ({ ...toCancellationRefund(p), orderUID: p.orderUid, state: p.state as 'failed' | 'retrying' }));
  const running = c.pending + c.retrying > 0;
  return { ...c, problems, status: status !== 'cancelled' ? 'none' : running ? 'running' : 'done' };
}
