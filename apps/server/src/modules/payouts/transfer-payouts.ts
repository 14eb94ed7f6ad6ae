import { randomUUID } from 'node:crypto';
import {
  M,
  PAYOUT_BLOCKER_MESSAGES,
  payoutLineBlocker,
  transferAmountOf,
  type TransferFailureCode,
  type TTransferResult,
} from '@marquee/core';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../../platform/audit.js';
import { emitDomainEvent } from '../../platform/domain-events.js';
import type { AuthUser } from '../../platform/auth/context.js';
import { TransferRefused } from '../../platform/payments/gateway.js';
import * as repo from './repository.js';

// Transfers to the tenants' connected accounts (issue 9, docs/payouts.md), and settling those
// whose answer was lost.

/** A payout still 'sending' this long after it was claimed lost its answer: ask the gateway. */
export const SENDING_STALE_MS = 5 * 60_000;

type TenantOutcome = { completed?: TTransferResult['completedOrderPayouts'][number]; failed: TTransferResult['failedOrderPayouts'] };

/**
 * spec §7 POST /platform/transfer/payout-orders: the chosen orders grouped by tenant, one transfer
 * per tenant. Partial success is normal: a tenant whose transfer fails keeps its orders pending with
 * the reason. Never pays an order twice: its lines are claimed under a row lock before the gateway
 * is asked, and the payout id is the gateway's idempotency key.
 */
export async function transferPayoutOrders({
  deps,
  user,
  orderUIDs,
  automatic = false,
  actor = SYSTEM_ACTOR,
}: {
  deps: Deps;
  user: AuthUser | null;
  orderUIDs: string[];
  automatic?: boolean;
  /** Who asked, for the audit log; the system for automatic payouts. */
  actor?: AuditActor;
}): Promise<TTransferResult> {
  const uids = [...new Set(orderUIDs.map((u) => u.trim()))];
  const found = await repo.ordersByUid(deps.db, uids);
  const byUid = new Map(found.map((o) => [o.orderUid, o]));
  const failed: TTransferResult['failedOrderPayouts'] = [];
  const unknown = uids.filter((u) => !byUid.has(u));
  if (unknown.length) failed.push({ tenantId: null, tenantURL: null, tenantName: null, orderUIDs: unknown, message: M.payoutOrderUnknown });

  const byTenant = new Map<string, Array<{ id: string; orderUid: string }>>();
  for (const o of found) byTenant.set(o.tenantId, [...(byTenant.get(o.tenantId) ?? []), { id: o.id, orderUid: o.orderUid }]);

  const completed: TTransferResult['completedOrderPayouts'] = [];
  for (const tenantId of [...byTenant.keys()].sort()) {
    const outcome = await transferForTenant(deps, { tenantId, orders: byTenant.get(tenantId)!, user, automatic, actor });
    if (outcome.completed) completed.push(outcome.completed);
    failed.push(...outcome.failed);
  }
  const success = completed.length > 0;
  const message = success
    ? failed.length
      ? `Payout transferred for ${completed.length} of ${completed.length + new Set(failed.map((f) => f.tenantId)).size} tenants.`
      : `Payout transferred for ${completed.length} ${completed.length === 1 ? 'tenant' : 'tenants'}.`
    : (failed[0]?.message ?? M.transferFailed);
  return { success, message, completedOrderPayouts: completed, failedOrderPayouts: failed };
}

/** Why the order's sale line cannot be transferred now (core payoutLineBlocker), else null. */
function ineligibility(line: repo.PayoutLineRow | undefined, now: Date): string | null {
  if (!line) return M.payoutNotPaidOrder;
  const blocker = payoutLineBlocker(repo.lineFacts(line), now);
  return blocker ? PAYOUT_BLOCKER_MESSAGES[blocker] : null;
}

