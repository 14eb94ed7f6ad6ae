import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { orderLines, orders, tickets } from '../../db/schema/index.js';
import { drawerMoveCtes, drawersMoveCtes, type SaleCashMove } from '../cash-drawers/repository.js';
import type { OrderInsert } from '../orders/repository.js';

// The box office's SQL (issue 23, docs/box-office.md). Its inventory step is the website's:
// mq_take_holds (src/db/functions/mq-take-holds.sql), called inside the sale's transaction.

export type OrderRow = typeof orders.$inferSelect;

/** takeAndPay's verdict when a cash sale's seller has no open drawer (nothing taken). */
export const NO_DRAWER = 'noDrawer';

/** One order for mq_take_holds, as checkout/repository.ts holdItem builds it for the website. */
export type TakeItem = {
  order: { tenant_id: string; id: string; event_id: string; charity_id: null; waiting_room_visitor_id: null };
  lines: Array<{ id: string; qty: number; price: number; name: string }>;
  discountCodeId: string | null;
  admissionOrders: null;
};

/**
 * Takes the order's tickets, its discount code use and the event's capacity (mq_take_holds, under
 * the one lock order: ticket types, discount codes, the event, each FOR UPDATE until the transaction
 * ends) and, when it took them, turns the sale's draft order paid in the same statement: the locks
 * are held from here to the commit, so the fewer statements after the take, the shorter every other
 * sale of the event waits. The verdict is mq_take_holds's ('ok', or why not; nothing paid then).
 *
 * `drawer` (a cash sale, issue 23 box): the seller's open cash drawer is locked and the sale's cash
 * moved into it by the same statement, before the take (the take's CTE reads the drawer's, so the
 * drawer's row lock is taken first: the lock order has drawers before ticket types). Without an open
 * drawer nothing is taken: the answer is 'noDrawer'.
 */
export async function takeAndPay(
  tx: DbOrTx,
  item: TakeItem,
  paid: TakePaid,
  drawer?: TakeDrawer,
): Promise<string> {
  const res = (await tx.execute(takeAndPaySql(item, paid, drawer))) as unknown as { rows: Array<{ verdict: string | null; paid: number }> };
  const row = res.rows[0];
  const verdict = row?.verdict ?? 'changed';
  if (verdict === 'ok' && Number(row?.paid) !== 1) throw new Error(`box-office sale ${paid.orderId}: taken but not paid`);
  return verdict;
}

export type TakePaid = { tenantId: string; orderId: string; paidAt: Date; provider: string; paymentMethod: string };
export type TakeDrawer = { userId: string; movementId: string; amount: number };

/** takeAndPaySql's verdict, in one trip, when the sale's order was not inserted (its key was taken first). */
export const KEY_TAKEN = 'keyTaken';

/**
 * takeAndPay's statement. `oneTrip` (issue 23 perreq: the statement is sent after the order's
 * insert and before the COMMIT in one message, db/client.ts runInOneTrip): nothing is taken unless
 * the order's insert wrote it (KEY_TAKEN: its key was another sale's), and anything but a sale taken
 * and paid raises (mq_sale_verdict, SQLSTATE MQ423 with the verdict as its message), so that the
 * COMMIT after it never runs for a refused sale.
 */
export function takeAndPaySql(item: TakeItem, paid: TakePaid, drawer?: TakeDrawer, oneTrip = false): SQL {
  const take = sql`mq_take_holds(${JSON.stringify([item])}::jsonb)`;
  // The order's insert wrote the order (one trip only: a taken key wrote nothing, and then nothing is taken).
  const inserted = sql`exists (select 1 from ${orders} where tenant_id = ${paid.tenantId}::uuid and id = ${paid.orderId}::uuid)`;
  const verdict = drawer
    ? oneTrip
      ? sql`case when not ${inserted} then array[${KEY_TAKEN}::text] when exists (select 1 from d) then ${take} else array[${NO_DRAWER}::text] end`
      : sql`case when exists (select 1 from d) then ${take} else array[${NO_DRAWER}::text] end`
    : oneTrip
      ? sql`case when not ${inserted} then array[${KEY_TAKEN}::text] else ${take} end`
      : take;
  const answer = oneTrip
    ? sql`mq_sale_verdict((select v[1] from taken), (select count(*) from paid)::int) as verdict`
    : sql`(select v[1] from taken) as verdict, (select count(*) from paid)::int as paid`;
  return sql`
    with ${
      drawer
        ? sql`${drawerMoveCtes({ tenantId: paid.tenantId, userId: drawer.userId, id: drawer.movementId, kind: 'sale', orderId: paid.orderId, refundId: null, amount: drawer.amount })},`
        : sql``
    }
    taken as (select ${verdict} as v),
    paid as (
      update ${orders} set status = 'processing', paid_at = ${paid.paidAt.toISOString()}::timestamptz, payment_provider = ${paid.provider},
        payment_method = ${paid.paymentMethod}, updated_at = now()
      where tenant_id = ${paid.tenantId}::uuid and id = ${paid.orderId}::uuid and status = 'draft' and (select v[1] from taken) = 'ok'
      returning id)
    select ${answer}${drawer ? sql`, (select count(*) from m)::int as moved` : sql``}`;
}

