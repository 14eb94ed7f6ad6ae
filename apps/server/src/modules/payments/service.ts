import { M } from '@marquee/core';
import { z } from 'zod';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { tenantLabel, UUID_RE } from '../../platform/auth/guard.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { CheckoutEvent } from '../../platform/payments/gateway.js';
import { verifyStripeWebhook } from '../../platform/payments/stripe-driver.js';
import { newTestId, verifyTestWebhook } from '../../platform/payments/test-driver.js';
import { markCheckoutExpired, markOrderPaid } from '../orders/payment.js';
import { lockOrderWithEventStatus, lockTenantOrder } from '../orders/repository.js';
import * as refundsRepo from './refunds-repository.js';
import { processRefundEvent, recordRefund, REFUND_EVENT_TYPES, runRefundJob, toRefundEvent, type RefundJobPayload } from './refunds.js';
import * as repo from './repository.js';

export const TEST_WEBHOOK_JOB = 'payments.test-webhook';
export { REFUND_JOB } from './refunds.js';

export const TEST_CARD_SUCCESS = '4242424242424242';
export const TEST_CARD_DECLINED = '4000000000000002';

export type Provider = CheckoutEvent['provider'];

// ---- provider events ---------------------------------------------------------------------------

const ZEnvelope = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.unknown() }),
});

const ZCheckoutSession = z.object({
  id: z.string().min(1).max(255),
  metadata: z.record(z.string(), z.string()).nullish(),
  client_reference_id: z.string().nullish(),
  payment_intent: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  payment_status: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().max(10).nullish(),
  payment_method_types: z.array(z.string()).nullish(),
});

/** Reads the few fields we use from a Stripe-shaped event (the test gateway sends the same shape). */
export function toCheckoutEvent(provider: Provider, raw: unknown): CheckoutEvent {
  const envelope = ZEnvelope.safeParse(raw);
  if (!envelope.success) throw badRequest(M.webhookPayloadInvalid);
  const { id: eventId, type: rawType } = envelope.data;
  const base: CheckoutEvent = {
    provider,
    eventId,
    rawType,
    type: 'ignored',
    sessionId: null,
    orderId: null,
    tenantId: null,
    chargeId: null,
    paymentMethod: null,
    amountTotal: null,
    currency: null,
  };
  if (!rawType.startsWith('checkout.session.')) return base;
  const session = ZCheckoutSession.safeParse(envelope.data.data.object);
  if (!session.success) throw badRequest(M.webhookPayloadInvalid);
  const s = session.data;
  const orderId = s.metadata?.orderId ?? s.client_reference_id ?? null;
  const tenantId = s.metadata?.tenantId ?? null;
  const paid = s.payment_status === 'paid' || s.payment_status === 'no_payment_required';
  // A completed session with a delayed payment method is paid later (async_payment_succeeded).
  const type =
    (rawType === 'checkout.session.completed' && paid) || rawType === 'checkout.session.async_payment_succeeded'
      ? 'completed'
      : rawType === 'checkout.session.expired' || rawType === 'checkout.session.async_payment_failed'
        ? 'expired'
        : 'ignored';
  return {
    ...base,
    type,
    sessionId: s.id,
    orderId: orderId && UUID_RE.test(orderId) ? orderId : null,
    tenantId: tenantId && UUID_RE.test(tenantId) ? tenantId : null,
    chargeId: typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null),
    paymentMethod: s.payment_method_types?.[0] ?? 'card',
    amountTotal: s.amount_total ?? null,
    currency: s.currency ? s.currency.toLowerCase() : null,
  };
}

/** Verifies a webhook's signature over its raw bytes, then processes it once. */
export async function receiveWebhook(opts: { deps: Deps; provider: Provider; rawBody: Buffer; signature: string | undefined }) {
  const { deps, provider, rawBody, signature } = opts;
  let parsed: unknown;
  if (provider === 'stripe') {
    const secret = deps.config.stripeWebhookSecret;
    if (!secret) throw notFound();
    try {
      parsed = verifyStripeWebhook(rawBody, signature, secret);
    } catch {
      throw badRequest(M.webhookSignatureInvalid);
    }
  } else {
    if (deps.payments.name !== 'test') throw notFound();
    if (!verifyTestWebhook(deps.config.secret, rawBody, signature)) throw badRequest(M.webhookSignatureInvalid);
    try {
      parsed = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw badRequest(M.webhookPayloadInvalid);
    }
  }
  const envelope = ZEnvelope.safeParse(parsed);
  if (envelope.success && (REFUND_EVENT_TYPES as readonly string[]).includes(envelope.data.type)) {
    const refundEvent = toRefundEvent(provider, envelope.data);
    if (!refundEvent) throw badRequest(M.webhookPayloadInvalid);
    return processRefundEvent({ deps, event: refundEvent });
  }
  return processCheckoutEvent({ deps, event: toCheckoutEvent(provider, parsed) });
}

