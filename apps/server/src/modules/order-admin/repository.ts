import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, orderActions, orders, refunds, tenants, tickets, users } from '../../db/schema/index.js';
import { UUID_RE } from '../../platform/auth/guard.js';

export type OrderRow = typeof orders.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type OrderActionRow = typeof orderActions.$inferSelect;

/** Statuses of an order that was paid for (spec §4 Order status: processing and completed). */
export const PAID_STATUSES = ['processing', 'completed'] as const;
/** Refunds that count against what is left to refund: asked for, or given. */
export const LIVE_REFUND_STATUSES = ['pending', 'succeeded'] as const;
/**
 * A duplicate payment's refund gives back a second charge, not part of the order's own payment:
 * it never counts against the order (docs/decisions.md "Order management and refunds").
 */
export const NOT_ORDER_MONEY = 'duplicate_payment';

export async function findOrderOfEvent(db: DbOrTx, tenantId: string, eventId: string, orderUid: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.eventId, eventId), eq(orders.orderUid, orderUid)));
  return row ?? null;
}

export async function findEventName(db: DbOrTx, tenantId: string, eventId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: events.name })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row?.name ?? null;
}

export async function findEventStatus(db: DbOrTx, tenantId: string, eventId: string): Promise<string | null> {
  const [row] = await db
    .select({ status: events.status })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row?.status ?? null;
}

export async function ticketsOf(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select({ ticket: tickets, voidedByEmail: users.email })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.voidedBy))
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId)))
    .orderBy(asc(tickets.createdAt), asc(tickets.ticketTypeName), asc(tickets.ticketUid));
}

/**
 * The ticket by its uuid (the order page) or by the Ticket ID printed on it (the Ticket List's
 * details.ticketId): spec §7 void names only "ticketId", and both screens send theirs.
 */
export async function lockTicket(tx: DbOrTx, tenantId: string, orderId: string, ticketId: string): Promise<TicketRow | null> {
  const byId = UUID_RE.test(ticketId) ? eq(tickets.id, ticketId) : eq(tickets.ticketUid, ticketId);
  const [row] = await tx
    .select()
    .from(tickets)
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId), byId))
    .for('update');
  return row ?? null;
}

export async function setTicketVoid(
  tx: DbOrTx,
  t: { tenantId: string; ticketIds: string[]; voided: boolean; reason: string; userId: string | null },
) {
  if (t.ticketIds.length === 0) return;
  await tx
    .update(tickets)
    .set({ voided: t.voided, voidReason: t.reason, voidedAt: new Date(), voidedBy: t.userId })
    .where(and(eq(tickets.tenantId, t.tenantId), inArray(tickets.id, t.ticketIds)));
}

export async function refundsOf(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select({ refund: refunds, createdByEmail: users.email })
    .from(refunds)
    .leftJoin(users, eq(users.id, refunds.createdBy))
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId)))
    .orderBy(desc(refunds.createdAt), desc(refunds.id));
}

/** What the order's own payment has given back or is giving back: the sum and the platform's part. */
export async function liveRefundTotals(db: DbOrTx, tenantId: string, orderId: string): Promise<{ amount: number; platform: number }> {
  const [row] = await db
    .select({
      amount: sql<number>`coalesce(sum(${refunds.amount}), 0)::int`,
      platform: sql<number>`coalesce(sum(${refunds.platformAmount}), 0)::int`,
    })
    .from(refunds)
    .where(
      and(
        eq(refunds.tenantId, tenantId),
        eq(refunds.orderId, orderId),
        inArray(refunds.status, [...LIVE_REFUND_STATUSES]),
        ne(refunds.kind, NOT_ORDER_MONEY),
      ),
    );
  return { amount: Number(row?.amount ?? 0), platform: Number(row?.platform ?? 0) };
}

/** Tickets a live refund voided: they stay voided (the money for them went back). */
export async function refundedTicketIds(db: DbOrTx, tenantId: string, orderId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: refunds.id, ticketIds: refunds.ticketIds })
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId), inArray(refunds.status, [...LIVE_REFUND_STATUSES])));
  const out = new Map<string, string>();
  for (const r of rows) for (const t of r.ticketIds) out.set(t, r.id);
  return out;
}