/**
 * Issue 23 (bo4): takeAndPaySql in one trip for a batch of sales of one event that reached this
 * node together (sell.ts sellInOneTrip), sent after their orders' inserts and before the COMMIT in
 * one message. In the lock order (every drawer is read, so locked, by the count before the take;
 * a seller has at most one open drawer): the sellers' open drawers in id order with each cash sale's
 * movement (`d`, `m`; kind 2a), then ONE take of every sale (mq_take_holds with the batch: ticket
 * types, discount codes, the event, each locked once), then every order turned paid (the rollup,
 * kind 7). All or nothing: unless every order was inserted (a key taken raises KEY_TAKEN), every
 * cash sale's seller has an open drawer (NO_DRAWER), every sale was taken and every order paid, it
 * raises (mq_sale_verdict) and nothing of the message is committed; the caller then makes each
 * sale alone, so that each refusal is the one a sale alone gets.
 */
export function takeAndPayBatchSql(tenantId: string, sales: Array<{ item: TakeItem; paid: TakePaid; drawer?: TakeDrawer }>): SQL {
  const n = sales.length;
  const moves: SaleCashMove[] = sales.flatMap((s) => (s.drawer ? [{ userId: s.drawer.userId, id: s.drawer.movementId, orderId: s.paid.orderId, amount: s.drawer.amount }] : []));
  const paid = JSON.stringify(sales.map((s) => ({ id: s.paid.orderId, paid_at: s.paid.paidAt.toISOString(), provider: s.paid.provider, payment_method: s.paid.paymentMethod })));
  const take = sql`mq_take_holds(${JSON.stringify(sales.map((s) => s.item))}::jsonb)`;
  return sql`
    with ${drawersMoveCtes(tenantId, moves)},
    pv as (
      select * from jsonb_to_recordset(${paid}::jsonb) as x(id uuid, paid_at timestamptz, provider text, payment_method text)),
    taken as (
      select case
        when (select count(*) from ${orders} o where o.tenant_id = ${tenantId}::uuid and o.id in (select id from pv)) <> ${n}::int then array[${KEY_TAKEN}::text]
        when (select count(*) from d) < (select count(distinct user_id) from mv) then array[${NO_DRAWER}::text]
        else ${take} end as v),
    verdicts as (
      select count(*) filter (where x = 'ok') = ${n}::int as ok, (array_agg(x) filter (where x <> 'ok'))[1] as refused from taken, unnest(v) x),
    paid as (
      update ${orders} o set status = 'processing', paid_at = pv.paid_at, payment_provider = pv.provider, payment_method = pv.payment_method, updated_at = now()
      from pv
      where o.tenant_id = ${tenantId}::uuid and o.id = pv.id and o.status = 'draft' and (select ok from verdicts)
      returning 1)
    select mq_sale_verdict(
      case when (select ok from verdicts) then 'ok' else coalesce((select refused from verdicts), 'changed') end,
      case when (select count(*) from paid) = ${n}::int then 1 else 0 end) as verdict, (select count(*) from m)::int as moved`;
}

/** snapshotUnchangedSql's verdict: the snapshot the sale was priced from is not the database's any more. */
export const SNAPSHOT_STALE = 'stale';

/**
 * Issue 23 (bo3): the first statement of a one-trip sale priced from a kept checkout snapshot:
 * raises (mq_sale_verdict, SNAPSHOT_STALE) unless `current`, the snapshot's version as the
 * database has it now (checkout/repository.ts checkoutSnapshotVersionSql), is `version`. It reads
 * and locks nothing else, so the lock order is the sale's as before.
 */
export function snapshotUnchangedSql(current: SQL, version: string): SQL {
  return sql`select case when ${current} is not distinct from ${version}::text then 'ok' else mq_sale_verdict(${SNAPSHOT_STALE}::text, 0) end as fresh`;
}

/** The verdict a one-trip sale's statement raised (mq_sale_verdict, SQLSTATE MQ423), or null for any other error. */
export function saleVerdictOf(err: unknown): { verdict: string; paid: number } | null {
  const e = err as { code?: unknown; message?: unknown; detail?: unknown };
  if (e?.code !== 'MQ423' || typeof e.message !== 'string') return null;
  return { verdict: e.message, paid: Number(e.detail ?? 0) };
}

