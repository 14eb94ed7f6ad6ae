import { randomUUID } from 'node:crypto';
import { cardFee, payoutLineFor, type Facilitator } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import * as repo from './repository.js';

// Payout lines (issue 9, docs/payouts.md): written from paid orders and succeeded refunds, by jobs.

const SYNC_BATCH = 200;

/**
 * Writes the payout line of every paid order that has none yet (the gateway says what it kept and
 * when the balance is available) and a negative line for every succeeded refund; with `order`, only
 * that order's. Jobs only: the minute tick (all orders) and PAYOUT_LINES_JOB, queued by the payment
 * and by each succeeded refund in their own transactions (one order), so a payment shows up on
 * Pending Payouts within a job poll and the reads stay reads. Safe to run twice.
 */
export async function syncPayoutLines({ deps, order }: { deps: Deps; order?: repo.LineScope }): Promise<{ sales: number; refunds: number; netting: number }> {
  let sales = 0;
  if (order && 'length' in order && order.length === 0) return { sales, refunds: 0, netting: 0 };
  // The lines of the orders found, written in one statement (issue 26 "mail4").
  const lines: Array<Parameters<typeof repo.insertLines>[1][number]> = [];
  for (const o of await repo.ordersWithoutLine(deps.db, SYNC_BATCH, order)) {
    if (!o.paidAt) continue;
    let settlement: { fee: number; availableOn: Date };
    try {
      settlement = o.chargeId
        ? await deps.payments.settlement({ chargeId: o.chargeId, amount: o.totalAmount, paidAt: o.paidAt })
        : { fee: cardFee(o.totalAmount, deps.config.testGatewayFee), availableOn: new Date(o.paidAt.getTime() + deps.config.payoutDelayDays * 86_400_000) };
    } catch (err) {
      // Stripe writes the balance transaction shortly after the charge: the next run tries again.
      deps.log.warn({ err, orderId: o.orderId }, 'no settlement for a paid order yet');
      continue;
    }
    const chargeGatewayFeesToPlatform = o.chargeSurchargeFeesToPlatform ?? false;
    const split = payoutLineFor({ order: { totalAmount: o.totalAmount, platformTotal: o.platformTotal }, gatewayFee: settlement.fee, chargeGatewayFeesToPlatform });
    lines.push({
      tenantId: o.tenantId,
      id: randomUUID(),
      orderId: o.orderId,
      eventId: o.eventId,
      kind: 'sale',
      refundId: null,
      ...split,
      facilitator: (o.paymentType === 'tenant' ? 'tenant' : 'platform') satisfies Facilitator,
      chargeGatewayFeesToPlatform,
      balanceAvailableOn: settlement.availableOn,
    });
    sales++;
  }
  await repo.insertLines(deps.db, lines);
  const refunds = await repo.insertRefundLines(deps.db, order);
  // Cash and card-terminal orders of the box office (issue 23): the platform's share is netted.
  const netting = await repo.insertNettingLines(deps.db, order);
  return { sales, refunds, netting };
}

/**
 * Job PAYOUT_LINES_JOB ({tenantId, orderId}, queued by orders' markPaidInTx and payments'
 * applyRefundStatus): the order's lines now. Stripe writes a charge's balance transaction shortly
 * after the charge, so a sale line that could not be written yet fails the job, which retries with
 * backoff (and the minute tick sweeps up anything left).
 */
export async function runPayoutLinesJob({ deps, payload }: { deps: Deps; payload: { tenantId?: unknown; orderId?: unknown } }) {
  const [result] = await runPayoutLinesJobs(deps, [payload]);
  if (result) throw result;
}

/**
 * runPayoutLinesJob for several jobs at once (issue 26 "mail4": a sale's payout lines jobs run
 * together, in the statements of one): their orders' lines written, then one read of those still
 * without a sale line. Answers per payload null (done, or nothing to do) or the error its job fails with.
 */
export async function runPayoutLinesJobs(deps: Deps, payloads: ReadonlyArray<{ tenantId?: unknown; orderId?: unknown }>): Promise<Array<Error | null>> {
  const valid = (p: { tenantId?: unknown; orderId?: unknown }): p is { tenantId: string; orderId: string } =>
    typeof p.tenantId === 'string' && typeof p.orderId === 'string' && UUID_RE.test(p.tenantId) && UUID_RE.test(p.orderId);
  const scopes = payloads.filter(valid).map((p) => ({ tenantId: p.tenantId, orderId: p.orderId }));
  if (scopes.length === 0) return payloads.map(() => null);
  await syncPayoutLines({ deps, order: scopes.length === 1 ? scopes[0] : scopes });
  const left = new Set((await repo.ordersWithoutLine(deps.db, scopes.length, scopes.length === 1 ? scopes[0] : scopes)).map((o) => `${o.tenantId}:${o.orderId}`.toLowerCase()));
  return payloads.map((p) => (valid(p) && left.has(`${p.tenantId}:${p.orderId}`.toLowerCase()) ? new Error(`no settlement yet for order ${p.orderId}`) : null));
}
