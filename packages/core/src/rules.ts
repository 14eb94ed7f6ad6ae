import type { EventStatus } from './schemas/events.js';

// Business rules that the server and the web both apply, written once. The SQL hold
// (apps/server/src/db/functions/mq-take-holds.sql) repeats what must be atomic and names these.

/** An event's details, ticket types, discount codes and staff can change until it is cancelled, which is final. */
export const isEventWritable = (status: EventStatus): boolean => status !== 'cancelled';

/**
 * The public may see this event (its page, its ticket menu, the site's list and sitemap): published
 * now, or cancelled after it was published (docs/decisions.md "A cancelled event keeps its page").
 * A draft, whether never published or unpublished, is its staff's only (the preview). On sale is
 * narrower: published only. SQL's copy is `isEventPublicSql` (apps/server/src/db/rules-sql.ts),
 * held to the same answers by db/rules-sql.test.ts.
 */
export const isEventPublic = (event: { status: string; publishedAt: Date | string | null }): boolean =>
  event.status === 'published' || (event.status === 'cancelled' && event.publishedAt !== null);

export type DiscountCodeState = 'off' | 'usedUp' | 'expired' | 'scheduled' | 'active';
type DiscountCodeLike = {
  active: boolean;
  usageLimit: number | null;
  usedCount: number;
  startsAt: Date | string | null;
  endsAt: Date | string | null;
};
const instant = (v: Date | string) => (typeof v === 'string' ? Date.parse(v) : v.getTime());

/** Where a discount code stands at `now`: switched off, used up, past its end, not started yet, or usable. */
export function discountCodeState(code: DiscountCodeLike, now: Date | number): DiscountCodeState {
  const at = typeof now === 'number' ? now : now.getTime();
  if (!code.active) return 'off';
  if (code.usageLimit !== null && code.usedCount >= code.usageLimit) return 'usedUp';
  if (code.endsAt && instant(code.endsAt) <= at) return 'expired';
  if (code.startsAt && instant(code.startsAt) > at) return 'scheduled';
  return 'active';
}

/** Whether an order placed at `now` may use the code (the hold checks it again under the code's lock). */
export const isDiscountCodeUsable = (code: DiscountCodeLike, now: Date | number): boolean => discountCodeState(code, now) === 'active';