export async function insertRefund(tx: DbOrTx, row: Omit<typeof refunds.$inferInsert, 'id'> & { id?: string }): Promise<RefundRow> {
  const [inserted] = await tx
    .insert(refunds)
    .values({ ...row, id: row.id ?? randomUUID() })
    .returning();
  return inserted!;
}

/** The system's refund of one whole charge (late or duplicate payment), if it was already written. */
export async function findChargeRefund(db: DbOrTx, tenantId: string, orderId: string, chargeId: string, kind: string): Promise<RefundRow | null> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId), eq(refunds.chargeId, chargeId), eq(refunds.kind, kind)));
  return row ?? null;
}

export async function findRefund(db: DbOrTx, refundId: string): Promise<RefundRow | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, refundId));
  return row ?? null;
}

export async function findRefundByProviderId(db: DbOrTx, provider: string, providerRefundId: string): Promise<RefundRow | null> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.provider, provider), eq(refunds.providerRefundId, providerRefundId)));
  return row ?? null;
}

export async function lockRefund(tx: DbOrTx, tenantId: string, refundId: string): Promise<RefundRow | null> {
  const [row] = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.id, refundId)))
    .for('update');
  return row ?? null;
}

export async function updateRefund(
  tx: DbOrTx,
  tenantId: string,
  refundId: string,
  set: Partial<Pick<RefundRow, 'status' | 'providerRefundId' | 'failureReason'>>,
) {
  await tx
    .update(refunds)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.id, refundId)));
}

/**
 * orders.refunded_amount is the sum of the order's succeeded refunds (its own payment's), and
 * refunded says some money went back: both recomputed from the rows, never added to.
 */
export async function syncOrderRefunded(tx: DbOrTx, tenantId: string, orderId: string) {
  const given = sql`(select coalesce(sum(r.amount), 0)::int from refunds r
    where r.tenant_id = ${tenantId} and r.order_id = ${orderId} and r.status = 'succeeded' and r.kind <> ${NOT_ORDER_MONEY})`;
  await tx
    .update(orders)
    .set({ refundedAmount: given, refunded: sql`${given} > 0`, updatedAt: new Date() })
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
}

export async function insertAction(
  tx: DbOrTx,
  a: { tenantId: string; orderId: string; ticketId?: string | null; action: string; reason?: string; userId: string | null; userEmail: string | null; details?: unknown },
) {
  await tx.insert(orderActions).values({
    tenantId: a.tenantId,
    id: randomUUID(),
    orderId: a.orderId,
    ticketId: a.ticketId ?? null,
    action: a.action,
    reason: a.reason ?? '',
    userId: a.userId,
    userEmail: a.userEmail,
    details: a.details === undefined ? null : JSON.stringify(a.details),
  });
}

export async function actionsOf(db: DbOrTx, tenantId: string, orderId: string): Promise<OrderActionRow[]> {
  return db
    .select()
    .from(orderActions)
    .where(and(eq(orderActions.tenantId, tenantId), eq(orderActions.orderId, orderId)))
    .orderBy(desc(orderActions.createdAt), desc(orderActions.id));
}

// ---- event cancellation ----------------------------------------------------------------------

