import { M } from '@marquee/core';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { isNotFound } from '../../ui/api-client';
import { notify } from '../../ui/notify';
import { dashboardKey } from '../../shared/query-keys';
import { tenantsApi } from './api';
import { bucketTimerReducer, isCheckTick } from './bucket-timer';
import { forgetBucketTimer, onBucketTimerForgotten, readStoredBucketTimer, writeStoredBucketTimer } from './bucket-timer-storage';
import { refreshTenantLists } from './mutations';
import { tenantsKey } from './queries';

const TICK_MS = 1000;

/** A 404 from the tenant's routes: the tenant was deleted (here, in another tab or by another operator). */
const isGone = isNotFound;

// Our own wording: the spec has no message for a set-up whose tenant was deleted (docs/decisions.md).
export const SETUP_STOPPED = 'Set-up stopped';

/** A tenant that no longer exists will never be set up: end its timer, say so, refresh the lists. */
function stopForGoneTenant(client: QueryClient, tenantId: string, tenantName: string | undefined) {
  forgetBucketTimer(tenantId);
  notify.info(SETUP_STOPPED, `${tenantName || 'The new tenant'} no longer exists.`);
  void refreshTenantLists(client);
}

/**
 * Runs the set-up timer of the tenant created last (bucket-timer.ts holds the rules): one tick a
 * second, a status check every 5 ticks, the count kept in session storage so a reload resumes it.
 */
export function useBucketTimer() {
  const client = useQueryClient();
  const [state, dispatch] = useReducer(bucketTimerReducer, null, readStoredBucketTimer);
  const running = state?.phase === 'running';
  const announced = useRef(state?.phase ?? null);

  useEffect(() => writeStoredBucketTimer(state), [state]);

  // A tenant deleted from this console (its row, or its detail page) takes its banner with it.
  useEffect(() => onBucketTimerForgotten((tenantId) => dispatch({ type: 'forget', tenantId })), []);

  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => dispatch({ type: 'tick' }), TICK_MS);
    return () => window.clearInterval(timer);
  }, [running]);

  const tenantId = state?.tenantId;
  const tenantName = state?.tenantName;
  const checkNow = isCheckTick(state);
  const tick = state?.tick;
  useEffect(() => {
    if (!checkNow || !tenantId) return;
    let live = true;
    tenantsApi
      .bucketStatus(tenantId)
      .then((s) => live && dispatch({ type: 'status', status: s.CFStatus.status }))
      .catch((e: unknown) => {
        if (!live) return;
        // A tenant that no longer exists ends the timer rather than being polled forever.
        if (isGone(e)) stopForGoneTenant(client, tenantId, tenantName);
        // Any other failure is retried at the next check tick.
      });
    return () => {
      live = false;
    };
  }, [checkNow, tenantId, tenantName, tick, client]);

  // spec: accounts §8 Bucket toasts, once per outcome.
  useEffect(() => {
    const phase = state?.phase ?? null;
    if (phase === announced.current) return;
    announced.current = phase;
    if (phase === 'success') {
      notify.success(M.createBucketSuccess, state?.tenantName ? `${state.tenantName}'s event site is ready.` : undefined);
      // The site going live activates the tenant: its detail, the list and the dashboard show it at once.
      void client.invalidateQueries({ queryKey: tenantsKey });
      void client.invalidateQueries({ queryKey: dashboardKey });
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
    } catch (e) {
      if (isGone(e)) {
        stopForGoneTenant(client, tenantId, tenantName);
        return;
      }
      notify.error(M.createBucketFailedTitle, M.createBucketFailedBody);
    }
  }, [tenantId, tenantName, client]);

  return { state, start, dismiss, retry };
}
