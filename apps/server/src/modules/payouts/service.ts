import { randomUUID } from 'node:crypto';
import {
  M,
  PAYOUT_ORDER_PAGE_SIZE,
  cardFee,
  formatMoney,
  orderPayoutState,
  payoutHoldToast,
  PAYOUT_BLOCKER_MESSAGES,
  payoutLineBlocker,
  payoutLineFor,
  payoutRowStatus,
  transferAmountOf,
  type Facilitator,
  type TCompletedPayout,
  type TPayout,
  type TPayoutBreakdownList,
  type TPayoutHoldAnswer,
  type TPayoutHoldRequest,
  type TPayoutOrderList,
  type TPayoutOrderRow,
  type TransferFailureCode,
  type TTransferResult,
} from '@marquee/core';
import type { SQL } from 'drizzle-orm';
import type { Deps } from '../../deps.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import type { AuthUser, TenantCtx } from '../../platform/auth/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import { TransferRefused } from '../../platform/payments/gateway.js';
import * as repo from './repository.js';

// Payouts (issue 9, docs/payouts.md): lines from paid orders and refunds, holds, transfers to the
// tenants' connected accounts, and the reads of the payout screens.

export const PAYOUT_TICK_JOB = 'payouts.tick';
const TICK_EVERY_MS = 60_000;
const SYNC_BATCH = 200;
/** A payout still 'sending' this long after it was claimed lost its answer: ask the gateway. */
export const SENDING_STALE_MS = 5 * 60_000;

// ---- lines ----------------------------------------------------------------------------------------

/**
 * Writes the payout line of every paid order that has none yet (the gateway says what it kept and
 * when the balance is available) and a negative line for every succeeded refund; with `order`, only
 * that order's. Jobs only: the minute tick (all orders) and PAYOUT_LINES_JOB, queued by the payment
 * and by each succeeded refund in their own transactions (one order), so a payment shows up on
 * Pending Payouts within a job poll and the reads stay reads. Safe to run twice.
 */
