import { CANCEL_REFUND_MAX_TRIES, CANCEL_REFUND_RETRY_MINUTES } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { recordAudit, SYSTEM_ACTOR } from '../../platform/audit.js';
import { BOX_OFFICE_PROVIDER } from '../orders/payment.js';
import { lockTenantOrder } from '../orders/repository.js';
import { processRefund, recordRefund } from '../payments/refunds.js';
import { CANCEL_ORDER_REFUND_JOB, CANCEL_REFUND_JOB_ATTEMPTS, EVENT_CANCELLED_REASON, type CancelOrderJob } from './cancel-jobs.js';
import { isRefundable } from './order-facts.js';
import * as repo from './repository.js';

/**
 * Job order-admin.cancel-refund: refunds what is left of one paid order of a cancelled event and
 * voids its tickets. A re-run finds the refund it wrote (pending: asked again with the same
 * idempotency key; settled: nothing to do), so an order is never refunded twice. A try that fails
 * is followed by a retry job after core CANCEL_REFUND_RETRY_MINUTES (issue 21.13): the retry, and
 * only the retry queued for that failure, writes a new refund for what is still held, under the
 * order's lock, so a refund given from the order page meanwhile is never given twice.
 * A box-office order paid in cash or on the venue's terminal (issue 23) cannot go back through the
 * gateway: its refund is written the same way but stays pending, owed at the box office (provider
 * box_office, no gateway asked), until staff settle it (settle-box-office-refund.ts).
 */
export async function refundCancelledOrder(opts: { deps: Deps; job: CancelOrderJob }): Promise<repo.RefundRow | null> {
  const { deps, job } = opts;
  const written = await deps.db.transaction(async (tx) => {
    const order = await lockTenantOrder(tx, job.tenantId, job.orderId);
    if (!order || !isRefundable(order)) return null;
    const mine = (await repo.refundsOf(tx, job.tenantId, order.id)).map((r) => r.refund).filter((r) => r.kind === 'event_cancelled');
    const latest = mine[0];
    const failures = mine.filter((r) => r.status === 'failed').length;
    if (latest && latest.status !== 'failed') return latest;
    // A failed try is tried again only by the retry queued for it, and not past the last try.
    if (latest && ((job.retry ?? 0) !== failures || failures >= CANCEL_REFUND_MAX_TRIES)) return latest;
    const live = await repo.liveRefundTotals(tx, job.tenantId, order.id);
    const left = order.totalAmount - live.amount;
    if (left <= 0) return null;
    // The event is off: its tickets are void, and there is no sale to give the seats back to.
    const voiding = (await repo.ticketsOf(tx, job.tenantId, order.id)).map((t) => t.ticket).filter((t) => !t.voided);
    await repo.setTicketVoid(tx, { tenantId: job.tenantId, ticketIds: voiding.map((t) => t.id), voided: true, reason: EVENT_CANCELLED_REASON, userId: job.userId });
    const row = await recordRefund(deps, tx, {
      order,
      amount: left,
      kind: 'event_cancelled',
      reason: EVENT_CANCELLED_REASON,
      provider: order.paymentProvider ?? deps.payments.name,
      chargeId: order.chargeId!,
      // A retry gives back the same tickets' money: it lists the tickets the failed try voided.
      ticketIds: latest ? latest.ticketIds : voiding.map((t) => t.id),
      createdBy: job.userId,
    });
    await repo.insertAction(tx, {
      tenantId: job.tenantId,
      orderId: order.id,
      action: 'event_cancelled',
      reason: EVENT_CANCELLED_REASON,
      userId: job.userId,
      userEmail: null,
      details: { refundId: row.id, amount: left, ticketIds: row.ticketIds, ...(latest ? { retry: failures } : {}) },
    });
    await recordAudit(tx, { actor: SYSTEM_ACTOR, tenantId: job.tenantId, action: 'order.refunded', target: { type: 'order', id: order.orderUid }, before: { refunded: live.amount, totalAmount: order.totalAmount }, after: { refundId: row.id, amount: left, reason: EVENT_CANCELLED_REASON, ticketIds: row.ticketIds, cancelledBy: job.userId } });
    return row;
  });
  if (!written) return null;
  const settled = written.status === 'pending' ? await processRefund({ deps, tenantId: job.tenantId, refundId: written.id }) : written;
  if (settled?.status === 'failed') await scheduleCancellationRetry(deps, job);
  return settled;
}

/**
 * Queues the retry after the order's latest failed try (at most one per failure: its dedupe key
 * names the failure), unless that was the last try. Any run of the order's jobs that finds a
 * failed try calls it, so a failure the gateway reports later is retried by the next run too.
 */
async function scheduleCancellationRetry(deps: Deps, job: CancelOrderJob): Promise<void> {
  const failures = (await repo.refundsOf(deps.db, job.tenantId, job.orderId)).filter((r) => r.refund.kind === 'event_cancelled' && r.refund.status === 'failed').length;
  if (failures === 0 || failures >= CANCEL_REFUND_MAX_TRIES) return;
  const waitMinutes = CANCEL_REFUND_RETRY_MINUTES[failures - 1]!;
  await deps.jobs.enqueue(deps.db, CANCEL_ORDER_REFUND_JOB, { tenantId: job.tenantId, orderId: job.orderId, userId: job.userId, retry: failures } satisfies CancelOrderJob, {
    runAt: new Date(Date.now() + waitMinutes * 60_000),
    dedupeKey: repo.cancelRefundJobKey(job.orderId, failures),
    maxAttempts: CANCEL_REFUND_JOB_ATTEMPTS,
  });
  deps.log.warn({ orderId: job.orderId, failures, waitMinutes }, 'cancellation refund failed; retry queued');
}

/** The job's run: a refund still pending at the gateway fails the run on purpose, so the queue looks again later. */
export async function runCancelRefundJob(opts: { deps: Deps; job: CancelOrderJob }): Promise<void> {
  const refund = await refundCancelledOrder(opts);
  // A box-office order's refund is owed at the box office until staff settle it: nothing to wait for.
  if (refund?.status === 'pending' && refund.provider !== BOX_OFFICE_PROVIDER) throw new Error(`cancellation refund ${refund.id} is still pending at the gateway; looking again later`);
}
