import type { TCancellationRefund } from '@marquee/core';

/** When the next try runs, as the console's dates read (Nov 25, 3:04 PM), the year only when it is not this one. */
function when(iso: string, now: Date): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'soon';
  return d.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', ...(d.getFullYear() !== now.getFullYear() ? { year: 'numeric' } : {}) });
}

const reasonOf = (r: TCancellationRefund) => (r.failureReason ? r.failureReason.replace(/\.$/, '') : 'no reason given');

/**
 * What became of the refund a cancelled event owes an order (issue 21.13), in one sentence for the
 * event's progress and the order page: waiting, refunded, refused and tried again when, or failed
 * for good with the card processor's reason.
 */
export function cancellationRefundText(r: TCancellationRefund, now: Date = new Date()): string {
  switch (r.state) {
    case 'pending':
      return r.tries === 0 ? 'Queued: refunded in a moment.' : 'Asked of the card processor, waiting for its answer.';
    case 'refunded':
      return 'Refunded.';
    case 'not_needed':
      return 'Nothing to refund: it was refunded in full before the cancellation.';
    case 'retrying':
      return `Refused (${reasonOf(r)}). Next try, automatic: ${r.nextTryAt ? when(r.nextTryAt, now) : 'in a moment'} (try ${Math.min(r.tries + 1, r.maxTries)} of ${r.maxTries}).`;
    case 'failed':
      return `Failed after ${r.tries} ${r.tries === 1 ? 'try' : 'tries'} (${reasonOf(r)}). Refund it from the order page.`;
    default: {
      const never: never = r.state;
      return never;
    }
  }
}
