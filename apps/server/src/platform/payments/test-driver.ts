import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { publicOrigin, type Config } from '../../config.js';
import { runPrepared, type Db } from '../../db/client.js';
import { testAccountLinks, testCheckoutSessions, testConnectAccounts, testRefunds, testTransfers } from '../../db/schema/index.js';
import { cardFee } from '@marquee/core';
import { createBatcher } from '../batcher.js';
import type { Jobs } from '../jobs.js';
import { AccountRefused, DESTINATION_NOT_FOUND, RefundRefused, TransferRefused, type CheckoutInput, type PaymentGateway } from './gateway.js';

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

// One statement for the checkout sessions of a batch of PLACE ORDERs (platform/batcher.ts; it runs on
// every order, bench/README.md): the tenants' hosts, the sessions and their expiry jobs. $1 is the
// batch as JSON, one item per session with its position n. Like Stripe, the same idempotency key
// answers the session it created the first time: ON CONFLICT DO UPDATE (a no-op) returns the
// existing row even when a concurrent request with the same key committed it after this statement
// began, which DO NOTHING followed by a read in the same statement would not see. (Two requests of
// one key in the same batch make the statement fail; the batcher then runs each on its own.) Only a
// newly inserted session (its id is the one generated here) gets the expiry job: Stripe sends
// checkout.session.expired when a session lapses, and so does the test gateway; the job row is what
// jobs.enqueue would write.
const CREATE_CHECKOUTS_SQL = `
with req as (
  select * from jsonb_to_recordset($1::jsonb) as r(
    n int, tenant_id uuid, id text, order_id uuid, order_uid text, amount int, currency text, email text,
    description text, success_url text, cancel_url text, idempotency_key text, expires_at timestamptz)
),
session as (
  insert into test_checkout_sessions
    (tenant_id, id, order_id, order_uid, amount, currency, email, description, success_url, cancel_url, idempotency_key, expires_at)
  select r.tenant_id, r.id, r.order_id, r.order_uid, r.amount, r.currency, r.email, r.description, r.success_url,
    r.cancel_url, r.idempotency_key, r.expires_at
  from req r join tenants t on t.id = r.tenant_id
  on conflict (tenant_id, idempotency_key) do update set idempotency_key = excluded.idempotency_key
  returning tenant_id, id, idempotency_key
),
expiry as (
  insert into jobs (name, payload, run_at, dedupe_key)
  select $2::text, jsonb_build_object('tenantId', s.tenant_id, 'sessionId', s.id), r.expires_at, 'test-expire:' || s.id
  from session s join req r on r.tenant_id = s.tenant_id and r.id = s.id
  on conflict (dedupe_key) do nothing
)
select r.n, t.url, s.id as session_id
from req r join tenants t on t.id = r.tenant_id join session s on s.tenant_id = r.tenant_id and s.idempotency_key = r.idempotency_key`;

type SessionRequest = CheckoutInput & { sessionId: string };

async function createSessions(db: Db, batch: SessionRequest[]): Promise<Array<{ url: string; sessionId: string } | null>> {
  const items = batch.map((i, n) => ({
    n,
    tenant_id: i.tenantId,
    id: i.sessionId,
    order_id: i.orderId,
    order_uid: i.orderUid,
    amount: i.amount,
    currency: i.currency,
    email: i.email,
    description: i.description,
    success_url: i.successUrl,
    cancel_url: i.cancelUrl,
    idempotency_key: i.idempotencyKey,
    expires_at: i.expiresAt.toISOString(),
  }));
  const rows = await runPrepared(db, 'mq_test_create_checkouts', CREATE_CHECKOUTS_SQL, [JSON.stringify(items), TEST_EXPIRE_JOB]);
  const byN = new Map(rows.map((r) => [Number(r.n), { url: String(r.url), sessionId: String(r.session_id) }]));
  return batch.map((_, n) => byN.get(n) ?? null);
}

