import { splitRefund, type RefundKind } from '@marquee/core';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { emitDomainEvent } from '../../platform/domain-events.js';
import { RefundRefused, type GatewayRefundStatus, type RefundEvent } from '../../platform/payments/gateway.js';
import { stripeRefundStatus } from '../../platform/payments/stripe-driver.js';
import { BOX_OFFICE_PROVIDER, queuePayoutLines } from '../orders/payment.js';
import { lockTenantOrder, type OrderRow } from '../orders/repository.js';
import * as repo from './refunds-repository.js';
import { recordPaymentEvent } from './repository.js';

// Every refund, whoever asks for it, is a row in `refunds` (pending -> succeeded | failed) and goes
// to the gateway through one job. The row is written in the caller's transaction together with the
// job, so a refund exists exactly when the change that asked for it committed, and a crash between
// the two halves is finished by the job's retry with the same idempotency key.

export const REFUND_JOB = 'payments.refund';
/** After this many attempts a refund the gateway could not be reached for is marked failed. */
export const REFUND_MAX_ATTEMPTS = 8;

export type RefundJobPayload = { tenantId: string; refundId: string };

/**
 * The idempotency key sent to the gateway: the refund row's id. The system's refunds of a whole
 * late or duplicate charge keep the key they had before refunds were rows (one per charge), so a
 * job queued before an upgrade and one after cannot refund the same charge twice.
 */
export function refundIdempotencyKey(row: Pick<repo.RefundRow, 'id' | 'kind' | 'orderId' | 'chargeId'>): string {
  return row.kind === 'hold_expired' || row.kind === 'duplicate_payment' ? `refund:${row.orderId}:${row.chargeId}` : `refund:${row.id}`;
}

/**
 * Writes a pending refund of `amount` for an order the caller has LOCKED (lockTenantOrder), split
 * between the tenant's and the platform's share (core splitRefund), and queues the gateway call.
 * The caller has checked that the amount fits in what is left; a system refund of a charge larger
 * than what is left (a late payment of a different amount) puts the excess on the tenant's side.
 */
export async function recordRefund(
  deps: Deps,
  tx: DbOrTx,
  r: {
    order: OrderRow;
    amount: number;
    kind: RefundKind;
    reason: string;
    provider: string;
    chargeId: string;
    ticketIds?: string[];
    createdBy?: string | null;
  },
): Promise<repo.RefundRow> {
  const { order } = r;
  let tenantAmount = r.amount;
  let platformAmount = 0;
  if (r.kind !== 'duplicate_payment') {
    const already = await repo.liveRefundTotals(tx, order.tenantId, order.id);
    const fits = Math.max(0, Math.min(r.amount, order.totalAmount - already.amount));
    const split = splitRefund({
      order: { totalAmount: order.totalAmount, platformTotal: order.platformTotal },
      alreadyRefunded: already.amount,
      alreadyPlatform: already.platform,
      amount: fits,
    });
    platformAmount = split.platformAmount;
    tenantAmount = r.amount - platformAmount;
  }
  const row = await repo.insertRefund(tx, {
    tenantId: order.tenantId,
    orderId: order.id,
    eventId: order.eventId,
    amount: r.amount,
    tenantAmount,
    platformAmount,
    kind: r.kind,
    reason: r.reason,
    status: 'pending',
    provider: r.provider,
    chargeId: r.chargeId,
    ticketIds: r.ticketIds ?? [],
    createdBy: r.createdBy ?? null,
  });
  await deps.jobs.enqueue(tx, REFUND_JOB, { tenantId: order.tenantId, refundId: row.id } satisfies RefundJobPayload, {
    dedupeKey: `refund-row:${row.id}`,
    maxAttempts: REFUND_MAX_ATTEMPTS,
  });
  return row;
}

/**
 * Moves a refund to what the gateway says, under the order's lock, and recomputes the order's
 * refunded / refunded_amount from its rows. A failed refund stays failed (a new one can be asked
 * for); Stripe can report a succeeded refund as failed later, which is followed.
 */
export async function applyRefundStatus(
  tx: DbOrTx,
  u: { tenantId: string; refundId: string; status: GatewayRefundStatus; providerRefundId?: string | null; failureReason?: string | null },
  deps: Pick<Deps, 'jobs'>,
): Promise<repo.RefundRow | null> {
  const current = await repo.findRefund(tx, u.refundId);
  if (!current || current.tenantId !== u.tenantId) return null;
  const order = await lockTenantOrder(tx, u.tenantId, current.orderId);
  const row = await repo.lockRefund(tx, u.tenantId, u.refundId);
  if (!row) return null;
  const providerRefundId = row.providerRefundId ?? u.providerRefundId ?? null;
  const moves = row.status !== 'failed' && u.status !== 'pending' && u.status !== row.status;
  if (!moves && providerRefundId === row.providerRefundId) return row;
  await repo.updateRefund(tx, u.tenantId, u.refundId, {
    providerRefundId,
    ...(moves ? { status: u.status, failureReason: u.status === 'failed' ? (u.failureReason ?? 'failed') : null } : {}),
  });
  if (moves) await repo.syncOrderRefunded(tx, u.tenantId, row.orderId);
  // The money went back: the refund's payout line is written by its job (payouts), not by a read.
  if (moves && u.status === 'succeeded') await queuePayoutLines(deps, tx, { tenantId: u.tenantId, orderId: row.orderId, cause: `refund:${row.id}` });
  // order.refunded (issue 25) for money of a paid order; a payment given back because it could not
  // be an order's (an expired hold, a second payment) was never an order paid.
  if (moves && u.status === 'succeeded' && order && (row.kind === 'organiser' || row.kind === 'event_cancelled')) {
    // The order's refunded amount as syncOrderRefunded just left it (its lock is held already).
    const after = await lockTenantOrder(tx, u.tenantId, row.orderId);
    await emitDomainEvent(deps, tx, {
      tenantId: u.tenantId,
      type: 'order.refunded',
      data: {
        order: { id: order.id, uid: order.orderUid, eventId: order.eventId, refundedAmount: after?.refundedAmount ?? 0 },
        refund: { id: row.id, amount: row.amount, kind: row.kind, reason: row.reason },
      },
    });
  }
  return repo.findRefund(tx, u.refundId);
}

