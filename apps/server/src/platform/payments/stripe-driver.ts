import Stripe from 'stripe';
import { AccountRefused, DESTINATION_NOT_FOUND, RefundRefused, TransferRefused, type CheckoutInput, type GatewayRefundStatus, type PaymentGateway } from './gateway.js';

// PAYMENT_DRIVER=stripe: Stripe Checkout Sessions on the official SDK. STRIPE_API_BASE points the
// SDK at another host (tests use a local stand-in for Stripe's HTTP API).

/** Stripe accepts expires_at between 30 minutes and 24 hours after the session is created. */
export const STRIPE_MIN_EXPIRY_MS = 30 * 60_000;
export const STRIPE_MAX_EXPIRY_MS = 24 * 60 * 60_000;
/** Slack for the request's travel time and clock skew, so a clamped value is never rejected. */
const EXPIRY_SLACK_MS = 60_000;

/**
 * Our holds are shorter than Stripe's minimum (15 minutes by default), so the session is clamped
 * into Stripe's window; a payment that lands after the hold lapsed is re-held or refunded by the
 * webhook (architecture rule 7).
 */
export function clampStripeExpiry(expiresAt: Date, now = Date.now()): number {
  const min = now + STRIPE_MIN_EXPIRY_MS + EXPIRY_SLACK_MS;
  const max = now + STRIPE_MAX_EXPIRY_MS - EXPIRY_SLACK_MS;
  return Math.floor(Math.min(max, Math.max(min, expiresAt.getTime())) / 1000);
}

export function stripeClient(opts: { secretKey: string; apiBase?: string }): Stripe {
  const config: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000, telemetry: false };
  if (opts.apiBase) {
    const base = new URL(opts.apiBase);
    config.host = base.hostname;
    config.protocol = base.protocol === 'http:' ? 'http' : 'https';
    config.port = base.port || (base.protocol === 'http:' ? 80 : 443);
  }
  return new Stripe(opts.secretKey, config);
}

/** Verifies a webhook's Stripe-Signature over the raw body; throws when it does not match. */
export function verifyStripeWebhook(rawBody: Buffer, signature: string | undefined, secret: string): Stripe.Event {
  if (!signature) throw new Stripe.errors.StripeSignatureVerificationError('', rawBody, { message: 'No Stripe-Signature header' });
  return Stripe.webhooks.constructEvent(rawBody, signature, secret);
}

/** Stripe error codes that mean a refund will never go through; anything else is retried. */
const REFUND_REFUSALS = new Set(['charge_already_refunded', 'amount_too_large', 'resource_missing', 'charge_disputed', 'refund_disputed_payment']);

/** Stripe's refund statuses as ours: requires_action waits like pending; canceled is a failure. */
export function stripeRefundStatus(status: string | null | undefined): GatewayRefundStatus {
  if (status === 'succeeded') return 'succeeded';
  if (status === 'failed' || status === 'canceled') return 'failed';
  return 'pending';
}

/** Stripe's own test-mode keys: sk_test_… (secret) and rk_test_… (restricted). */
export const isStripeTestKey = (secretKey: string) => /^(sk|rk)_test_/.test(secretKey);

/** An unknown or foreign account is Stripe's resource_missing (or "No such account"): refused for good. */
function accountRefusal(err: unknown): never {
  if (err instanceof Stripe.errors.StripeInvalidRequestError && (err.code === 'resource_missing' || /No such account/i.test(err.message))) throw new AccountRefused(err.message);
  if (err instanceof Stripe.errors.StripePermissionError) throw new AccountRefused(err.message);
  throw err;
}

