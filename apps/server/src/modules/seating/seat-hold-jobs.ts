import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import * as repo from './repository.js';

// Issue 27.2: a seat hold runs out as an order's hold does (modules/orders/holds.ts, reconcile.ts):
// a job per hold at its expiry, and a sweep every minute for holds whose job was lost. Attached to
// a draft order, the hold lasts as long as the order's (attachSeatHold moves its expiry and queues
// a job for the new time); once the order is paid its seats are the order's (the orders_paid_seats
// trigger) and the hold is 'sold'.

export const SEAT_HOLD_EXPIRY_JOB = 'seating.expire-hold';
export const SEAT_RECONCILE_JOB = 'seating.reconcile';
const RECONCILE_EVERY_MS = 60_000;

/** The hold's expiry job (the hold's one statement writes it with the hold: repository takeSeatsAtOnce). */
export const seatHoldExpiryJob = (p: { tenantId: string; holdId: string; at: Date }) => ({
  name: SEAT_HOLD_EXPIRY_JOB,
  payload: { tenantId: p.tenantId, holdId: p.holdId },
  dedupeKey: `${SEAT_HOLD_EXPIRY_JOB}:${p.holdId}:${p.at.getTime()}`,
});

export async function queueSeatHoldExpiry(deps: Pick<Deps, 'jobs'>, tx: DbOrTx, p: { tenantId: string; holdId: string; at: Date }) {
  const job = seatHoldExpiryJob(p);
  await deps.jobs.enqueue(tx, job.name, job.payload, { runAt: p.at, dedupeKey: job.dedupeKey });
}

/** Gives a run-out hold's seats back, once. Safe to run twice, and early: a hold still live (or extended) is left alone. */
export async function expireSeatHold({ deps, tenantId, holdId }: { deps: Deps; tenantId: string; holdId: string }): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const first = await repo.findSeatHold(tx, tenantId, holdId);
    if (!first || first.status !== 'live') return false;
    // Lock order: the order (whose payment turns the seats into its own) before the hold.
    const orderStatus = first.orderId ? await repo.lockOrderOf(tx, tenantId, first.orderId) : null;
    const hold = await repo.findSeatHold(tx, tenantId, holdId, true);
    if (!hold || hold.status !== 'live' || hold.expiresAt.getTime() > Date.now()) return false;
    if (hold.orderId !== first.orderId) return false;
    if (orderStatus === 'processing' || orderStatus === 'completed') return false;
    return repo.releaseSeatHold(tx, { tenantId, holdId });
  });
}

export async function reconcileSeatHolds({ deps }: { deps: Deps }): Promise<number> {
  let released = 0;
  try {
    for (const h of await repo.overdueSeatHolds(deps.db, 200)) {
      if (await expireSeatHold({ deps, tenantId: h.tenantId, holdId: h.id })) released++;
    }
    if (released > 0) deps.log.warn({ released }, 'released overdue seat holds');
  } finally {
    await scheduleSeatReconcile(deps, Date.now() + RECONCILE_EVERY_MS);
  }
  return released;
}

async function scheduleSeatReconcile(deps: Deps, at: number) {
  const minute = Math.floor(at / RECONCILE_EVERY_MS);
  await deps.jobs.enqueue(deps.db, SEAT_RECONCILE_JOB, {}, { runAt: new Date(minute * RECONCILE_EVERY_MS), dedupeKey: `${SEAT_RECONCILE_JOB}:${minute}` });
}

export function registerSeatHoldJobs(app: FastifyInstance, deps: Deps) {
  deps.jobs.register(SEAT_HOLD_EXPIRY_JOB, async (payload: { tenantId: string; holdId: string }) => {
    await expireSeatHold({ deps, tenantId: payload.tenantId, holdId: payload.holdId });
  });
  deps.jobs.register(SEAT_RECONCILE_JOB, async () => {
    await reconcileSeatHolds({ deps });
  });
  app.addHook('onReady', async () => {
    try {
      await scheduleSeatReconcile(deps, Date.now() + 5_000);
    } catch (err) {
      deps.log.error({ err }, 'could not schedule the seat hold reconciliation');
    }
  });
}