/**
 * Asks the gateway for a pending refund (job payments.refund, and inline right after an
 * organiser's request so the answer usually shows the outcome). Safe to run twice or at once: the
 * idempotency key makes it one refund at the gateway, and only a pending row moves.
 */
export async function processRefund(opts: { deps: Deps; tenantId: string; refundId: string }): Promise<repo.RefundRow | null> {
  const { deps, tenantId, refundId } = opts;
  const row = await repo.findRefund(deps.db, refundId);
  if (!row || row.tenantId !== tenantId || row.status !== 'pending') return row;
  // A box-office order's money is with the tenant (issue 23): its refund is owed at the box office
  // until staff settle it (cash from a drawer, or the terminal's reference); no gateway is asked.
  if (row.provider === BOX_OFFICE_PROVIDER) return row;
  if (row.provider !== deps.payments.name) throw new Error(`refund ${row.id} is for ${row.provider} but the gateway is ${deps.payments.name}`);
  if (!row.chargeId) {
    return deps.db.transaction((tx) => applyRefundStatus(tx, { tenantId, refundId, status: 'failed', failureReason: 'The order has no charge to refund.' }, deps));
  }
  let result: { refundId: string | null; status: GatewayRefundStatus; failureReason?: string | null };
  try {
    result = await deps.payments.refund({
      chargeId: row.chargeId,
      amount: row.amount,
      idempotencyKey: refundIdempotencyKey(row),
      metadata: { refundId: row.id, tenantId: row.tenantId, orderId: row.orderId },
    });
  } catch (err) {
    if (!(err instanceof RefundRefused)) throw err;
    result = { refundId: null, status: 'failed', failureReason: err.message };
  }
  const updated = await deps.db.transaction((tx) =>
    applyRefundStatus(tx, { tenantId, refundId, status: result.status, providerRefundId: result.refundId, failureReason: result.failureReason ?? null }, deps),
  );
  deps.log.info({ refundId, orderId: row.orderId, amount: row.amount, kind: row.kind, status: updated?.status }, 'refund asked of the gateway');
  return updated;
}

/** Job payments.refund. A refund the gateway could not be reached for after every attempt is marked failed. */
export async function runRefundJob(opts: { deps: Deps; payload: RefundJobPayload; attempt: number }) {
  const { deps, payload, attempt } = opts;
  try {
    await processRefund({ deps, tenantId: payload.tenantId, refundId: payload.refundId });
  } catch (err) {
    if (attempt < REFUND_MAX_ATTEMPTS) throw err;
    const message = err instanceof Error ? err.message : String(err);
    deps.log.error({ err, refundId: payload.refundId }, 'refund gave up');
    await deps.db.transaction((tx) => applyRefundStatus(tx, { tenantId: payload.tenantId, refundId: payload.refundId, status: 'failed', failureReason: message.slice(0, 500) }, deps));
  }
}

// ---- refund webhooks (Stripe refund.updated and friends) -------------------------------------

export const REFUND_EVENT_TYPES = ['refund.created', 'refund.updated', 'refund.failed', 'charge.refund.updated'] as const;

const ZRefundObject = z.object({
  id: z.string().min(1).max(255),
  status: z.string().nullish(),
  failure_reason: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

/** The refund in a Stripe-shaped refund event, or null when the payload has no refund object. */
export function toRefundEvent(provider: RefundEvent['provider'], envelope: { id: string; type: string; data: { object: unknown } }): RefundEvent | null {
  const parsed = ZRefundObject.safeParse(envelope.data.object);
  if (!parsed.success) return null;
  const r = parsed.data;
  const refundId = r.metadata?.refundId;
  return {
    provider,
    eventId: envelope.id,
    rawType: envelope.type,
    providerRefundId: r.id,
    status: envelope.type === 'refund.failed' ? 'failed' : stripeRefundStatus(r.status),
    failureReason: r.failure_reason ?? null,
    refundId: refundId && UUID_RE.test(refundId) ? refundId : null,
  };
}

/** One refund event, applied once: deduplicated on the provider's event id like the checkout events. */
export async function processRefundEvent(opts: { deps: Deps; event: RefundEvent }): Promise<{ outcome: 'duplicate' | 'ignored' | 'refund_updated' }> {
  const { deps, event } = opts;
  return deps.db.transaction(async (tx) => {
    const byOurs = event.refundId ? await repo.findRefund(tx, event.refundId) : null;
    const row = byOurs ?? (await repo.findRefundByProviderId(tx, event.provider, event.providerRefundId));
    const fresh = await recordPaymentEvent(tx, { provider: event.provider, eventId: event.eventId, type: event.rawType, orderId: row?.orderId ?? null });
    if (!fresh) return { outcome: 'duplicate' as const };
    if (!row || row.provider !== event.provider) return { outcome: 'ignored' as const };
    await applyRefundStatus(
      tx,
      {
        tenantId: row.tenantId,
        refundId: row.id,
        status: event.status,
        providerRefundId: event.providerRefundId,
        failureReason: event.failureReason,
      },
      deps,
    );
    return { outcome: 'refund_updated' as const };
  });
}
