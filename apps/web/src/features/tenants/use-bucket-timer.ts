import { BUCKET_TIMER, M } from '@marquee/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { notify } from '../../ui/notify';
import { tenantsApi } from './api';
import {
  bucketTimerReducer,
  isCheckTick,
  restoreBucketTimer,
  serializeBucketTimer,
  type BucketTimerState,
} from './bucket-timer';
import { tenantsKey } from './queries';

const TICK_MS = 1000;

function readStored(): BucketTimerState {
  try {
    return restoreBucketTimer(window.sessionStorage.getItem(BUCKET_TIMER.storageKey));
  } catch {
    return null;
  }
}

function writeStored(state: BucketTimerState) {
  try {
    // A finished set-up has nothing to resume; a failed one keeps its Retry across a reload.
    const raw = state?.phase === 'success' ? null : serializeBucketTimer(state);
    if (raw) window.sessionStorage.setItem(BUCKET_TIMER.storageKey, raw);
    else window.sessionStorage.removeItem(BUCKET_TIMER.storageKey);
  } catch {
    // Private mode without storage: the timer still runs, it just does not survive a reload.
  }
}

/**
 * Runs the set-up timer of the tenant created last (bucket-timer.ts holds the rules): one tick a
 * second, a status check every 5 ticks, the count kept in session storage so a reload resumes it.
 */
export function useBucketTimer() {
  const client = useQueryClient();
  const [state, dispatch] = useReducer(bucketTimerReducer, null, readStored);
  const running = state?.phase === 'running';
  const announced = useRef(state?.phase ?? null);

  useEffect(() => writeStored(state), [state]);

  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => dispatch({ type: 'tick' }), TICK_MS);
    return () => window.clearInterval(timer);
  }, [running]);

  const tenantId = state?.tenantId;
  const checkNow = isCheckTick(state);
  const tick = state?.tick;
  useEffect(() => {
    if (!checkNow || !tenantId) return;
    let live = true;
    tenantsApi
      .bucketStatus(tenantId)
      .then((s) => live && dispatch({ type: 'status', status: s.CFStatus.status }))
      // A check that does not get through is retried at the next check tick.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [checkNow, tenantId, tick]);

  // spec: accounts §8 Bucket toasts, once per outcome.
  useEffect(() => {
    const phase = state?.phase ?? null;
    if (phase === announced.current) return;
    announced.current = phase;
    if (phase === 'success') {
      notify.success(M.createBucketSuccess, state?.tenantName ? `${state.tenantName}'s event site is ready.` : undefined);
      // The site going live activates the tenant: the list shows it at once.
      void client.invalidateQueries({ queryKey: tenantsKey });
    }
    if (phase === 'failed') notify.error(M.createBucketFailedTitle, M.createBucketFailedBody);
  }, [state?.phase, state?.tenantName, client]);

  const start = useCallback((tenantId: string, tenantName: string) => dispatch({ type: 'start', tenantId, tenantName }), []);
  const dismiss = useCallback(() => dispatch({ type: 'dismiss' }), []);
  const retry = useCallback(async () => {
    if (!tenantId) return;
    try {
      await tenantsApi.retryBucket(tenantId);
      dispatch({ type: 'retry' });
    } catch {
      notify.error(M.createBucketFailedTitle, M.createBucketFailedBody);
    }
  }, [tenantId]);

  return { state, start, dismiss, retry };
}