export async function syncPayoutLines({ deps, order }: { deps: Deps; order?: repo.LineScope }): Promise<{ sales: number; refunds: number }> {
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
  return { sales, refunds };
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

const lineFacts = (l: repo.PayoutLineRow) => ({
  kind: l.kind as 'sale' | 'refund',
  facilitator: l.facilitator as Facilitator,
  onHold: l.onHold,
  payoutCompleted: l.payoutCompletedAt !== null,
  inPayout: l.payoutId !== null && l.payoutCompletedAt === null,
  balanceAvailableOn: l.balanceAvailableOn,
});

function toOrderRow(r: repo.LineListRow, now: Date): TPayoutOrderRow {
  const l = r.line;
  const payoutCompleted = l.payoutCompletedAt !== null;
  return {
    id: l.id,
    details: {
      orderUID: r.orderUid,
      orderId: l.orderId,
      kind: l.kind as 'sale' | 'refund',
      balanceAvailableOn: l.balanceAvailableOn.toISOString(),
      dateCreated: r.dateCreated.toISOString(),
      tenantURL: r.tenantUrl,
      tenantName: r.tenantName,
      tenantId: l.tenantId,
      eventName: r.eventName,
      eventId: l.eventId,
      chargeId: r.chargeId,
      status: payoutRowStatus(lineFacts(l), now),
      facilitator: l.facilitator as Facilitator,
      grossAmount: l.grossAmount,
      tenantTotal: l.tenantTotal,
      platformTotal: l.platformTotal,
      gatewayFee: l.gatewayFee,
      netAmount: l.netAmount,
      payoutCompleted,
      onHold: l.onHold,
      payoutId: l.payoutId,
      lastFailure: l.lastFailure,
    },
  };
}

/** spec §2 Pending Payouts: every open line of every tenant (platform operators). A read: the jobs write the lines. */
export async function listPendingPayouts({ deps, query }: { deps: Deps; query: unknown }): Promise<TPayoutOrderList> {
  return listLineRows(deps, repo.openLines(), query);
}

/** Payout transactions (export): every line, of one tenant when given. */
export async function listPayoutTransactions({ deps, tenantId, query }: { deps: Deps; tenantId?: string; query: unknown }): Promise<TPayoutOrderList> {
  return listLineRows(deps, tenantId ? repo.linesOfTenant(tenantId) : undefined, query);
}

async function listLineRows(deps: Deps, scope: SQL | undefined, query: unknown): Promise<TPayoutOrderList> {
  const q = compileList(repo.PAYOUT_LINE_LIST, query);
  const { rows, total } = await repo.listLines(deps.db, scope, q);
  const now = new Date();
  return q.page(rows, total, (r) => toOrderRow(r, now));
}

// ---- completed payouts ----------------------------------------------------------------------------

function toCompleted(r: repo.PayoutListRow): TCompletedPayout {
  const p = r.payout;
  return {
    id: p.id,
    details: {
      payoutId: p.id,
      tenantURL: r.tenantUrl,
      tenantName: r.tenantName,
      tenantId: p.tenantId,
      eventName: r.eventNames,
      orderUIDs: r.orderUids,
      ticketCount: Number(r.ticketCount),
      facilitator: r.facilitator as Facilitator,
      chargeGatewayFeesToPlatform: p.chargeGatewayFeesToPlatform,
      grossAmount: p.grossAmount,
      creditCardProcessingFee: p.gatewayFee,
      netAmount: p.netAmount,
      tenantTotal: p.tenantTotal,
      platformTotal: p.platformTotal,
      dateCreated: p.createdAt.toISOString(),
    },
  };
}

/** spec §2 Completed Payouts: all tenants (platform), or one tenant's (platform per tenant, tenant console). */
export async function listCompletedPayouts({ deps, tenantId, query }: { deps: Deps; tenantId?: string; query: unknown }) {
  const q = compileList(repo.COMPLETED_PAYOUT_LIST, query);
  const { rows, total } = await repo.listCompletedPayouts(deps.db, tenantId ? repo.payoutsOfTenant(tenantId) : undefined, q);
  return q.page(rows, total, toCompleted);
}

const checkPayoutId = (payoutId: string) => {
  if (!UUID_RE.test(payoutId)) throw notFound(M.payoutNotFound);
};

/** spec §3 Payout details. A tenant reads only its own (another tenant's payout is a 404). */
export async function getPayout({ deps, payoutId, tenantId }: { deps: Deps; payoutId: string; tenantId?: string }): Promise<TPayout> {
  checkPayoutId(payoutId);
  const r = await repo.findCompletedPayout(deps.db, payoutId, tenantId);
  if (!r) throw notFound(M.payoutNotFound);
  const p = r.payout;
  return {
    id: p.id,
    details: {
      payoutId: p.id,
      dateCreated: p.createdAt.toISOString(),
      grossAmount: p.grossAmount,
      creditCardProcessingFee: p.gatewayFee,
      netAmount: p.netAmount,
      tenantTotal: p.tenantTotal,
      platformTotal: p.platformTotal,
      tenantId: p.tenantId,
      tenantURL: r.tenantUrl,
      tenantName: r.tenantName,
      balanceAvailableOn: null,
      payoutCompleted: true,
      onHold: false,
      transferId: p.transferId,
      automatic: p.automatic,
    },
  };
}

/** spec §2 Payout detail order list: Search Order ID on details.orderUID, pages of 100 by default. */
export async function listPayoutOrders({ deps, payoutId, tenantId, query }: { deps: Deps; payoutId: string; tenantId?: string; query: Record<string, unknown> }): Promise<TPayoutBreakdownList> {
  checkPayoutId(payoutId);
  const found = await repo.findCompletedPayout(deps.db, payoutId, tenantId);
  if (!found) throw notFound(M.payoutNotFound);
  const q = compileList(repo.PAYOUT_LINE_LIST, { limit: PAYOUT_ORDER_PAGE_SIZE, ...query });
  const { rows, total } = await repo.listLines(deps.db, repo.linesOfPayout(found.payout.tenantId, payoutId), q);
  const page = q.page(rows, total, (r) => ({
    id: r.line.id,
    details: {
      orderUID: r.orderUid,
      orderId: r.line.orderId,
      eventId: r.line.eventId,
      eventName: r.eventName,
      kind: r.line.kind as 'sale' | 'refund',
      gatewayFee: r.line.gatewayFee,
      grossAmount: r.line.grossAmount,
      tenantTotal: r.line.tenantTotal,
      platformTotal: r.line.platformTotal,
      netAmount: r.line.netAmount,
    },
  }));
  return { id: payoutId, ...page };
}

// ---- the order page -------------------------------------------------------------------------------

/** spec §4 Order payout state of one order, from its sale line (none yet: pending). */
export async function orderPayoutFacts({ deps, tenantId, orderId }: { deps: Deps; tenantId: string; orderId: string }) {
  const line = await repo.findSaleLine(deps.db, tenantId, orderId);
  const facts = { payoutCompleted: !!line?.payoutCompletedAt, onHold: line?.onHold ?? false, balanceAvailableOn: line?.balanceAvailableOn ?? null };
  return { ...facts, state: orderPayoutState(facts), facilitator: (line?.facilitator ?? null) as Facilitator | null, payoutId: line?.payoutId ?? null };
}

// ---- holds ----------------------------------------------------------------------------------------

/**
 * spec §7 POST /tenants/{tenantId}/payout/hold: sets the order's payout hold to `hold` (the screens
 * send the opposite of what they show, spec §4 Hold toggle) and records who, when and why.
 */
export async function holdPayout({ deps, ctx, input }: { deps: Deps; ctx: TenantCtx; input: TPayoutHoldRequest }): Promise<TPayoutHoldAnswer> {
  const ref = input.orderId.trim();
  if (!UUID_RE.test(input.eventId)) throw notFound();
  const order = await repo.findOrder(deps.db, { tenantId: ctx.tenantId, eventId: input.eventId, orderRef: ref, isUuid: UUID_RE.test(ref) });
  if (!order) throw notFound();
  // An order paid a moment ago may be held before its job ran: its line is written here first.
  await syncPayoutLines({ deps, order: { tenantId: ctx.tenantId, orderId: order.id } });
  const hold = input.hold;
  await deps.db.transaction(async (tx) => {
    const line = await repo.lockSaleLine(tx, ctx.tenantId, order.id);
    if (!line) throw badRequest(M.payoutNotPaidOrder);
    // spec §6: tenant-facilitated payouts cannot be held or paid by the platform.
    if (line.facilitator === 'tenant') throw badRequest(M.payoutTenantFacilitated);
    if (line.payoutCompletedAt) throw conflict(M.payoutAlreadyPaid);
    if (line.payoutId) throw conflict(M.payoutInProgress);
    await repo.setHold(tx, ctx.tenantId, order.id, hold);
    await repo.recordHold(tx, {
      tenantId: ctx.tenantId,
      id: randomUUID(),
      orderId: order.id,
      hold,
      message: input.message ?? '',
      userId: ctx.user.id,
      userEmail: ctx.user.email,
    });
  });
  return { success: true, message: payoutHoldToast(order.orderUid, hold), onHold: hold, orderUID: order.orderUid };
}

export async function listHolds({ deps, tenantId, orderId }: { deps: Deps; tenantId: string; orderId: string }) {
  return repo.holdHistory(deps.db, tenantId, orderId);
}

// ---- transfers ------------------------------------------------------------------------------------

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
}: {
  deps: Deps;
  user: AuthUser | null;
  orderUIDs: string[];
  automatic?: boolean;
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
    const outcome = await transferForTenant(deps, { tenantId, orders: byTenant.get(tenantId)!, user, automatic });
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
  const blocker = payoutLineBlocker(lineFacts(line), now);
  return blocker ? PAYOUT_BLOCKER_MESSAGES[blocker] : null;
}

