import { BUCKET_TIMER } from '@marquee/core';
import { restoreBucketTimer, serializeBucketTimer, type BucketTimerState } from './bucket-timer';

// Where the set-up timer lives between page loads (spec: accounts §9 "stored in session storage
// under a retry-timer key"), and how a deleted tenant's timer is dropped wherever it is shown.

export function readStoredBucketTimer(): BucketTimerState {
  try {
    return restoreBucketTimer(window.sessionStorage.getItem(BUCKET_TIMER.storageKey));
  } catch {
    return null;
  }
}

export function writeStoredBucketTimer(state: BucketTimerState) {
  try {
    // A finished set-up has nothing to resume; a failed one keeps its Retry across a reload.
    const raw = state?.phase === 'success' ? null : serializeBucketTimer(state);
    if (raw) window.sessionStorage.setItem(BUCKET_TIMER.storageKey, raw);
    else window.sessionStorage.removeItem(BUCKET_TIMER.storageKey);
  } catch {
    // Private mode without storage: the timer still runs, it just does not survive a reload.
  }
}

const listeners = new Set<(tenantId: string) => void>();

/** Calls `listener` with the id of each tenant whose set-up is forgotten; returns the unsubscribe. */
export function onBucketTimerForgotten(listener: (tenantId: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The tenant is gone: drop its saved timer, and its banner if one is on screen. */
export function forgetBucketTimer(tenantId: string) {
  if (readStoredBucketTimer()?.tenantId === tenantId) writeStoredBucketTimer(null);
  for (const listener of listeners) listener(tenantId);
}