async function transferForTenant(
  deps: Deps,
  p: { tenantId: string; orders: Array<{ id: string; orderUid: string }>; user: AuthUser | null; automatic: boolean; actor: AuditActor },
): Promise<TenantOutcome> {
  const payoutId = randomUUID();
  const names = await repo.tenantNames(deps.db, p.tenantId);
  const tenantURL = names?.url ?? null;
  const tenantName = names?.name ?? null;
  const failed: TenantOutcome['failed'] = [];
  const fail = (uids: string[], message: string, domainCode?: TransferFailureCode) =>
    failed.push({ tenantId: p.tenantId, tenantURL, tenantName, orderUIDs: uids, message, ...(domainCode && { domainCode }) });
  const { destination, chargeGatewayFeesToPlatform } = await repo.transferDestination(deps.db, p.tenantId);
  // A refund that succeeded a moment ago, before its job ran, is still taken from this payout.
  await repo.insertRefundLines(deps.db, { tenantId: p.tenantId });
  // Likewise a cash or card-terminal order sold a moment ago: what the platform is owed on it is netted now.
  await repo.insertNettingLines(deps.db, { tenantId: p.tenantId });

  const claim = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const lines = await repo.lockTransferLines(tx, p.tenantId, p.orders.map((o) => o.id));
    const uidOf = new Map(p.orders.map((o) => [o.id, o.orderUid]));
    const reasons = new Map<string, string[]>();
    const chosen: typeof lines = [];
    for (const o of p.orders) {
      // A cash or card-terminal order has a netting line instead, which the rule refuses with its reason.
      const sale = lines.find((l) => l.orderId === o.id && (l.kind === 'sale' || (l.kind === 'netting' && !l.refundId)));
      const why = ineligibility(sale, now);
      if (why) reasons.set(why, [...(reasons.get(why) ?? []), o.orderUid]);
      else chosen.push(sale!);
    }
    for (const [why, uids] of reasons) fail(uids, why);
    if (chosen.length === 0) return null;
    // Refunds carried into this payout: the chosen orders' own, and every other open refund of the
    // tenant that is not held (docs/payouts.md).
    const chosenOrders = new Set(chosen.map((l) => l.orderId));
    const refunds = lines.filter(
      (l) => l.kind === 'refund' && !l.payoutId && l.facilitator === 'platform' && (chosenOrders.has(l.orderId) || !l.onHold),
    );
    // Netting (issue 23): what the platform is owed on the tenant's cash and card-terminal orders,
    // and what it gives back on their refunds, every open one not on hold (docs/payouts.md "Netting").
    const netting = lines.filter((l) => l.kind === 'netting' && !l.payoutId && !l.onHold);
    const all = [...chosen, ...refunds, ...netting];
    const amount = transferAmountOf(all);
    const chosenUids = chosen.map((l) => uidOf.get(l.orderId)!);
    if (amount <= 0) {
      // The tenant owes at least what it is due: nothing is sent, every line waits (the balance owed).
      fail(chosenUids, transferAmountOf([...chosen, ...refunds]) > 0 ? M.payoutNettingOwed : M.payoutNothingToTransfer);
      return null;
    }
    const sum = (f: (l: repo.PayoutLineRow) => number) => all.reduce((s, l) => s + f(l), 0);
    await repo.insertPayout(tx, {
      tenantId: p.tenantId,
      id: payoutId,
      status: 'sending',
      amount,
      grossAmount: sum((l) => l.grossAmount),
      gatewayFee: sum((l) => l.gatewayFee),
      netAmount: sum((l) => l.netAmount),
      tenantTotal: amount,
      platformTotal: sum((l) => l.platformTotal),
      chargeGatewayFeesToPlatform,
      destination,
      automatic: p.automatic,
      createdBy: p.user?.id ?? null,
    });
    const claimed = await repo.claimLines(tx, p.tenantId, payoutId, all.map((l) => l.id));
    if (claimed !== all.length) throw new Error('payout lines changed under their row lock');
    await recordAudit(tx, { actor: p.actor, tenantId: p.tenantId, action: 'payouts.transferred', target: { type: 'payout', id: payoutId }, after: { amount, destination, automatic: p.automatic, orderUIDs: chosenUids } });
    return { amount, uids: [...new Set([...chosenUids, ...refunds.map((l) => l.orderUid), ...netting.map((l) => l.orderUid)])] };
  });
  if (!claim) return { failed };

  try {
    const { transferId } = await deps.payments.transfer({ payoutId, tenantId: p.tenantId, destination, amount: claim.amount, currency: 'usd' });
    await deps.db.transaction(async (tx) => {
      if (await repo.lockSendingPayout(tx, payoutId)) {
        await repo.completePayout(tx, { tenantId: p.tenantId, payoutId, transferId });
        await emitPayoutCompleted(deps, tx, { tenantId: p.tenantId, payoutId, amount: claim.amount, transferId });
      }
    });
    return { completed: { payoutId, tenantId: p.tenantId, tenantURL: tenantURL ?? '', tenantName: tenantName ?? '', orderUIDs: claim.uids, amount: claim.amount, transferId }, failed };
  } catch (err) {
    if (err instanceof TransferRefused) {
      // The gateway said no: nothing was sent, the orders go back to pending with the reason.
      await deps.db.transaction(async (tx) => {
        if (await repo.lockSendingPayout(tx, payoutId)) await repo.failPayout(tx, { tenantId: p.tenantId, payoutId, failure: err.message });
      });
      fail(claim.uids, err.message, err.destinationMissing ? 'TRANSFER_DESTINATION_MISSING' : undefined);
      return { failed };
    }
    // No answer: the transfer may or may not exist. The payout stays 'sending' (its orders cannot be
    // paid again) until the reconciliation job asks the gateway by the payout id.
    deps.log.error({ err, payoutId }, 'transfer outcome unknown');
    fail(claim.uids, 'The payment provider did not answer. The transfer will be checked again in a few minutes.');
    return { failed };
  }
}