/** The currency every checkout is created in (modules/checkout place-order.ts). */
const ORDER_CURRENCY = 'usd';

/**
 * Why a completed checkout's event cannot pay the order, or null when it can: it must say what was
 * captured and in which currency, and both must be the order's (spec silent; docs/decisions.md).
 */
function paymentMismatch(event: CheckoutEvent, orderTotal: number): string | null {
  if (event.amountTotal === null) return 'amount_total missing: the amount captured cannot be compared with the order total';
  if (event.currency === null) return 'currency missing: the amount captured cannot be compared with the order total';
  if (event.currency !== ORDER_CURRENCY) return 'currency differs from the order currency';
  if (event.amountTotal !== orderTotal) return 'amount_total differs from the order total';
  return null;
}

export type EventOutcome = 'duplicate' | 'ignored' | 'paid' | 'already' | 'refund' | 'expired' | 'refund_updated' | 'mismatch';

/**
 * One provider event, applied exactly once: the event id is recorded in the same transaction as the
 * order change, so a replay, a retry or twenty concurrent deliveries change the order once.
 */
export async function processCheckoutEvent(opts: { deps: Deps; event: CheckoutEvent }): Promise<{ outcome: EventOutcome }> {
  const { deps, event } = opts;
  const result = await deps.db.transaction(async (tx): Promise<{ outcome: EventOutcome }> => {
    const fresh = await repo.recordPaymentEvent(tx, {
      provider: event.provider,
      eventId: event.eventId,
      type: event.rawType,
      orderId: event.orderId,
    });
    if (!fresh) return { outcome: 'duplicate' };
    if (event.type === 'ignored' || !event.orderId || !event.tenantId) return { outcome: 'ignored' };
    // The order locked now, with its event's status, for the rest of the transaction (lock order:
    // orders first), and not read again by markOrderPaid (issue 26 "mail2": one statement, it was three).
    const locked = await lockOrderWithEventStatus(tx, event.tenantId, event.orderId);
    const order = locked?.order;
    if (!locked || !order) {
      deps.log.warn({ provider: event.provider, eventId: event.eventId, orderId: event.orderId }, 'payment event for an unknown order');
      return { outcome: 'ignored' };
    }

    if (event.type === 'expired') {
      await markCheckoutExpired({ deps, tx, orderId: order.id });
      return { outcome: 'expired' };
    }

    const chargeId = event.chargeId ?? event.sessionId ?? event.eventId;
    // A signed event for another amount (1 cent for a $200 order) pays nothing: recorded on the
    // order for the organiser and the operators to see, and never fulfilled (issue 14 §8). Nor does
    // one that does not say what was captured, or in which currency: what cannot be compared with
    // the order's total is not taken for it (issue 21 §5).
    const mismatch = paymentMismatch(event, order.totalAmount);
    if (mismatch) {
      await repo.recordAmountMismatch(tx, {
        tenantId: event.tenantId,
        orderId: order.id,
        reason: mismatch,
        details: { provider: event.provider, eventId: event.eventId, chargeId, amountTotal: event.amountTotal, currency: event.currency, orderTotal: order.totalAmount },
      });
      deps.log.warn({ provider: event.provider, eventId: event.eventId, orderId: order.id, amountTotal: event.amountTotal, currency: event.currency, orderTotal: order.totalAmount }, 'payment amount mismatch');
      return { outcome: 'mismatch' };
    }
    const { outcome } = await markOrderPaid({
      deps,
      tx,
      orderId: order.id,
      provider: event.provider,
      sessionId: event.sessionId ?? '',
      chargeId,
      paymentMethod: event.paymentMethod ?? 'card',
      locked,
    });
    // Compared above: the amount captured is the order's total.
    const amount = event.amountTotal!;
    if (outcome === 'refund') {
      // spec silent; docs/decisions.md: a payment whose tickets are gone is refunded in full and the
      // order is cancelled (refunded is set when the gateway confirms).
      await repo.cancelUnfulfillableOrder(tx, {
        tenantId: event.tenantId,
        orderId: order.id,
        provider: event.provider,
        sessionId: event.sessionId,
        chargeId,
        paymentMethod: event.paymentMethod,
      });
      await enqueueRefund(deps, tx, { tenantId: event.tenantId, orderId: order.id, provider: event.provider, chargeId, amount, reason: 'hold_expired' });
    } else if (outcome === 'already' && event.chargeId && order.chargeId && order.chargeId !== event.chargeId) {
      // A second checkout of an order that was already paid: give that second payment back.
      await enqueueRefund(deps, tx, { tenantId: event.tenantId, orderId: order.id, provider: event.provider, chargeId, amount, reason: 'duplicate_payment' });
    }
    return { outcome };
  });
  deps.log.info({ provider: event.provider, eventId: event.eventId, type: event.rawType, orderId: event.orderId, outcome: result.outcome }, 'payment event');
  return result;
}