export function createTestGateway(opts: { db: Db; jobs: Jobs; config: Config }): PaymentGateway {
  const { db, config } = opts;
  const sessions = createBatcher((_key, batch: SessionRequest[]) => createSessions(db, batch));
  return {
    name: 'test',
    expiresByOrder: true,
    async createCheckout(input: CheckoutInput) {
      assertHttpUrl(input.successUrl, 'successUrl');
      assertHttpUrl(input.cancelUrl, 'cancelUrl');
      if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error('amount must be positive integer cents');
      const row = await sessions.submit('sessions', { ...input, sessionId: newTestId('cs_test') });
      if (!row) throw new Error(`unknown tenant ${input.tenantId}`);
      return { sessionId: row.sessionId, url: `${publicOrigin(config, row.url)}/pay/${row.sessionId}` };
    },
    // The test gateway's refunds are final when it answers (no webhook): docs/decisions.md
    // "Order management and refunds". It refuses, as Stripe does, more than what is left of the charge.
    async refund(input) {
      if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new RefundRefused('refund amount must be positive integer cents');
      const [existing] = await db.select({ id: testRefunds.id }).from(testRefunds).where(eq(testRefunds.idempotencyKey, input.idempotencyKey));
      if (existing) return { refundId: existing.id, status: 'succeeded' as const };
      const [charged] = await db
        .select({ amount: testCheckoutSessions.amount })
        .from(testCheckoutSessions)
        .where(and(eq(testCheckoutSessions.chargeId, input.chargeId), eq(testCheckoutSessions.status, 'complete')));
      if (!charged) throw new RefundRefused(`No such charge: ${input.chargeId}`);
      const [given] = await db
        .select({ total: sql<number>`coalesce(sum(${testRefunds.amount}), 0)::int` })
        .from(testRefunds)
        .where(eq(testRefunds.chargeId, input.chargeId));
      if (input.amount > charged.amount - Number(given?.total ?? 0)) throw new RefundRefused('Refund amount is greater than the unrefunded amount on the charge.');
      await db
        .insert(testRefunds)
        .values({ id: newTestId('re_test'), chargeId: input.chargeId, amount: input.amount, idempotencyKey: input.idempotencyKey })
        .onConflictDoNothing({ target: testRefunds.idempotencyKey });
      const [row] = await db.select({ id: testRefunds.id }).from(testRefunds).where(eq(testRefunds.idempotencyKey, input.idempotencyKey));
      if (!row) throw new Error('test refund vanished');
      return { refundId: row.id, status: 'succeeded' as const };
    },
    async expireCheckout(input) {
      // An open session past its expires_at is expired (payments' sessionState); its expiry job still
      // sends checkout.session.expired at the original time, as the webhook handler expects of Stripe.
      await db
        .update(testCheckoutSessions)
        .set({ expiresAt: sql`least(${testCheckoutSessions.expiresAt}, now())` })
        .where(and(eq(testCheckoutSessions.tenantId, input.tenantId), eq(testCheckoutSessions.orderId, input.orderId), eq(testCheckoutSessions.status, 'open')));
    },
    async settlement(input) {
      // TEST_GATEWAY_FEE_* (Stripe's 2.9% + 30c by default); available PAYOUT_DELAY_DAYS after payment.
      return {
        fee: cardFee(input.amount, config.testGatewayFee),
        availableOn: new Date(input.paidAt.getTime() + config.payoutDelayDays * 86_400_000),
      };
    },
    async transfer(input) {
      if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error('transfer amount must be positive integer cents');
      // Like Stripe Connect: no connected account, no transfer.
      if (!input.destination) throw new TransferRefused(`This tenant has no connected account: ${DESTINATION_NOT_FOUND}.`, { destinationMissing: true });
      // An account this gateway made takes transfers only once its onboarding is done (Stripe: the
      // transfers capability is inactive until then). Other ids are taken as given.
      const [made] = await db.select({ payoutsEnabled: testConnectAccounts.payoutsEnabled }).from(testConnectAccounts).where(eq(testConnectAccounts.id, input.destination));
      if (made && !made.payoutsEnabled) throw new TransferRefused(`The tenant's connected account ${input.destination} has not finished onboarding, so it cannot receive transfers yet.`);
      await db
        .insert(testTransfers)
        .values({ id: newTestId('tr_test'), destination: input.destination, amount: input.amount, transferGroup: input.payoutId, idempotencyKey: input.payoutId })
        .onConflictDoNothing({ target: testTransfers.idempotencyKey });
      const [row] = await db.select({ id: testTransfers.id }).from(testTransfers).where(eq(testTransfers.idempotencyKey, input.payoutId));
      if (!row) throw new Error('test transfer vanished');
      return { transferId: row.id };
    },
    async findTransfer(input) {
      const [row] = await db.select({ id: testTransfers.id, amount: testTransfers.amount }).from(testTransfers).where(eq(testTransfers.transferGroup, input.payoutId));
      return row ? { transferId: row.id, amount: row.amount } : null;
    },
    testMode: true,
    // Connect's stand-in: the accounts and links live in our own tables, and the hosted onboarding is
    // a page on this server (modules/payment-settings/onboarding-page.ts) that finishes or leaves the
    // form and sends the holder back to the return URL, as Stripe's does.
    async createConnectedAccount(input) {
      await db
        .insert(testConnectAccounts)
        .values({ id: newTestId('acct_test'), tenantId: input.tenantId, email: input.email, businessName: input.businessName, idempotencyKey: input.idempotencyKey })
        .onConflictDoNothing({ target: testConnectAccounts.idempotencyKey });
      const [row] = await db.select({ id: testConnectAccounts.id }).from(testConnectAccounts).where(eq(testConnectAccounts.idempotencyKey, input.idempotencyKey));
      if (!row) throw new Error('test account vanished');
      return { accountId: row.id };
    },
    async createOnboardingLink(input) {
      assertHttpUrl(input.returnUrl, 'returnUrl');
      assertHttpUrl(input.refreshUrl, 'refreshUrl');
      const [account] = await db.select({ id: testConnectAccounts.id }).from(testConnectAccounts).where(eq(testConnectAccounts.id, input.accountId));
      if (!account) throw new AccountRefused(`No such account: '${input.accountId}'`);
      const id = randomBytes(24).toString('base64url');
      const expiresAt = new Date(Date.now() + TEST_ACCOUNT_LINK_SECONDS * 1000);
      await db.insert(testAccountLinks).values({ id, accountId: account.id, returnUrl: input.returnUrl, refreshUrl: input.refreshUrl, expiresAt });
      return { url: `${publicOrigin(config)}${TEST_ONBOARDING_PATH}/${id}`, expiresAt };
    },
    async connectedAccountStatus(input) {
      const [row] = await db
        .select({ detailsSubmitted: testConnectAccounts.detailsSubmitted, payoutsEnabled: testConnectAccounts.payoutsEnabled })
        .from(testConnectAccounts)
        .where(eq(testConnectAccounts.id, input.accountId));
      if (!row) throw new AccountRefused(`No such account: '${input.accountId}'`);
      return row;
    },
  };
}

