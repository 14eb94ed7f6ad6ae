import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Jobs } from '../jobs.js';
import type { PaymentGateway } from './gateway.js';
import { createStripeGateway } from './stripe-driver.js';
import { createTestGateway } from './test-driver.js';

export type { CheckoutInput, PaymentGateway, RefundInput, RefundResult, GatewayRefundStatus, RefundEvent, TransferInput } from './gateway.js';
export { AccountRefused, DESTINATION_NOT_FOUND, RefundRefused, TransferRefused } from './gateway.js';

/** The one gateway of this server, chosen by PAYMENT_DRIVER (test by default). */
export function createPaymentGateway(opts: { config: Config; db: Db; jobs: Jobs }): PaymentGateway {
  const { config } = opts;
  if (config.paymentDriver === 'stripe') {
    if (!config.stripeSecretKey) throw new Error('PAYMENT_DRIVER=stripe needs STRIPE_SECRET_KEY');
    if (!config.stripeWebhookSecret) throw new Error('PAYMENT_DRIVER=stripe needs STRIPE_WEBHOOK_SECRET');
    return createStripeGateway({ secretKey: config.stripeSecretKey, apiBase: config.stripeApiBase });
  }
  return createTestGateway(opts);
}
