import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { publicOrigin, type Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { tenants, testCheckoutSessions, testRefunds } from '../../db/schema/index.js';
import type { Jobs } from '../jobs.js';
import type { CheckoutInput, PaymentGateway } from './gateway.js';

// The built-in gateway (PAYMENT_DRIVER=test, the default): a hosted pay page on our own server
// (modules/payments/pay-page) stands in for Stripe Checkout, and its completion arrives as a
// signed webhook, exactly like Stripe's, so the order code has one path for both drivers.

export const TEST_EXPIRE_JOB = 'payments.test-expire';
export const TEST_SIGNATURE_HEADER = 'x-marquee-signature';
/** Seconds a signed test webhook stays acceptable (Stripe's default tolerance). */
export const TEST_WEBHOOK_TOLERANCE_SECONDS = 300;

export const newTestId = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

/** The webhook key is derived from SECRET so it never doubles as the file-URL signing key. */
function webhookKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('marquee/payments/test-webhook/v1').digest();
}

/** Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function signTestWebhook(secret: string, rawBody: string | Buffer, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', webhookKey(secret)).update(`${timestamp}.`).update(rawBody).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** True when one of the header's v1 signatures matches the body and its timestamp is recent. */
export function verifyTestWebhook(
  secret: string,
  rawBody: Buffer,
  header: string | undefined,
  now = Math.floor(Date.now() / 1000),
  toleranceSeconds = TEST_WEBHOOK_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(now - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signTestWebhook(secret, rawBody, t).split('v1=')[1]!, 'hex');
  return parts
    .filter(([k, v]) => k === 'v1' && v && /^[0-9a-f]{64}$/.test(v))
    .some(([, v]) => timingSafeEqual(Buffer.from(v!, 'hex'), expected));
}

function assertHttpUrl(url: string, what: string) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${what} must be an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${what} must be http(s)`);
}

export function createTestGateway(opts: { db: Db; jobs: Jobs; config: Config }): PaymentGateway {
  const { db, jobs, config } = opts;
  return {
    name: 'test',
    async createCheckout(input: CheckoutInput) {
      assertHttpUrl(input.successUrl, 'successUrl');
      assertHttpUrl(input.cancelUrl, 'cancelUrl');
      if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error('amount must be positive integer cents');
      const [tenant] = await db.select({ url: tenants.url }).from(tenants).where(eq(tenants.id, input.tenantId));
      if (!tenant) throw new Error(`unknown tenant ${input.tenantId}`);
      const id = newTestId('cs_test');
      // Like Stripe, the same idempotency key answers the session it created the first time.
      await db
        .insert(testCheckoutSessions)
        .values({
          tenantId: input.tenantId,
          id,
          orderId: input.orderId,
          orderUid: input.orderUid,
          amount: input.amount,
          currency: input.currency,
          email: input.email,
          description: input.description,
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          idempotencyKey: input.idempotencyKey,
          expiresAt: input.expiresAt,
        })
        .onConflictDoNothing({ target: [testCheckoutSessions.tenantId, testCheckoutSessions.idempotencyKey] });
      const [session] = await db
        .select({ id: testCheckoutSessions.id })
        .from(testCheckoutSessions)
        .where(and(eq(testCheckoutSessions.tenantId, input.tenantId), eq(testCheckoutSessions.idempotencyKey, input.idempotencyKey)));
      if (!session) throw new Error('test checkout session vanished');
      if (session.id === id) {
        // Stripe sends checkout.session.expired when a session lapses; so does the test gateway.
        await jobs.enqueue(db, TEST_EXPIRE_JOB, { tenantId: input.tenantId, sessionId: id }, { runAt: input.expiresAt, dedupeKey: `test-expire:${id}` });
      }
      return { sessionId: session.id, url: `${publicOrigin(config, tenant.url)}/pay/${session.id}` };
    },
    async refund(input) {
      if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error('refund amount must be positive integer cents');
      const [charged] = await db
        .select({ amount: testCheckoutSessions.amount })
        .from(testCheckoutSessions)
        .where(and(eq(testCheckoutSessions.chargeId, input.chargeId), eq(testCheckoutSessions.status, 'complete')));
      if (!charged) throw new Error(`no such test charge: ${input.chargeId}`);
      if (input.amount > charged.amount) throw new Error('refund exceeds the amount charged');
      await db
        .insert(testRefunds)
        .values({ id: newTestId('re_test'), chargeId: input.chargeId, amount: input.amount, idempotencyKey: input.idempotencyKey })
        .onConflictDoNothing({ target: testRefunds.idempotencyKey });
      const [row] = await db.select({ id: testRefunds.id }).from(testRefunds).where(eq(testRefunds.idempotencyKey, input.idempotencyKey));
      if (!row) throw new Error('test refund vanished');
      return { refundId: row.id };
    },
  };
}