/** Paid orders of an event that took money (free orders have nothing to give back), by id after `afterId`. */
export async function paidOrderIds(db: DbOrTx, tenantId: string, eventId: string, afterId: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.tenantId, tenantId),
        eq(orders.eventId, eventId),
        inArray(orders.status, [...PAID_STATUSES]),
        sql`${orders.totalAmount} > 0`,
        isNotNull(orders.chargeId),
        afterId ? sql`${orders.id} > ${afterId}` : undefined,
      ),
    )
    .orderBy(asc(orders.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The jobs that refund one order of a cancelled event: the first try, then one per retry (service.ts). */
export const cancelRefundJobKey = (orderId: string, retry = 0) => (retry > 0 ? `cancel-refund:${orderId}:retry-${retry}` : `cancel-refund:${orderId}`);

export type CancellationStateRow = {
  orderUid: string;
  state: 'pending' | 'refunded' | 'retrying' | 'failed' | 'not_needed';
  /** The latest cancellation refund's amount, or what is still held before the first. */
  amount: number;
  tries: number;
  nextTryAt: Date | null;
  failureReason: string | null;
};

/**
 * Each paid order of the event (that took money) with the state of the refund its cancellation
 * owes it (core CANCELLATION_REFUND_STATES). One statement over the event's orders, its refunds
 * (grouped once, through their event index) and the retry jobs of the orders that failed: a
 * failed try is `retrying` while the job that made it or the next try's job is still to run.
 * `maxTries` is core CANCEL_REFUND_MAX_TRIES.
 */
function cancellationStatesSql(tenantId: string, eventId: string, maxTries: number, orderId?: string) {
  return sql`
    with paid as (
      select o.id, o.order_uid, o.total_amount from orders o
      where o.tenant_id = ${tenantId} and o.event_id = ${eventId} and o.status in ('processing', 'completed')
        and o.total_amount > 0 and o.charge_id is not null ${orderId ? sql`and o.id = ${orderId}` : sql``}
    ),
    rr as (
      select r.order_id,
        sum(r.amount) filter (where r.status in ('pending', 'succeeded')) as live,
        sum(r.amount) filter (where r.status in ('pending', 'succeeded') and r.kind = 'event_cancelled') as c_live,
        sum(r.amount) filter (where r.status = 'succeeded' and r.kind = 'event_cancelled') as c_refunded,
        sum(r.amount) filter (where r.status = 'succeeded' and r.kind <> 'event_cancelled') as elsewhere,
        count(*) filter (where r.kind = 'event_cancelled') as tries,
        count(*) filter (where r.kind = 'event_cancelled' and r.status = 'failed') as failures
      from refunds r
      where r.tenant_id = ${tenantId} and r.event_id = ${eventId} and r.kind <> ${NOT_ORDER_MONEY} ${orderId ? sql`and r.order_id = ${orderId}` : sql``}
      group by r.order_id
    ),
    latest as (
      select distinct on (r.order_id) r.order_id, r.status, r.amount, r.failure_reason from refunds r
      where r.tenant_id = ${tenantId} and r.event_id = ${eventId} and r.kind = 'event_cancelled' ${orderId ? sql`and r.order_id = ${orderId}` : sql``}
      order by r.order_id, r.created_at desc, r.id desc
    ),
    per as (
      select p.id, p.order_uid, p.total_amount,
        coalesce(rr.live, 0)::bigint as live, coalesce(rr.c_live, 0)::bigint as c_live, coalesce(rr.c_refunded, 0)::bigint as c_refunded,
        coalesce(rr.elsewhere, 0)::bigint as elsewhere, coalesce(rr.tries, 0)::int as tries, coalesce(rr.failures, 0)::int as failures,
        l.status as latest_status, l.amount as latest_amount, l.failure_reason
      from paid p left join rr on rr.order_id = p.id left join latest l on l.order_id = p.id
    ),
    st as (
      select per.*, nxt.run_at as next_try_at,
        case
          when per.latest_status = 'pending' then 'pending'
          when per.total_amount - per.live <= 0 then (case when per.latest_status is null then 'not_needed' else 'refunded' end)
          when per.latest_status is null then 'pending'
          when per.latest_status = 'succeeded' then 'refunded'
          when nxt.id is not null or cur.id is not null then 'retrying'
          else 'failed'
        end as state
      from per
      left join jobs nxt on per.latest_status = 'failed' and per.failures < ${maxTries}
        and nxt.dedupe_key = 'cancel-refund:' || per.id::text || ':retry-' || per.failures and nxt.done_at is null and nxt.failed_at is null
      left join jobs cur on per.latest_status = 'failed' and per.failures < ${maxTries}
        and cur.dedupe_key = case when per.failures <= 1 then 'cancel-refund:' || per.id::text else 'cancel-refund:' || per.id::text || ':retry-' || (per.failures - 1) end
        and cur.done_at is null and cur.failed_at is null
    )`;
}

type Rows = { rows: Array<Record<string, unknown>> };
const rowsOf = async (db: DbOrTx, q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as Rows).rows;

function toStateRow(r: Record<string, unknown>): CancellationStateRow {
  const held = Math.max(0, Number(r.total_amount) - Number(r.live));
  return {
    orderUid: String(r.order_uid),
    state: r.state as CancellationStateRow['state'],
    amount: r.latest_amount === null || r.latest_amount === undefined ? held : Number(r.latest_amount),
    tries: Number(r.tries ?? 0),
    nextTryAt: r.next_try_at ? new Date(r.next_try_at as string) : null,
    failureReason: (r.failure_reason as string | null) ?? null,
  };
}

/** One order's cancellation refund state, or null when the order took no money (free, unpaid). */
export async function cancellationStateOf(db: DbOrTx, tenantId: string, eventId: string, orderId: string, maxTries: number): Promise<CancellationStateRow | null> {
  const rows = await rowsOf(db, sql`${cancellationStatesSql(tenantId, eventId, maxTries, orderId)} select * from st`);
  return rows[0] ? toStateRow(rows[0]) : null;
}

/**
 * The event's paid orders by the state of their cancellation refund, with the amounts: what the
 * cancellation gives back (its live refunds and what is still held), what it gave back, and what
 * refunds from the order pages gave back; and the orders whose refund failed (failed first).
 */
export async function cancellationCounts(db: DbOrTx, tenantId: string, eventId: string, maxTries: number, problemLimit: number) {
  const base = cancellationStatesSql(tenantId, eventId, maxTries);
  const [counts, problems, notices] = await Promise.all([
    rowsOf(
      db,
      sql`${base} select
        count(*) filter (where state <> 'not_needed')::int as total,
        count(*) filter (where state = 'refunded')::int as refunded,
        count(*) filter (where state = 'failed')::int as failed,
        count(*) filter (where state = 'retrying')::int as retrying,
        count(*) filter (where state = 'pending')::int as pending,
        count(*) filter (where state = 'not_needed')::int as already_refunded,
        coalesce(sum(c_live + greatest(total_amount - live, 0)) filter (where state <> 'not_needed'), 0)::bigint as to_refund,
        coalesce(sum(c_refunded), 0)::bigint as refunded_amount,
        coalesce(sum(elsewhere), 0)::bigint as refunded_elsewhere
      from st`,
    ),
    rowsOf(db, sql`${base} select * from st where state in ('failed', 'retrying') order by state, order_uid limit ${problemLimit}`),
    rowsOf(
      db,
      sql`select count(*)::int as n from orders o where o.tenant_id = ${tenantId} and o.event_id = ${eventId}
        and o.status in ('processing', 'completed') and o.email <> ''`,
    ),
  ]);
  const c = counts[0] ?? {};
  const n = (k: string) => Number(c[k] ?? 0);
  return {
    total: n('total'),
    refunded: n('refunded'),
    failed: n('failed'),
    retrying: n('retrying'),
    pending: n('pending'),
    alreadyRefunded: n('already_refunded'),
    toRefund: n('to_refund'),
    refundedAmount: n('refunded_amount'),
    refundedElsewhere: n('refunded_elsewhere'),
    notices: Number(notices[0]?.n ?? 0),
    problems: problems.map(toStateRow),
  };
}

/** Orders of an event that someone paid for or was issued (free ones too) with an address to tell, by id after `afterId`. */
export async function buyerOrderIds(db: DbOrTx, tenantId: string, eventId: string, afterId: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.tenantId, tenantId),
        eq(orders.eventId, eventId),
        inArray(orders.status, [...PAID_STATUSES]),
        sql`${orders.email} <> ''`,
        afterId ? sql`${orders.id} > ${afterId}` : undefined,
      ),
    )
    .orderBy(asc(orders.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** What the cancellation notice needs: the order, its event and the organiser's name and contact. */
export async function cancellationNoticeOf(db: DbOrTx, tenantId: string, orderId: string) {
  const [row] = await db
    .select({ order: orders, eventName: events.name, eventStatus: events.status, startDateTime: events.startDateTime, timeZone: events.timeZone, organiser: tenants.name, contactEmail: tenants.email })
    .from(orders)
    .innerJoin(events, and(eq(events.tenantId, orders.tenantId), eq(events.id, orders.eventId)))
    .innerJoin(tenants, eq(tenants.id, orders.tenantId))
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
  return row ?? null;
}
