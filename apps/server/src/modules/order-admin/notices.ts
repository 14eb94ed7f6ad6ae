import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';

// Issue 21.6: the buyer hears of a refund or a voided (or restored) ticket. The notice is a job,
// queued in the transaction that made the change (so it exists exactly when the change committed);
// the fulfilment module, which writes the buyer's mails, registers the handlers
// (modules/fulfilment/order-notices.ts).

export const REFUND_NOTICE_JOB = 'buyer.refund-notice';
export const TICKET_NOTICE_JOB = 'buyer.ticket-notice';

export type RefundNoticeJob = { tenantId: string; orderId: string; refundId: string };
/** One notice per void or unvoid; `voided` is the state the organiser set. */
export type TicketNoticeJob = { tenantId: string; orderId: string; ticketId: string; voided: boolean };

export async function enqueueRefundNotice(deps: Deps, tx: DbOrTx, job: RefundNoticeJob) {
  await deps.jobs.enqueue(tx, REFUND_NOTICE_JOB, job, { dedupeKey: `${REFUND_NOTICE_JOB}:${job.refundId}` });
}

export async function enqueueTicketNotice(deps: Deps, tx: DbOrTx, job: TicketNoticeJob) {
  await deps.jobs.enqueue(tx, TICKET_NOTICE_JOB, job);
}