type SaleLine = { ticketTypeId: string; ticketName: string; unitPrice: number; quantity: number };

/** A row as jsonb_populate_record reads it: its columns by their names in the database. */
function byColumnName<T extends Record<string, unknown>>(table: Record<string, unknown>, row: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === undefined) continue;
    const column = table[k] as { name?: string } | undefined;
    if (!column?.name) throw new Error(`no column ${k}`);
    out[column.name] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

/**
 * The sale's draft order, its lines and its tickets, in one statement. The order's idempotency key
 * is unique per tenant (a partial unique index): a second sale with the same key waits here for the
 * first to commit or roll back, and then writes nothing (false) or goes on (true). So the key is the
 * first thing a sale locks (lock order kind 0, docs/architecture.md) and it costs no statement of its own.
 * `more` writes what the paid order queues in the same statement (orders/payment.ts paidFollowUpCtes).
 */
export async function insertSale(
  tx: DbOrTx,
  order: OrderInsert,
  lines: SaleLine[],
  ticketRows: Array<typeof tickets.$inferInsert>,
  /** More data-modifying CTEs written with the order (once for the row of the CTE `o`; nothing when the key was taken): the paid order's jobs and event. */
  more?: SQL,
): Promise<boolean> {
  const res = (await tx.execute(insertSaleSql(order, lines, ticketRows, more))) as unknown as { rows: Array<{ inserted: number }> };
  return Number(res.rows[0]?.inserted) === 1;
}

/** insertSale's statement (answers `inserted`: 1, or 0 when the key was taken). */
export function insertSaleSql(order: OrderInsert, lines: SaleLine[], ticketRows: Array<typeof tickets.$inferInsert>, more?: SQL): SQL {
  const o = byColumnName(orders as unknown as Record<string, unknown>, order);
  const oColumns = sql.raw(Object.keys(o).map((c) => `"${c}"`).join(', '));
  const oValues = sql.raw(Object.keys(o).map((c) => `r."${c}"`).join(', '));
  const t = ticketRows.map((row) => byColumnName(tickets as unknown as Record<string, unknown>, row));
  const tKeys = Object.keys(t[0] ?? {});
  const tColumns = sql.raw(tKeys.map((c) => `"${c}"`).join(', '));
  const tValues = sql.raw(tKeys.map((c) => `r."${c}"`).join(', '));
  return sql`
    with o as (
      insert into ${orders} (${oColumns})
      select ${oValues} from jsonb_populate_record(null::${orders}, ${JSON.stringify(o)}::jsonb) r
      on conflict (tenant_id, idempotency_key) where idempotency_key is not null do nothing
      returning tenant_id, id),
    l as (
      insert into ${orderLines} (tenant_id, order_id, ticket_type_id, ticket_name, unit_price, quantity)
      select o.tenant_id, o.id, x.ticket_type_id, x.ticket_name, x.unit_price, x.quantity
      from o, jsonb_to_recordset(${JSON.stringify(lines.map((l) => ({ ticket_type_id: l.ticketTypeId, ticket_name: l.ticketName, unit_price: l.unitPrice, quantity: l.quantity })))}::jsonb)
        as x(ticket_type_id uuid, ticket_name text, unit_price int, quantity int)
      returning 1),
    t as (
      insert into ${tickets} (${tColumns})
      select ${tValues} from o, jsonb_populate_recordset(null::${tickets}, ${JSON.stringify(t)}::jsonb) r
      returning 1)${more ? sql`, ${more}` : sql``}
    select (select count(*) from o)::int as inserted`;
}

/**
 * The sale's idempotency key, locked until the transaction ends (a transaction-level advisory lock
 * on the tenant and key): two sales with one key run one after the other. First in the lock order.
 */
export async function lockSaleKey(tx: DbOrTx, tenantId: string, key: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`box-office:${tenantId}:${key}`}, 0))`);
}

/**
 * Complimentary tickets the event has given out: its comp orders that were not cancelled (read under
 * the event's lock), but for `exceptOrderId` (the sale asking, already paid in its transaction).
 */
export async function complimentaryTicketsOf(tx: DbOrTx, tenantId: string, eventId: string, exceptOrderId?: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${orders.ticketCount}), 0)::int` })
    .from(orders)
    .where(
      and(
        eq(orders.tenantId, tenantId),
        eq(orders.eventId, eventId),
        eq(orders.paymentMethod, 'complimentary'),
        inArray(orders.status, ['processing', 'completed']),
        exceptOrderId ? ne(orders.id, exceptOrderId) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

export async function findOrderByKey(db: DbOrTx, tenantId: string, key: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}