/**
 * Job: a payout left 'sending' (a crash, or a lost answer, between the gateway's transfer and our
 * commit) is settled by asking the gateway for the transfer of its id: found, it is completed;
 * not found after SENDING_STALE_MS, no request of that id can still be in flight, so it failed and
 * its orders are free again.
 */
export async function reconcilePayouts({ deps, now = new Date() }: { deps: Deps; now?: Date }): Promise<{ completed: number; failed: number }> {
  let completed = 0;
  let failed = 0;
  for (const p of await repo.staleSendingPayouts(deps.db, new Date(now.getTime() - SENDING_STALE_MS), 50)) {
    const found = await deps.payments.findTransfer({ payoutId: p.id });
    await deps.db.transaction(async (tx) => {
      if (!(await repo.lockSendingPayout(tx, p.id))) return;
      if (found) {
        if (found.amount !== p.amount) deps.log.error({ payoutId: p.id, expected: p.amount, found: found.amount }, 'transfer amount differs from its payout');
        await repo.completePayout(tx, { tenantId: p.tenantId, payoutId: p.id, transferId: found.transferId });
        await emitPayoutCompleted(deps, tx, { tenantId: p.tenantId, payoutId: p.id, amount: p.amount, transferId: found.transferId });
        completed++;
      } else {
        await repo.failPayout(tx, { tenantId: p.tenantId, payoutId: p.id, failure: 'The transfer was not made. Please try again.' });
        failed++;
      }
    });
  }
  return { completed, failed };
}

/** payout.completed (issue 25), in the transaction that marks the payout completed. */
function emitPayoutCompleted(deps: Deps, tx: DbOrTx, p: { tenantId: string; payoutId: string; amount: number; transferId: string }) {
  return emitDomainEvent(deps, tx, {
    tenantId: p.tenantId,
    type: 'payout.completed',
    data: { payout: { id: p.payoutId, amount: p.amount, currency: 'usd', transferId: p.transferId, completedAt: new Date().toISOString() } },
  });
}
