import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { publicOrigin, type Config } from '../../config.js';
import { runPrepared, type Db } from '../../db/client.js';
import { testCheckoutSessions, testRefunds } from '../../db/schema/index.js';
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

// One statement per checkout session (it runs on every PLACE ORDER; bench/README.md): the tenant's
// host, the session and its expiry job. Like Stripe, the same idempotency key answers the session
// it created the first time: ON CONFLICT DO UPDATE (a no-op) returns the existing row even when a
// concurrent request with the same key committed it after this statement began, which DO NOTHING
// followed by a read in the same statement would not see. Only a newly inserted session (its id is
// the one generated here) gets the expiry job: Stripe sends checkout.session.expired when a session
// lapses, and so does the test gateway; the job row is what jobs.enqueue would write.
const CREATE_CHECKOUT_SQL = `
with tenant as (select url from tenants where id = $1),
session as (
  insert into test_checkout_sessions
    (tenant_id, id, order_id, order_uid, amount, currency, email, description, success_url, cancel_url, idempotency_key, expires_at)
  select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 from tenant
  on conflict (tenant_id, idempotency_key) do update set idempotency_key = excluded.idempotency_key
  returning id
),
expiry as (
  insert into jobs (name, payload, run_at, dedupe_key)
  select $13, jsonb_build_object('tenantId', $1::uuid, 'sessionId', session.id), $12, 'test-expire:' || session.id
  from session where session.id = $2
  on conflict (dedupe_key) do nothing
)
select tenant.url, session.id as session_id from tenant, session`;

export function createTestGateway(opts: { db: Db; jobs: Jobs; config: Config }): PaymentGateway {
  const { db, config } = opts;
  return {
    name: 'test',
    async createCheckout(input: CheckoutInput) {
      assertHttpUrl(input.successUrl, 'successUrl');
      assertHttpUrl(input.cancelUrl, 'cancelUrl');
      if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error('amount must be positive integer cents');
      const [row] = await runPrepared(db, 'mq_test_create_checkout', CREATE_CHECKOUT_SQL, [
        input.tenantId,
        newTestId('cs_test'),
        input.orderId,
        input.orderUid,
        input.amount,
        input.currency,
        input.email,
        input.description,
        input.successUrl,
        input.cancelUrl,
        input.idempotencyKey,
        input.expiresAt.toISOString(),
        TEST_EXPIRE_JOB,
      ]);
      if (!row) throw new Error(`unknown tenant ${input.tenantId}`);
      const sessionId = String(row.session_id);
      return { sessionId, url: `${publicOrigin(config, String(row.url))}/pay/${sessionId}` };
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