async function transferForTenant(
  deps: Deps,
  p: { tenantId: string; orders: Array<{ id: string; orderUid: string }>; user: AuthUser | null; automatic: boolean },
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

  const claim = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const lines = await repo.lockTransferLines(tx, p.tenantId, p.orders.map((o) => o.id));
    const uidOf = new Map(p.orders.map((o) => [o.id, o.orderUid]));
    const reasons = new Map<string, string[]>();
    const chosen: typeof lines = [];
    for (const o of p.orders) {
      const sale = lines.find((l) => l.orderId === o.id && l.kind === 'sale');
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
    const all = [...chosen, ...refunds];
    const amount = transferAmountOf(all);
    const chosenUids = chosen.map((l) => uidOf.get(l.orderId)!);
    if (amount <= 0) {
      fail(chosenUids, M.payoutNothingToTransfer);
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
    return { amount, uids: [...new Set([...chosenUids, ...refunds.map((l) => l.orderUid)])] };
  });
  if (!claim) return { failed };

  try {
    const { transferId } = await deps.payments.transfer({ payoutId, tenantId: p.tenantId, destination, amount: claim.amount, currency: 'usd' });
    await deps.db.transaction(async (tx) => {
      if (await repo.lockSendingPayout(tx, payoutId)) await repo.completePayout(tx, { tenantId: p.tenantId, payoutId, transferId });
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
        completed++;
      } else {
        await repo.failPayout(tx, { tenantId: p.tenantId, payoutId: p.id, failure: 'The transfer was not made. Please try again.' });
        failed++;
      }
    });
  }
  return { completed, failed };
}

// ---- the weekly automatic run (beyond the spec; off by default) ------------------------------------

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

