import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import * as repo from './repository.js';

// A draft order's hold after PLACE ORDER: given back when it runs out (a job per order), when the
// gateway's checkout lapses, or when the buyer places the same cart again.

export const HOLD_EXPIRY_JOB = 'orders.expire-hold';

/**
 * Gives a draft's tickets and discount use back, once: only the caller whose draft -> expired (or
 * replaced) update matched gets the order back.
 */
export async function releaseHold(tx: Tx, which: Parameters<typeof repo.expireDraft>[1], dueOnly: boolean, status: 'expired' | 'replaced' = 'expired') {
  const expired = await repo.expireDraft(tx, which, dueOnly, status);
  if (!expired) return null;
  const lines = await repo.findLines(tx, expired.tenantId, expired.id);
  await repo.applyInventory(tx, {
    tenantId: expired.tenantId,
    eventId: expired.eventId,
    deltas: new Map(lines.map((l) => [l.ticketTypeId, -l.quantity])),
    discountUses: expired.discountCodeId ? [{ id: expired.discountCodeId, op: 'release' }] : [],
  });
  return expired;
}

/** Job: the hold of one draft ran out. Safe to run twice: the second run finds no draft. */
export async function expireHold({ deps, orderId }: { deps: Deps; orderId: string }): Promise<boolean> {
  return !!(await deps.db.transaction((tx) => releaseHold(tx, { orderId }, true)));
}

export function registerHoldJobs(deps: Deps) {
  deps.jobs.register(HOLD_EXPIRY_JOB, async (payload: { orderId: string }) => {
    await expireHold({ deps, orderId: payload.orderId });
  });
}