// ---- the stand-in's hosted onboarding ------------------------------------------------------------

/** Stripe's Account Links expire a few minutes after they are made; so do ours. */
export const TEST_ACCOUNT_LINK_SECONDS = 300;
export const TEST_ONBOARDING_PATH = '/connect/onboard';

export type TestOnboarding = {
  linkId: string;
  accountId: string;
  businessName: string;
  email: string;
  returnUrl: string;
  refreshUrl: string;
  /** open: the form can be sent; used or expired: the link sends its holder to refreshUrl, as Stripe's does. */
  state: 'open' | 'used' | 'expired';
};

/** The onboarding behind a link token, or null when there is none. */
export async function findTestOnboarding(db: Db, linkId: string, now = new Date()): Promise<TestOnboarding | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(linkId)) return null;
  const [row] = await db
    .select({ link: testAccountLinks, businessName: testConnectAccounts.businessName, email: testConnectAccounts.email })
    .from(testAccountLinks)
    .innerJoin(testConnectAccounts, eq(testConnectAccounts.id, testAccountLinks.accountId))
    .where(eq(testAccountLinks.id, linkId));
  if (!row) return null;
  const l = row.link;
  const state = l.usedAt ? 'used' : l.expiresAt.getTime() <= now.getTime() ? 'expired' : 'open';
  return { linkId: l.id, accountId: l.accountId, businessName: row.businessName, email: row.email, returnUrl: l.returnUrl, refreshUrl: l.refreshUrl, state };
}

/**
 * The holder sent the stand-in's form: the link is used up, and with `finish` the account is done
 * (details submitted, payouts enabled) at once, where Stripe would verify it first. Answers where
 * the holder goes next: the return URL, or the refresh URL when the link was used or had expired.
 */
export async function submitTestOnboarding(db: Db, linkId: string, finish: boolean): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [link] = await tx
      .update(testAccountLinks)
      .set({ usedAt: new Date() })
      .where(and(eq(testAccountLinks.id, linkId), isNull(testAccountLinks.usedAt), sql`${testAccountLinks.expiresAt} > now()`))
      .returning();
    if (!link) {
      const [any] = await tx.select({ refreshUrl: testAccountLinks.refreshUrl }).from(testAccountLinks).where(eq(testAccountLinks.id, linkId));
      return any?.refreshUrl ?? null;
    }
    if (finish) await tx.update(testConnectAccounts).set({ detailsSubmitted: true, payoutsEnabled: true }).where(eq(testConnectAccounts.id, link.accountId));
    return link.returnUrl;
  });
}
