import type { Deps } from '../../deps.js';
import type { CancelEventJob } from '../events/cancellation.js';
import { CANCEL_ORDER_MAIL_JOB, CANCEL_ORDER_REFUND_JOB, CANCEL_REFUND_JOB_ATTEMPTS, type CancelOrderJob } from './cancel-jobs.js';
import * as repo from './repository.js';

/** Orders queued per transaction by the cancellation sweep. */
const SWEEP_PAGE = 500;

/**
 * Job order-admin.cancel-event: one refund job per paid order of the cancelled event, each with
 * its own dedupe key, so running the sweep again (a crash, a retry) queues nothing twice.
 */
export async function sweepCancelledEvent(opts: { deps: Deps; job: CancelEventJob }): Promise<number> {
  const { deps, job } = opts;
  if ((await repo.findEventStatus(deps.db, job.tenantId, job.eventId)) !== 'cancelled') return 0;
  let after: string | null = null;
  let queued = 0;
  for (;;) {
    const ids = await repo.paidOrderIds(deps.db, job.tenantId, job.eventId, after, SWEEP_PAGE);
    if (ids.length === 0) break;
    await deps.db.transaction(async (tx) => {
      for (const orderId of ids) {
        await deps.jobs.enqueue(tx, CANCEL_ORDER_REFUND_JOB, { tenantId: job.tenantId, orderId, userId: job.userId } satisfies CancelOrderJob, {
          dedupeKey: repo.cancelRefundJobKey(orderId),
          maxAttempts: CANCEL_REFUND_JOB_ATTEMPTS,
        });
      }
    });
    queued += ids.length;
    after = ids[ids.length - 1]!;
  }
  // Every buyer is told, free orders included: one notice job per order, deduped like the refunds.
  let told = 0;
  after = null;
  const message = job.message?.trim() || undefined;
  for (;;) {
    const ids = await repo.buyerOrderIds(deps.db, job.tenantId, job.eventId, after, SWEEP_PAGE);
    if (ids.length === 0) break;
    await deps.db.transaction(async (tx) => {
      for (const orderId of ids) {
        await deps.jobs.enqueue(tx, CANCEL_ORDER_MAIL_JOB, { tenantId: job.tenantId, orderId, userId: job.userId, message } satisfies CancelOrderJob, {
          dedupeKey: `cancel-mail:${orderId}`,
        });
      }
    });
    told += ids.length;
    after = ids[ids.length - 1]!;
  }
  deps.log.info({ eventId: job.eventId, orders: queued, notices: told }, 'cancelled event: refunds and notices queued');
  return queued;
}
