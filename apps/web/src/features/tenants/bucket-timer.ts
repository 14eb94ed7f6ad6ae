import { BUCKET_TIMER, type BucketStatus } from '@marquee/core';

// spec: accounts-admin-fees §4 "Tenant bucket set-up timer" and §9 "Bucket timer": a counter that
// resumes from session storage, rises once a second to at most 100 and re-checks the bucket status
// every 5 ticks. At 59, if the status is not create_complete, it goes back to 54. At 60 with
// NOT_FOUND it reports failure. Reaching create_complete before 59 reports success. Failure allows
// a retry, which recreates the bucket. Pure: the hook (use-bucket-timer.ts) owns time, storage and
// the network.

export type BucketTimerPhase = 'running' | 'success' | 'failed';

export type BucketTimer = {
  tenantId: string;
  tenantName: string;
  tick: number;
  /** The latest answer of the status check; null until one arrives. */
  status: BucketStatus | null;
  phase: BucketTimerPhase;
};

export type BucketTimerEvent =
  | { type: 'start'; tenantId: string; tenantName: string }
  | { type: 'tick' }
  | { type: 'status'; status: BucketStatus }
  | { type: 'retry' }
  | { type: 'dismiss' }
  /** The tenant no longer exists (deleted here or elsewhere; its status check answers 404). */
  | { type: 'forget'; tenantId: string };

export type BucketTimerState = BucketTimer | null;

const { ceiling, checkEvery, resetAt, resetTo, failAt } = BUCKET_TIMER;

export function bucketTimerReducer(state: BucketTimerState, event: BucketTimerEvent): BucketTimerState {
  switch (event.type) {
    case 'start':
      return { tenantId: event.tenantId, tenantName: event.tenantName, tick: 0, status: null, phase: 'running' };
    case 'dismiss':
      return null;
    case 'forget':
      // Nothing is set up for a tenant that is gone, whatever the phase: the timer ends.
      return state?.tenantId === event.tenantId ? null : state;
    case 'retry':
      return state && { ...state, tick: 0, status: null, phase: 'running' };
    case 'tick': {
      if (!state || state.phase !== 'running') return state;
      let tick = Math.min(state.tick + 1, ceiling);
      // The spec's reset keeps waiting on a site still being prepared; a site reported NOT_FOUND
      // (none, or its last attempt failed) runs on to 60 and fails, so Retry is offered.
      if (tick === resetAt && state.status !== 'create_complete' && state.status !== 'NOT_FOUND') tick = resetTo;
      if (tick === failAt && state.status === 'NOT_FOUND') return { ...state, tick, phase: 'failed' };
      return { ...state, tick };
    }
    case 'status': {
      if (!state || state.phase !== 'running') return state;
      const next = { ...state, status: event.status };
      // Before 59 is the rule; an answer that lands later (a check slower than 4 s) is a finished
      // site all the same, and is not left running forever.
      if (event.status === 'create_complete') return { ...next, phase: 'success' };
      if (event.status === 'NOT_FOUND' && state.tick === failAt) return { ...next, phase: 'failed' };
      return next;
    }
  }
}

/** Whether the tick just reached asks for a status check (every 5 ticks while running). */
export const isCheckTick = (state: BucketTimerState): boolean =>
  !!state && state.phase === 'running' && state.tick > 0 && state.tick % checkEvery === 0;

/** Progress shown to a person, 0-100: the counter against the failure point, full on success. */
export function bucketTimerProgress(state: BucketTimer): number {
  if (state.phase === 'success') return 100;
  return Math.round((Math.min(state.tick, failAt) / failAt) * 100);
}

/** What session storage keeps under BUCKET_TIMER.storageKey. */
export const serializeBucketTimer = (state: BucketTimerState): string | null => (state ? JSON.stringify(state) : null);

/** The timer saved before a reload, or null when there is none (or it is unreadable). */
export function restoreBucketTimer(raw: string | null): BucketTimerState {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<BucketTimer>;
    if (typeof v.tenantId !== 'string' || typeof v.tick !== 'number' || !Number.isInteger(v.tick)) return null;
    const phase: BucketTimerPhase = v.phase === 'failed' || v.phase === 'success' ? v.phase : 'running';
    const status = v.status === 'create_complete' || v.status === 'NOT_FOUND' || v.status === 'CREATE_IN_PROGRESS' ? v.status : null;
    return { tenantId: v.tenantId, tenantName: typeof v.tenantName === 'string' ? v.tenantName : '', tick: Math.max(0, Math.min(v.tick, ceiling)), status, phase };
  } catch {
    return null;
  }
}
