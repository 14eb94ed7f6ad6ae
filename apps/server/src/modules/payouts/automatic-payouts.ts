import { formatMoney, type TTransferResult } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { syncPayoutLines } from './sync-payout-lines.js';
import { reconcilePayouts, transferPayoutOrders } from './transfer-payouts.js';
import * as repo from './repository.js';

// The minute tick and the weekly automatic run (beyond the spec; off by default), and its setting.

export const PAYOUT_TICK_JOB = 'payouts.tick';
const TICK_EVERY_MS = 60_000;

export async function getPayoutSettings({ deps }: { deps: Deps }) {
  return { weeklyAutomatic: await repo.weeklyAutomatic(deps.db) };
}

export async function updatePayoutSettings({ deps, weeklyAutomatic }: { deps: Deps; weeklyAutomatic: boolean }) {
  await repo.setWeeklyAutomatic(deps.db, weeklyAutomatic);
  return { weeklyAutomatic };
}

/** The start of the ISO week (Monday 00:00 UTC) that `now` is in: one automatic run per week. */
export const weekOf = (now: Date) => {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
};

/**
 * Transfers every ready, unheld, platform-facilitated order, with the same guarantees as an
 * operator's Transfer, and mails each paid tenant what was paid.
 */
export async function runAutomaticPayouts({ deps, now = new Date() }: { deps: Deps; now?: Date }): Promise<TTransferResult | null> {
  if (!(await repo.weeklyAutomatic(deps.db))) return null;
  await syncPayoutLines({ deps });
  const ready = await repo.readyOrderUids(deps.db, now);
  if (ready.length === 0) return null;
  const result = await transferPayoutOrders({ deps, user: null, orderUIDs: ready.map((r) => r.orderUid), automatic: true });
  for (const c of result.completedOrderPayouts) await mailPayout(deps, c);
  return result;
}

async function mailPayout(deps: Deps, c: TTransferResult['completedOrderPayouts'][number]) {
  const t = await repo.tenantContact(deps.db, c.tenantId);
  if (!t?.email) return;
  const text = [
    `Hello ${t.name},`,
    '',
    `Marquee has transferred ${formatMoney(c.amount)} to your account (payout ${c.payoutId}, transfer ${c.transferId}).`,
    '',
    `Orders paid: ${c.orderUIDs.join(', ')}`,
  ].join('\n');
  await deps.mailer.send(deps.db, { to: t.email, subject: `Payout of ${formatMoney(c.amount)} sent`, text });
}

/** Job: every minute, sync lines, settle stale transfers and, once a week when on, pay out. */
export async function payoutTick({ deps }: { deps: Deps }) {
  try {
    await syncPayoutLines({ deps });
    await reconcilePayouts({ deps });
    const now = new Date();
    // The weekly run happens on the first tick of the week (Monday, UTC), once: the dedupe key is the week.
    if (now.getUTCDay() === 1 && (await repo.weeklyAutomatic(deps.db))) {
      await deps.jobs.enqueue(deps.db, AUTOMATIC_JOB, {}, { dedupeKey: `${AUTOMATIC_JOB}:${weekOf(now)}`, maxAttempts: 1 });
    }
  } finally {
    await scheduleTick(deps, Date.now() + TICK_EVERY_MS);
  }
}

export const AUTOMATIC_JOB = 'payouts.automatic';

export async function scheduleTick(deps: Deps, at: number) {
  const slot = Math.floor(at / TICK_EVERY_MS);
  await deps.jobs.enqueue(deps.db, PAYOUT_TICK_JOB, {}, { runAt: new Date(slot * TICK_EVERY_MS), dedupeKey: `${PAYOUT_TICK_JOB}:${slot}` });
}
