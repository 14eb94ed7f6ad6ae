// The jobs that carry an event's cancellation to its orders (queued by sweep-cancelled-event.ts).

export const CANCEL_ORDER_REFUND_JOB = 'order-admin.cancel-refund';
export const CANCEL_ORDER_MAIL_JOB = 'order-admin.cancel-mail';
export const EVENT_CANCELLED_REASON = 'Event cancelled';

/** `retry`: the retry this run is, after that many failed tries (absent: the first try). */
export type CancelOrderJob = { tenantId: string; orderId: string; userId: string | null; message?: string; retry?: number };

/**
 * A cancellation refund job also waits for the gateway: while its refund is pending the job fails
 * on purpose and the queue runs it again with its backoff (2 s, 4 s … 10 minutes), about four
 * hours in all, so that a refund that fails late is still retried (issue 21.13).
 */
export const CANCEL_REFUND_JOB_ATTEMPTS = 30;
