import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lte, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { orderActions, orders, paymentEvents, tenants, testCheckoutSessions } from '../../db/schema/index.js';

export type TestSessionRow = typeof testCheckoutSessions.$inferSelect;

export async function findTestSession(db: DbOrTx, tenantId: string, id: string): Promise<TestSessionRow | null> {
  const [row] = await db
    .select()
    .from(testCheckoutSessions)
    .where(and(eq(testCheckoutSessions.tenantId, tenantId), eq(testCheckoutSessions.id, id)));
  return row ?? null;
}

/** A test session on the host of the tenant that created it (a live tenant), in one statement. */
export async function findTestSessionOnHost(db: DbOrTx, tenantUrl: string, id: string): Promise<TestSessionRow | null> {
  const [row] = await db
    .select({ session: testCheckoutSessions })
    .from(testCheckoutSessions)
    .innerJoin(tenants, eq(tenants.id, testCheckoutSessions.tenantId))
    .where(and(eq(tenants.url, tenantUrl), isNull(tenants.deletedAt), eq(testCheckoutSessions.id, id)));
  return row?.session ?? null;
}

/**
 * completeTestSession and, when it completed the session, a job queued, in one statement (the test
 * gateway's pay page, issue 26 "mail2"): `job` is written as jobs.enqueue writes it (due now, 8
 * attempts, a duplicate dedupe key ignored). True when it completed the session.
 */
export async function completeTestSessionWithJob(
  db: DbOrTx,
  tenantId: string,
  id: string,
  chargeId: string,
  now: Date,
  job: { name: string; payload: unknown; dedupeKey: string },
): Promise<boolean> {
  const res = (await db.execute(sql`
    with done as (
      update test_checkout_sessions set status = 'complete', charge_id = ${chargeId}, completed_at = ${now.toISOString()}::timestamptz
      where tenant_id = ${tenantId}::uuid and id = ${id} and status = 'open' and expires_at > ${now.toISOString()}::timestamptz
      returning id),
    job as (
      insert into jobs (name, payload, run_at, dedupe_key, max_attempts)
      select ${job.name}, ${JSON.stringify(job.payload)}::jsonb, now(), ${job.dedupeKey}, 8 from done
      on conflict (dedupe_key) do nothing)
    select count(*)::int as n from done`)) as unknown as { rows: Array<{ n: number | string }> };
  return Number(res.rows[0]?.n ?? 0) === 1;
}

/** open -> expired once its time has passed; null when it was not open or not yet due. */
export async function expireTestSession(db: DbOrTx, tenantId: string, id: string, now: Date) {
  const [row] = await db
    .update(testCheckoutSessions)
    .set({ status: 'expired' })
    .where(
      and(
        eq(testCheckoutSessions.tenantId, tenantId),
        eq(testCheckoutSessions.id, id),
        eq(testCheckoutSessions.status, 'open'),
        lte(testCheckoutSessions.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** The webhook dedupe: true when this provider event is new (and is now recorded). */
export async function recordPaymentEvent(
  tx: DbOrTx,
  event: { provider: string; eventId: string; type: string; orderId: string | null },
): Promise<boolean> {
  const rows = await tx
    .insert(paymentEvents)
    .values(event)
    .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] })
    .returning({ eventId: paymentEvents.eventId });
  return rows.length === 1;
}

/** Records, in the order's audit trail, a payment event whose amount was not the order's total. */
export async function recordAmountMismatch(tx: DbOrTx, a: { tenantId: string; orderId: string; reason: string; details: Record<string, unknown> }) {
  await tx.insert(orderActions).values({ tenantId: a.tenantId, id: randomUUID(), orderId: a.orderId, action: 'payment_mismatch', reason: a.reason, details: JSON.stringify(a.details) });
}

export async function findOrderPayment(db: DbOrTx, tenantId: string, orderId: string) {
  const [row] = await db
    .select({
      id: orders.id,
      status: orders.status,
      totalAmount: orders.totalAmount,
      chargeId: orders.chargeId,
      paymentProvider: orders.paymentProvider,
    })
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
  return row ?? null;
}

/**
 * A payment arrived for an order whose tickets are gone: the order is cancelled and remembers the
 * charge, which the refund job gives back (refunded is set once the gateway confirmed it).
 */
export async function cancelUnfulfillableOrder(
  tx: DbOrTx,
  o: { tenantId: string; orderId: string; provider: string; sessionId: string | null; chargeId: string; paymentMethod: string | null },
) {
  await tx
    .update(orders)
    .set({
      status: 'cancelled',
      paymentProvider: o.provider,
      paymentSessionId: o.sessionId ?? sql`${orders.paymentSessionId}`,
      chargeId: o.chargeId,
      paymentMethod: o.paymentMethod,
      updatedAt: new Date(),
    })
    .where(and(eq(orders.tenantId, o.tenantId), eq(orders.id, o.orderId), notInArray(orders.status, ['processing', 'completed'])));
}