// ---- refunds -------------------------------------------------------------------------------------

/** The payload of payments.refund jobs queued before refunds were rows (kept so they still run). */
export type LegacyRefundJob = {
  tenantId: string;
  orderId: string;
  provider: Provider;
  chargeId: string;
  amount: number;
  reason: 'hold_expired' | 'duplicate_payment';
};

/**
 * The system gives a whole charge back (a late payment whose tickets are gone, a second payment):
 * a refund row of that kind, once per charge, and its job. spec silent; docs/decisions.md.
 */
async function enqueueRefund(deps: Deps, tx: Tx, job: LegacyRefundJob) {
  const order = await lockTenantOrder(tx, job.tenantId, job.orderId);
  if (!order || job.amount <= 0) return;
  if (await refundsRepo.findChargeRefund(tx, job.tenantId, job.orderId, job.chargeId, job.reason)) return;
  await recordRefund(deps, tx, { order, amount: job.amount, kind: job.reason, reason: job.reason, provider: job.provider, chargeId: job.chargeId });
}

/** Job payments.refund: a refund row's gateway call; an old-style payload becomes a row first. */
export async function refundPayment(opts: { deps: Deps; job: RefundJobPayload | LegacyRefundJob; attempt?: number }) {
  const { deps, job } = opts;
  if ('refundId' in job) return runRefundJob({ deps, payload: job, attempt: opts.attempt ?? 1 });
  if (job.provider !== deps.payments.name) throw new Error(`refund for ${job.provider} but the gateway is ${deps.payments.name}`);
  if (job.amount <= 0) return;
  const row = await deps.db.transaction(async (tx) => {
    const order = await lockTenantOrder(tx, job.tenantId, job.orderId);
    if (!order) return null;
    return (
      (await refundsRepo.findChargeRefund(tx, job.tenantId, job.orderId, job.chargeId, job.reason)) ??
      (await recordRefund(deps, tx, { order, amount: job.amount, kind: job.reason, reason: job.reason, provider: job.provider, chargeId: job.chargeId }))
    );
  });
  if (row) await runRefundJob({ deps, payload: { tenantId: job.tenantId, refundId: row.id }, attempt: opts.attempt ?? 1 });
}

// ---- test gateway: the hosted pay page -----------------------------------------------------------

export type TestSession = repo.TestSessionRow;
export type PayResult =
  | { kind: 'paid'; session: TestSession }
  | { kind: 'complete'; session: TestSession }
  | { kind: 'expired'; session: TestSession }
  | { kind: 'declined'; session: TestSession }
  | { kind: 'invalid'; session: TestSession; message: string };

/** The test session behind a pay page URL, on the host of the tenant that created it. */
export async function findPaySession(opts: { deps: Deps; host: string; sessionId: string }): Promise<TestSession | null> {
  const { deps, host, sessionId } = opts;
  if (deps.payments.name !== 'test' || sessionId.length > 100) return null;
  const label = tenantLabel(host, deps.config.baseDomain);
  if (!label) return null;
  return repo.findTestSessionOnHost(deps.db, label, sessionId);
}

