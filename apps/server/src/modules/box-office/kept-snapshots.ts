import type { Deps } from '../../deps.js';
import type { CheckoutSnapshot } from '../checkout/repository.js';

// Issue 23 (bo3): the checkout snapshots a node's box-office sales were priced from, kept in memory,
// so that a sale at the door does not read its event again (a round trip, its JSON parsed and its
// rows built, about a fifth of what a sale cost the server's thread). A kept snapshot is never
// trusted: the sale's one-trip message first compares its version with the database's
// (sell.ts sellInOneTrip, checkout/repository.ts checkoutSnapshotVersionSql) and refuses to go on
// when they differ; the sale is then made again from a fresh read, as every refusal of a sale priced
// from a kept snapshot is. So a change made on any node (a price, the fees, the event cancelled) is
// seen by the next sale, with no time window, and no local change needs to expire anything here.

/** How long a kept snapshot is used before it is read again (its remaining counts drift with every sale). */
export const KEPT_SNAPSHOT_MS = 10_000;
const MAX_KEPT = 10_000;

type Kept = { snapshot: CheckoutSnapshot; at: number };
const keptByDb = new WeakMap<object, Map<string, Kept>>();

const keyOf = (tenantId: string, eventId: string, discountCode?: string | null) =>
  `${tenantId}/${eventId.toLowerCase()}/${discountCode ? discountCode.toUpperCase() : ''}`;

/** The snapshot kept for this sale's event and discount code, if one younger than KEPT_SNAPSHOT_MS is. */
export function keptSnapshot(deps: Deps, tenantId: string, eventId: string, discountCode?: string | null): CheckoutSnapshot | undefined {
  const kept = keptByDb.get(deps.db)?.get(keyOf(tenantId, eventId, discountCode));
  if (!kept) return undefined;
  return performance.now() - kept.at < KEPT_SNAPSHOT_MS ? kept.snapshot : undefined;
}

/** Keeps a snapshot just read from the database for the next sales of its event and code on this node. */
export function keepSnapshot(deps: Deps, tenantId: string, eventId: string, discountCode: string | null | undefined, snapshot: CheckoutSnapshot) {
  let kept = keptByDb.get(deps.db);
  if (!kept) keptByDb.set(deps.db, (kept = new Map()));
  if (kept.size >= MAX_KEPT) kept.clear();
  kept.set(keyOf(tenantId, eventId, discountCode), { snapshot, at: performance.now() });
}

/** A sale found the kept snapshot out of date (or was refused on it): the next sale reads it again. */
export function forgetSnapshot(deps: Deps, tenantId: string, eventId: string, discountCode?: string | null) {
  keptByDb.get(deps.db)?.delete(keyOf(tenantId, eventId, discountCode));
}
