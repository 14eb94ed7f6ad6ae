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
    await repo.insertLine(deps.db, {
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
  const { tenantId, orderId } = payload;
  if (typeof tenantId !== 'string' || typeof orderId !== 'string' || !UUID_RE.test(tenantId) || !UUID_RE.test(orderId)) return;
  await syncPayoutLines({ deps, order: { tenantId, orderId } });
  if (await repo.paidOrderWithoutLine(deps.db, { tenantId, orderId })) throw new Error(`no settlement yet for order ${orderId}`);
}
