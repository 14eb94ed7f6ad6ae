import { formatEventDateTime } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { CancelOrderJob } from './cancel-jobs.js';
import { cancellationMail } from './cancellation-mail.js';
import { holderNotices } from './holder-notices.js';
import { isRefundable } from './order-facts.js';
import * as repo from './repository.js';

/**
 * Job order-admin.cancel-mail: the cancellation notice of one order, through the outbox (issue 15),
 * with what its cancellation actually gives back (issue 21.9): what was still held, not what was
 * paid, and no refund wording for an order that was already refunded in full.
 */
export async function mailCancelledOrder(opts: { deps: Deps; job: CancelOrderJob }): Promise<boolean> {
  const { deps, job } = opts;
  const row = await repo.cancellationNoticeOf(deps.db, job.tenantId, job.orderId);
  if (!row || row.eventStatus !== 'cancelled' || !row.order.email) return false;
  const refunds = (await repo.refundsOf(deps.db, job.tenantId, job.orderId)).map((r) => r.refund).filter((r) => r.kind !== repo.NOT_ORDER_MONEY);
  const live = (r: repo.RefundRow) => r.status === 'pending' || r.status === 'succeeded';
  const byCancellation = refunds.find((r) => r.kind === 'event_cancelled');
  const earlier = refunds.filter((r) => r.kind !== 'event_cancelled' && live(r)).reduce((s, r) => s + r.amount, 0);
  const held = Math.max(0, row.order.totalAmount - refunds.filter(live).reduce((s, r) => s + r.amount, 0));
  const paid = isRefundable(row.order);
  await deps.db.transaction(async (tx) => {
    await deps.mailer.send(
      tx,
      cancellationMail({
        tenantId: job.tenantId,
        organiser: row.organiser,
        contactEmail: row.contactEmail,
        event: { name: row.eventName, when: row.startDateTime ? formatEventDateTime(row.startDateTime, row.timeZone) : '' },
        order: row.order,
        refund: paid ? { amount: byCancellation ? byCancellation.amount : held, earlier } : null,
        message: job.message ?? null,
      }),
    );
    // Issue 24: whoever holds a ticket the buyer passed on hears it from us too, with the same message.
    for (const m of await holderNotices(tx, { tenantId: job.tenantId, orderId: job.orderId, eventId: row.order.eventId, kind: 'cancelled', message: job.message ?? null })) {
      await deps.mailer.send(tx, m);
    }
  });
  return true;
}
