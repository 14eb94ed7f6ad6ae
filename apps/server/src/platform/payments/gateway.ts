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

export type PaymentGateway = {
  name: 'test' | 'stripe';
  createCheckout(input: CheckoutInput): Promise<{ sessionId: string; url: string }>;
  refund(input: { chargeId: string; amount: number; idempotencyKey: string }): Promise<{ refundId: string }>;
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
};

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
  /** cents actually captured, when the provider says */
  amountTotal: number | null;
};
