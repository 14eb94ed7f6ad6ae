// The payment gateway contract (architecture: payments). Orders create a checkout through it and
// the webhook module refunds through it; the driver is chosen once from PAYMENT_DRIVER.

export type CheckoutInput = {
  orderId: string;
  orderUid: string;
  tenantId: string;
  /** cents */
  amount: number;
  currency: 'usd';
  email: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  idempotencyKey: string;
};

export type RefundInput = {
  chargeId: string;
  /** cents */
  amount: number;
  idempotencyKey: string;
  /** Sent with the refund so its webhook finds our row (Stripe metadata). */
  metadata?: Record<string, string>;
};

export type GatewayRefundStatus = 'pending' | 'succeeded' | 'failed';
export type RefundResult = { refundId: string; status: GatewayRefundStatus; failureReason?: string | null };

/** The provider refused the refund for good (a retry would be refused again). */
export class RefundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefundRefused';
  }
}

/** A refund's status change reported by the provider (Stripe refund.updated and friends). */
export type RefundEvent = {
  provider: 'test' | 'stripe';
  eventId: string;
  rawType: string;
  providerRefundId: string;
  status: GatewayRefundStatus;
  failureReason: string | null;
  /** Our refund row id, from the metadata we sent. */
  refundId: string | null;
};

export type PaymentGateway = {
  name: 'test' | 'stripe';
  createCheckout(input: CheckoutInput): Promise<{ sessionId: string; url: string }>;
  /**
   * Gives (part of) a charge back. The idempotency key makes a retried call the same refund. The
   * answer's status is the provider's: the test driver's refunds succeed at once; Stripe's may stay
   * pending and are settled by its refund webhooks. A refusal (nothing left to refund, unknown
   * charge) throws RefundRefused; any other error is worth retrying.
   */
  refund(input: RefundInput): Promise<RefundResult>;
  /**
   * Closes a checkout that is still open, so its pay page takes no payment (a draft replaced by a
   * newer PLACE ORDER). A checkout already paid or closed is left as it is; a payment that still
   * gets through is refunded by the webhook.
   */
  expireCheckout(input: { tenantId: string; orderId: string; sessionId: string | null }): Promise<void>;
  /**
   * True when expireCheckout finds the checkout by the order id alone (the test driver's own
   * table); otherwise the caller keeps the session id on the order. Saves the flash sale a commit
   * per order.
   */
  readonly expiresByOrder: boolean;
  /**
   * What the gateway kept of a charge and when its balance can be paid out (Stripe: the charge's
   * balance transaction fee and available_on). Payouts call it once per paid order.
   */
  settlement(input: { chargeId: string; amount: number; paidAt: Date }): Promise<{ fee: number; availableOn: Date }>;
  /**
   * Sends a tenant its payout (Stripe Connect: a transfer to the connected account, transfer_group
   * and idempotency key = payout id). A missing or unknown destination fails with a message that
   * contains 'gateway destination not found' (spec §8).
   */
  transfer(input: TransferInput): Promise<{ transferId: string }>;
  /** The transfer made for a payout id, if any: how the reconciliation job learns what a crash hid. */
  findTransfer(input: { payoutId: string }): Promise<{ transferId: string; amount: number } | null>;
  /** True when no real money moves (the test driver; Stripe with a test-mode key). */
  readonly testMode: boolean;
  /**
   * A connected account for a tenant's payouts (Stripe Connect: an Express account). The idempotency
   * key makes a repeated call the same account.
   */
  createConnectedAccount(input: ConnectedAccountInput): Promise<{ accountId: string }>;
  /**
   * A single-use, short-lived link to the gateway's hosted onboarding of the account (Stripe:
   * accountLinks.create, type account_onboarding). The holder comes back to returnUrl when done or
   * when leaving; an expired or used link sends them to refreshUrl, which should make a new link.
   * An account the gateway does not know throws AccountRefused.
   */
  createOnboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string; expiresAt: Date }>;
  /** What the gateway says of the account now (Stripe details_submitted, payouts_enabled); unknown: AccountRefused. */
  connectedAccountStatus(input: { accountId: string }): Promise<ConnectedAccountStatus>;
};

export type ConnectedAccountInput = { tenantId: string; email: string; businessName: string; idempotencyKey: string };
export type ConnectedAccountStatus = { detailsSubmitted: boolean; payoutsEnabled: boolean };

/** The gateway does not know the connected account (deleted, or from another gateway account). */
export class AccountRefused extends Error {}

export type TransferInput = {
  payoutId: string;
  tenantId: string;
  /** The tenant's connected account; null when it has none. */
  destination: string | null;
  /** cents, > 0 */
  amount: number;
  currency: 'usd';
};

/** A gateway refused a transfer: the message is shown to the operator (spec §8). */
export class TransferRefused extends Error {
  /** The tenant has no (or an unknown) connected account: the operator's answer carries TRANSFER_DESTINATION_MISSING. */
  readonly destinationMissing: boolean;
  constructor(message: string, opts: { destinationMissing?: boolean } = {}) {
    super(message);
    this.destinationMissing = opts.destinationMissing ?? false;
  }
}

/** spec §8: the text the UI looks for to add its 'contact the tenant owner' hint. */
export const DESTINATION_NOT_FOUND = 'gateway destination not found';

/** A checkout event from either provider, after its signature was verified. */
export type CheckoutEvent = {
  provider: 'test' | 'stripe';
  /** The provider's event id: the webhook dedupe key. */
  eventId: string;
  type: 'completed' | 'expired' | 'ignored';
  /** The provider's event type as received (recorded in payment_events). */
  rawType: string;
  sessionId: string | null;
  orderId: string | null;
  tenantId: string | null;
  chargeId: string | null;
  paymentMethod: string | null;
  /** cents actually captured, when the provider says (a completed event without it pays nothing) */
  amountTotal: number | null;
  /** ISO currency code of amountTotal, lower case, when the provider says */
  currency: string | null;
};
