import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { expireHold } from './holds.js';
import * as repo from './repository.js';

export const RECONCILE_JOB = 'orders.reconcile';
const RECONCILE_EVERY_MS = 60_000;
const RECONCILE_BATCH = 200;

/** Job: drafts whose expiry job was lost (or keeps failing) are released here, then it runs again in a minute. */
export async function reconcileHolds({ deps }: { deps: Deps }): Promise<number> {
  let released = 0;
  try {
    for (const o of await repo.overdueDrafts(deps.db, RECONCILE_BATCH)) {
      if (await expireHold({ deps, orderId: o.id })) released++;
    }
    if (released > 0) deps.log.warn({ released }, 'released overdue holds');
  } finally {
    await scheduleReconcile(deps, Date.now() + RECONCILE_EVERY_MS);
  }
  return released;
}

/** One reconcile run per minute across all nodes: the dedupe key is the minute it runs in. */
export async function scheduleReconcile(deps: Deps, at: number) {
  const minute = Math.floor(at / RECONCILE_EVERY_MS);
  await deps.jobs.enqueue(deps.db, RECONCILE_JOB, {}, { runAt: new Date(minute * RECONCILE_EVERY_MS), dedupeKey: `${RECONCILE_JOB}:${minute}` });
}

export function registerReconcileJobs(app: FastifyInstance, deps: Deps) {
  deps.jobs.register(RECONCILE_JOB, async () => {
    await reconcileHolds({ deps });
  });
  // Every start makes sure a reconcile run is queued (a lost chain of re-enqueues restarts here).
  app.addHook('onReady', async () => {
    try {
      await scheduleReconcile(deps, Date.now() + 5_000);
    } catch (err) {
      deps.log.error({ err }, 'could not schedule the hold reconciliation');
    }
  });
}
