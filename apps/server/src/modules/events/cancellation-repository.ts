import { NOT_ORDER_MONEY } from '@marquee/core';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';

// What a cancelled event's refunds have come to, read for the event page (cancellation.ts) and
// each order page (modules/order-admin). One statement over the event's orders, refunds and the
// refund jobs that modules/order-admin queues with the keys below.

/** The jobs that refund one order of a cancelled event: the first try, then one per retry (modules/order-admin/refund-cancelled-order.ts). */
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
  const [counts, problems, notices, owed, owedRows] = await Promise.all([
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
    // Issue 23: the cancellation's refunds of box-office orders (cash, card terminal) wait at the box
    // office, pending with no gateway to ask, until staff settle them (then they count as settled).
    rowsOf(
      db,
      sql`select count(distinct r.order_id) filter (where r.status = 'pending')::int as orders,
          coalesce(sum(r.amount) filter (where r.status = 'pending'), 0)::bigint as amount,
          count(distinct r.order_id) filter (where r.status = 'succeeded')::int as settled_orders,
          coalesce(sum(r.amount) filter (where r.status = 'succeeded'), 0)::bigint as settled_amount
        from refunds r
        where r.tenant_id = ${tenantId} and r.event_id = ${eventId} and r.kind = 'event_cancelled' and r.provider = 'box_office'`,
    ),
    // The same refunds one by one (oldest first), for the event page's Settle buttons.
    rowsOf(
      db,
      sql`select o.order_uid, r.id, r.amount, o.payment_method, trim(o.first_name || ' ' || o.last_name) as full_name from refunds r
        join orders o on o.tenant_id = r.tenant_id and o.id = r.order_id
        where r.tenant_id = ${tenantId} and r.event_id = ${eventId} and r.kind = 'event_cancelled' and r.status = 'pending' and r.provider = 'box_office'
        order by r.created_at, r.id limit ${problemLimit}`,
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
    owedAtBoxOffice: { orders: Number(owed[0]?.orders ?? 0), amount: Number(owed[0]?.amount ?? 0) },
    settledAtBoxOffice: { orders: Number(owed[0]?.settled_orders ?? 0), amount: Number(owed[0]?.settled_amount ?? 0) },
    owedRefunds: owedRows.map((r) => ({
      orderUID: String(r.order_uid),
      refundId: String(r.id),
      amount: Number(r.amount),
      paymentMethod: String(r.payment_method ?? ''),
      fullName: String(r.full_name ?? ''),
    })),
  };
}