export function createStripeGateway(opts: { secretKey: string; apiBase?: string }): PaymentGateway {
  const stripe = stripeClient(opts);
  return {
    name: 'stripe',
    expiresByOrder: false,
    testMode: isStripeTestKey(opts.secretKey),
    async createCheckout(input: CheckoutInput) {
      const metadata = { orderId: input.orderId, tenantId: input.tenantId, orderUid: input.orderUid };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: { currency: input.currency, unit_amount: input.amount, product_data: { name: input.description } },
            },
          ],
          ...(input.email ? { customer_email: input.email } : {}),
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: clampStripeExpiry(input.expiresAt),
          client_reference_id: input.orderId,
          metadata,
          payment_intent_data: { metadata },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe returned no URL for checkout session ${session.id}`);
      return { sessionId: session.id, url: session.url };
    },
    async refund(input) {
      // Checkout gives us a PaymentIntent id; older charges are refunded by their ch_ id.
      const target = input.chargeId.startsWith('ch_') ? { charge: input.chargeId } : { payment_intent: input.chargeId };
      try {
        const refund = await stripe.refunds.create(
          { ...target, amount: input.amount, ...(input.metadata ? { metadata: input.metadata } : {}) },
          { idempotencyKey: input.idempotencyKey },
        );
        return { refundId: refund.id, status: stripeRefundStatus(refund.status), failureReason: refund.failure_reason ?? null };
      } catch (err) {
        // Stripe says no for good (already refunded, amount too large, unknown charge): not worth a retry.
        if (err instanceof Stripe.errors.StripeError && err.code && REFUND_REFUSALS.has(err.code)) throw new RefundRefused(err.message);
        throw err;
      }
    },
    async expireCheckout(input) {
      if (!input.sessionId) return;
      try {
        await stripe.checkout.sessions.expire(input.sessionId, {}, { idempotencyKey: `expire:${input.sessionId}` });
      } catch (err) {
        // Stripe refuses to expire a session that is no longer open (paid, or expired already).
        if (err instanceof Stripe.errors.StripeInvalidRequestError) return;
        throw err;
      }
    },
    async settlement(input) {
      const charge = input.chargeId.startsWith('ch_')
        ? await stripe.charges.retrieve(input.chargeId, { expand: ['balance_transaction'] })
        : ((await stripe.paymentIntents.retrieve(input.chargeId, { expand: ['latest_charge.balance_transaction'] })).latest_charge as Stripe.Charge | null);
      const bt = charge?.balance_transaction;
      if (!bt || typeof bt === 'string') throw new Error(`Stripe has no balance transaction for ${input.chargeId} yet`);
      return { fee: bt.fee, availableOn: new Date(bt.available_on * 1000) };
    },
    async transfer(input) {
      if (!input.destination) throw new TransferRefused(`This tenant has no connected Stripe account: ${DESTINATION_NOT_FOUND}.`, { destinationMissing: true });
      try {
        const transfer = await stripe.transfers.create(
          { amount: input.amount, currency: input.currency, destination: input.destination, transfer_group: input.payoutId, metadata: { payoutId: input.payoutId, tenantId: input.tenantId } },
          { idempotencyKey: input.payoutId },
        );
        return { transferId: transfer.id };
      } catch (err) {
        // Stripe refused it (unknown or disconnected account, insufficient balance): the operator sees why.
        if (err instanceof Stripe.errors.StripeInvalidRequestError) {
          const missing = err.code === 'resource_missing' || /destination|No such account/i.test(err.message);
          throw new TransferRefused(missing ? `${err.message.replace(/\.$/, '')}: ${DESTINATION_NOT_FOUND}.` : err.message, { destinationMissing: missing });
        }
        throw err;
      }
    },
    async findTransfer(input) {
      const list = await stripe.transfers.list({ transfer_group: input.payoutId, limit: 1 });
      const t = list.data[0];
      return t ? { transferId: t.id, amount: t.amount } : null;
    },
    // Connect: the platform takes the payments and transfers each tenant its share (separate charges
    // and transfers), so the tenant's Express account needs transfers; card_payments lets the same
    // account take payments itself when its payment settings say the tenant's account does.
    async createConnectedAccount(input) {
      const account = await stripe.accounts.create(
        {
          type: 'express',
          country: 'US',
          ...(input.email ? { email: input.email } : {}),
          business_profile: { name: input.businessName },
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          metadata: { tenantId: input.tenantId },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { accountId: account.id };
    },
    async createOnboardingLink(input) {
      try {
        const link = await stripe.accountLinks.create({ account: input.accountId, type: 'account_onboarding', return_url: input.returnUrl, refresh_url: input.refreshUrl });
        return { url: link.url, expiresAt: new Date(link.expires_at * 1000) };
      } catch (err) {
        return accountRefusal(err);
      }
    },
    async connectedAccountStatus(input) {
      try {
        const account = await stripe.accounts.retrieve(input.accountId);
        return { detailsSubmitted: account.details_submitted === true, payoutsEnabled: account.payouts_enabled === true };
      } catch (err) {
        return accountRefusal(err);
      }
    },
  };
}