export function sessionState(session: TestSession, now = new Date()): 'open' | 'complete' | 'expired' {
  if (session.status === 'open' && session.expiresAt <= now) return 'expired';
  return session.status === 'complete' ? 'complete' : session.status === 'open' ? 'open' : 'expired';
}

function checkCard(card: { number: string; expiry: string; cvc: string }, now: Date): string | null {
  const number = card.number.replace(/[\s-]/g, '');
  if (!number) return M.cardNumberRequired;
  const expiry = card.expiry.trim();
  if (expiry) {
    const m = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(expiry);
    // A card is valid through the last day of its expiry month.
    if (!m || new Date(Date.UTC(2000 + Number(m[2]), Number(m[1]), 1)) <= now) return M.cardExpiryInvalid;
  }
  if (card.cvc.trim() && !/^\d{3,4}$/.test(card.cvc.trim())) return M.cardCvcInvalid;
  if (number !== TEST_CARD_SUCCESS && number !== TEST_CARD_DECLINED) return M.testCardUnknown;
  return null;
}

/**
 * Pays a test session with a test card. Success does not touch the order: like Stripe, it sends a
 * signed checkout.session.completed webhook (as a job) and the webhook moves the order.
 */
export async function payTestSession(opts: {
  deps: Deps;
  session: TestSession;
  card: { number: string; expiry: string; cvc: string };
}): Promise<PayResult> {
  const { deps, session, card } = opts;
  const now = new Date();
  const state = sessionState(session, now);
  if (state !== 'open') return { kind: state, session };
  const problem = checkCard(card, now);
  if (problem) return { kind: 'invalid', session, message: problem };
  if (card.number.replace(/[\s-]/g, '') === TEST_CARD_DECLINED) return { kind: 'declined', session };

  // The session completed and its webhook queued in one statement (issue 26 "mail2"; it was a
  // transaction of four): the event is the completed session's, as the update leaves it.
  const chargeId = newTestId('pi_test');
  const completed: TestSession = { ...session, status: 'complete', chargeId, completedAt: now };
  const body = testEventBody('checkout.session.completed', completed, now);
  const paid = await repo.completeTestSessionWithJob(deps.db, session.tenantId, session.id, chargeId, now, {
    name: TEST_WEBHOOK_JOB,
    payload: { body },
    dedupeKey: `test-webhook:${session.id}:completed`,
  });
  if (paid) return { kind: 'paid', session: completed };
  const current = (await repo.findTestSession(deps.db, session.tenantId, session.id)) ?? session;
  return { kind: sessionState(current, now) === 'complete' ? 'complete' : 'expired', session: current };
}

/** Job: a test session lapsed; like Stripe, say so with a checkout.session.expired webhook. */
export async function expireTestCheckout(opts: { deps: Deps; tenantId: string; sessionId: string }) {
  const { deps, tenantId, sessionId } = opts;
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    const expired = await repo.expireTestSession(tx, tenantId, sessionId, now);
    if (!expired) {
      const current = await repo.findTestSession(tx, tenantId, sessionId);
      if (current?.status === 'open') throw new Error(`test session ${sessionId} is not due to expire yet`);
      return;
    }
    const body = testEventBody('checkout.session.expired', expired, now);
    await deps.jobs.enqueue(tx, TEST_WEBHOOK_JOB, { body }, { dedupeKey: `test-webhook:${expired.id}:expired` });
  });
}

/** The same shape as Stripe's event for a Checkout Session. */
export function testEventBody(type: 'checkout.session.completed' | 'checkout.session.expired', s: TestSession, now: Date): string {
  return JSON.stringify({
    id: newTestId('evt_test'),
    object: 'event',
    type,
    created: Math.floor(now.getTime() / 1000),
    livemode: false,
    data: {
      object: {
        id: s.id,
        object: 'checkout.session',
        amount_total: s.amount,
        currency: s.currency,
        client_reference_id: s.orderId,
        customer_email: s.email,
        metadata: { orderId: s.orderId, tenantId: s.tenantId, orderUid: s.orderUid },
        payment_intent: s.chargeId,
        payment_status: type === 'checkout.session.completed' ? 'paid' : 'unpaid',
        payment_method_types: ['card'],
        status: s.status,
      },
    },
  });
}
