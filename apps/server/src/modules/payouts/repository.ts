import type { Facilitator, PayoutLineKind } from '@marquee/core';
import { and, asc, count, eq, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { events, orders, paymentSettings, payoutHolds, payoutLines, payouts, payoutSettings, tenants } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

// SQL of the payouts module. Every query that reads a tenant's rows names the tenant (or is a
// platform-wide read behind the platform guard).

export type PayoutLineRow = typeof payoutLines.$inferSelect;
export type PayoutRow = typeof payouts.$inferSelect;

// ---- payout lines: written from paid orders and succeeded refunds --------------------------------

/** Which orders a line sync looks at: all, or one order's (the job queued by its payment or refund). */
export type LineScope = { tenantId: string; orderId: string } | ReadonlyArray<{ tenantId: string; orderId: string }> | undefined;

/**
 * The orders of a scope (one order, or several: issue 26 "mail4", the payout lines jobs of a sale run
 * together) as a condition on a tenant and an order column. An empty list matches no order.
 */
function inScope(tenantCol: unknown, orderCol: unknown, scope: NonNullable<LineScope>): SQL {
  const list = 'length' in scope ? scope : [scope];
  if (list.length === 1) return sql`${tenantCol} = ${list[0]!.tenantId} and ${orderCol} = ${list[0]!.orderId}`;
  if (list.length === 0) return sql`false`;
  const keys = JSON.stringify(list.map((o) => ({ t: o.tenantId, o: o.orderId })));
  return sql`(${tenantCol}, ${orderCol}) in (select x.t, x.o from jsonb_to_recordset(${keys}::jsonb) as x(t uuid, o uuid))`;
}

/** Paid orders that have no sale line yet, oldest first, with what the line needs. */
export async function ordersWithoutLine(db: DbOrTx, limit: number, scope?: LineScope) {
  return db
    .select({
      tenantId: orders.tenantId,
      orderId: orders.id,
      eventId: orders.eventId,
      totalAmount: orders.totalAmount,
      platformTotal: orders.platformTotal,
      chargeId: orders.chargeId,
      paidAt: orders.paidAt,
      paymentType: paymentSettings.paymentType,
      chargeSurchargeFeesToPlatform: paymentSettings.chargeSurchargeFeesToPlatform,
    })
    .from(orders)
    .leftJoin(paymentSettings, eq(paymentSettings.tenantId, orders.tenantId))
    .where(
      and(
        sql`${orders.paidAt} is not null`,
        sql`${orders.totalAmount} > 0`,
        // Cash and card-terminal orders never went through the platform: they get a netting line instead.
        sql`coalesce(${orders.paymentMethod}, '') not in ${OFFLINE_METHODS}`,
        sql`not exists (select 1 from payout_lines l where l.order_id = ${orders.id} and l.kind = 'sale')`,
        scope ? inScope(orders.tenantId, orders.id, scope) : undefined,
      ),
    )
    .orderBy(asc(orders.paidAt), asc(orders.id))
    .limit(limit);
}

/** True when the order is paid, has money to pay out and still has no sale line. */
export async function paidOrderWithoutLine(db: DbOrTx, scope: { tenantId: string; orderId: string }): Promise<boolean> {
  return (await ordersWithoutLine(db, 1, scope)).length > 0;
}

/**
 * How a box-office order was paid when its money never went through the platform (issue 23): the
 * tenant holds it, so the order's payout line is a netting line (docs/payouts.md "Netting").
 */
export const OFFLINE_PAYMENT_METHODS = ['cash', 'card_terminal'] as const;
const OFFLINE_METHODS = sql.raw(`(${OFFLINE_PAYMENT_METHODS.map((m) => `'${m}'`).join(', ')})`);

const rowCountOf = (result: unknown): number =>
  (result as { rowCount?: number | null }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0;

/**
 * Netting lines (issue 23), one statement each, safe to run twice: every paid cash or card-terminal
 * order whose platform share is above 0 gets one line that moves no money (gross 0) and takes that
 * share from the tenant's next payout (tenant_total = -platform_total), available when paid; every
 * succeeded refund of such an order gives the platform's part of it back the same way (tenant_total
 * = +platform_amount). Facilitator as the tenant's sale lines, frozen when written.
 */
export async function insertNettingLines(db: DbOrTx, scope?: LineScope | { tenantId: string }): Promise<number> {
  const onlyOrders = !scope ? sql`` : 'length' in scope || 'orderId' in scope ? sql`and ${inScope(sql`o.tenant_id`, sql`o.id`, scope)}` : sql`and o.tenant_id = ${scope.tenantId}`;
  const sales = await db.execute(sql`
    insert into payout_lines (tenant_id, id, order_id, event_id, kind, refund_id, gross_amount, gateway_fee, tenant_total,
      platform_total, net_amount, facilitator, charge_gateway_fees_to_platform, balance_available_on, on_hold)
    select o.tenant_id, gen_random_uuid(), o.id, o.event_id, 'netting', null, 0, 0, -o.platform_total,
      o.platform_total, 0, case when ps.payment_type = 'tenant' then 'tenant' else 'platform' end,
      coalesce(ps.charge_surcharge_fees_to_platform, false), o.paid_at, false
    from orders o
    left join payment_settings ps on ps.tenant_id = o.tenant_id
    where o.paid_at is not null and o.platform_total > 0 and o.payment_method in ${OFFLINE_METHODS} ${onlyOrders}
      and not exists (select 1 from payout_lines l where l.order_id = o.id and l.kind = 'netting' and l.refund_id is null)
    on conflict do nothing`);
  const onlyRefunds = !scope ? sql`` : 'length' in scope || 'orderId' in scope ? sql`and ${inScope(sql`r.tenant_id`, sql`r.order_id`, scope)}` : sql`and r.tenant_id = ${scope.tenantId}`;
  const refunds = await db.execute(sql`
    insert into payout_lines (tenant_id, id, order_id, event_id, kind, refund_id, gross_amount, gateway_fee, tenant_total,
      platform_total, net_amount, facilitator, charge_gateway_fees_to_platform, balance_available_on, on_hold)
    select r.tenant_id, gen_random_uuid(), r.order_id, r.event_id, 'netting', r.id, 0, 0, r.platform_amount,
      -r.platform_amount, 0, n.facilitator, n.charge_gateway_fees_to_platform, r.updated_at, false
    from refunds r
    join payout_lines n on n.tenant_id = r.tenant_id and n.order_id = r.order_id and n.kind = 'netting' and n.refund_id is null
    where r.status = 'succeeded' and r.platform_amount > 0 ${onlyRefunds}
      and not exists (select 1 from payout_lines l where l.refund_id = r.id)
    on conflict do nothing`);
  return rowCountOf(sales) + rowCountOf(refunds);
}

/** Lines written in one statement; one that exists already (the same order's sale, the same refund's line) is left as it is. */
export async function insertLines(db: DbOrTx, lines: Array<typeof payoutLines.$inferInsert>) {
  if (lines.length === 0) return;
  await db.insert(payoutLines).values(lines).onConflictDoNothing();
}

/**
 * Succeeded refunds of orders that have a sale line become negative lines of the same tenant,
 * available at once (the money already went back). One statement, safe to run twice. Scoped to one
 * order, or to one tenant (a transfer takes every open refund line of its tenant).
 */
export async function insertRefundLines(db: DbOrTx, scope?: LineScope | { tenantId: string }): Promise<number> {
  const only = !scope ? sql`` : 'length' in scope || 'orderId' in scope ? sql`and ${inScope(sql`r.tenant_id`, sql`r.order_id`, scope)}` : sql`and r.tenant_id = ${scope.tenantId}`;
  const result = await db.execute(sql`
    insert into payout_lines (tenant_id, id, order_id, event_id, kind, refund_id, gross_amount, gateway_fee, tenant_total,
      platform_total, net_amount, facilitator, charge_gateway_fees_to_platform, balance_available_on, on_hold)
    select r.tenant_id, gen_random_uuid(), r.order_id, r.event_id, 'refund', r.id, -r.amount, 0, -r.tenant_amount,
      -r.platform_amount, -r.amount, s.facilitator, s.charge_gateway_fees_to_platform, r.updated_at, false
    from refunds r
    join payout_lines s on s.tenant_id = r.tenant_id and s.order_id = r.order_id and s.kind = 'sale'
    where r.status = 'succeeded' ${only}
      and not exists (select 1 from payout_lines l where l.refund_id = r.id)
    on conflict do nothing`);
  return (result as unknown as { rowCount?: number | null; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0;
}

// ---- lists --------------------------------------------------------------------------------------

/** SQL's copy of core payoutLineReady for a line at `at` (db/functions/mq-payout-line-ready.sql). */
const lineReady = (at: SQL) =>
  sql`mq_payout_line_ready(${payoutLines.kind}, ${payoutLines.facilitator}, ${payoutLines.onHold}, ${payoutLines.payoutId}, ${payoutLines.payoutCompletedAt}, ${payoutLines.balanceAvailableOn}, ${at})`;

const lineDate = sql`(case when ${payoutLines.kind} = 'sale' then coalesce(${orders.paidAt}, ${payoutLines.createdAt}) else ${payoutLines.createdAt} end)`;

/** spec §5 payout filters on the order rows (pending table, payout transactions, payout breakdown). */
export const PAYOUT_LINE_LIST: ListSpec = {
  fields: {
    'details.orderUID': { expr: orders.orderUid, type: 'text', match: 'contains' },
    'details.eventName': { expr: events.name, type: 'text', match: 'contains' },
    'details.tenantURL': { expr: tenants.url, type: 'text', match: 'contains' },
    'details.payoutId': { expr: sql`coalesce(${payoutLines.payoutId}::text, '')`, type: 'text' },
    'details.tenantId': { expr: sql`${payoutLines.tenantId}::text`, type: 'text' },
    'details.eventId': { expr: sql`${payoutLines.eventId}::text`, type: 'text' },
    'details.onHold': { expr: payoutLines.onHold, type: 'boolean' },
    'details.facilitator': { expr: payoutLines.facilitator, type: 'text' },
    'details.kind': { expr: payoutLines.kind, type: 'text' },
    'details.paymentMethod': { expr: sql`coalesce(${orders.paymentMethod}, '')`, type: 'text' },
    'details.channel': { expr: orders.channel, type: 'text' },
    'details.payoutCompleted': { expr: sql`(${payoutLines.payoutCompletedAt} is not null)`, type: 'boolean' },
    // The status column's 'Ready For Payout' (core payoutLineReady), now.
    'details.ready': { expr: lineReady(sql`now()`), type: 'boolean' },
    'details.dateCreated': { expr: lineDate, type: 'timestamp' },
    'details.balanceAvailableOn': { expr: payoutLines.balanceAvailableOn, type: 'timestamp' },
    'details.grossAmount': { expr: payoutLines.grossAmount, type: 'number' },
    'details.tenantTotal': { expr: payoutLines.tenantTotal, type: 'number' },
    'details.platformTotal': { expr: payoutLines.platformTotal, type: 'number' },
    'details.gatewayFee': { expr: payoutLines.gatewayFee, type: 'number' },
  },
  id: payoutLines.id,
  defaultSort: '-details.dateCreated',
};

const lineColumns = {
  line: payoutLines,
  orderUid: orders.orderUid,
  chargeId: orders.chargeId,
  paymentMethod: orders.paymentMethod,
  channel: orders.channel,
  eventName: sql<string>`coalesce(${events.name}, '')`,
  tenantUrl: sql<string>`coalesce(${tenants.url}, '')`,
  tenantName: sql<string>`coalesce(${tenants.name}, '')`,
  dateCreated: sql<Date>`${lineDate}`.mapWith((v: string | Date) => new Date(v)),
};
export type LineListRow = { line: PayoutLineRow; orderUid: string; chargeId: string | null; paymentMethod: string | null; channel: string; eventName: string; tenantUrl: string; tenantName: string; dateCreated: Date };

export async function listLines(db: DbOrTx, scope: SQL | undefined, q: CompiledList): Promise<{ rows: Array<LineListRow & { _sort: unknown; _id: unknown }>; total: number }> {
  const rows = await db
    .select({ ...lineColumns, _sort: q.sortKey, _id: q.idKey })
    .from(payoutLines)
    .innerJoin(orders, and(eq(orders.tenantId, payoutLines.tenantId), eq(orders.id, payoutLines.orderId)))
    .leftJoin(events, and(eq(events.tenantId, payoutLines.tenantId), eq(events.id, payoutLines.eventId)))
    .leftJoin(tenants, eq(tenants.id, payoutLines.tenantId))
    .where(and(scope, q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db
    .select({ n: count() })
    .from(payoutLines)
    .innerJoin(orders, and(eq(orders.tenantId, payoutLines.tenantId), eq(orders.id, payoutLines.orderId)))
    .leftJoin(events, and(eq(events.tenantId, payoutLines.tenantId), eq(events.id, payoutLines.eventId)))
    .leftJoin(tenants, eq(tenants.id, payoutLines.tenantId))
    .where(and(scope, q.where));
  return { rows: rows as Array<LineListRow & { _sort: unknown; _id: unknown }>, total: total?.n ?? 0 };
}

export const openLines = () => isNull(payoutLines.payoutCompletedAt);
export const linesOfTenant = (tenantId: string) => eq(payoutLines.tenantId, tenantId);
export const linesOfPayout = (tenantId: string, payoutId: string) => and(eq(payoutLines.tenantId, tenantId), eq(payoutLines.payoutId, payoutId));

// ---- completed payouts --------------------------------------------------------------------------

const payoutOrderUids = sql<string[]>`coalesce((select array_agg(distinct o.order_uid order by o.order_uid) from payout_lines l join orders o on o.tenant_id = l.tenant_id and o.id = l.order_id where l.tenant_id = ${payouts.tenantId} and l.payout_id = ${payouts.id}), '{}')`;
const payoutEventNames = sql<string>`coalesce((select string_agg(distinct e.name, ', ' order by e.name) from payout_lines l join events e on e.tenant_id = l.tenant_id and e.id = l.event_id where l.tenant_id = ${payouts.tenantId} and l.payout_id = ${payouts.id}), '')`;
const payoutTicketCount = sql<number>`coalesce((select sum(o.ticket_count) from payout_lines l join orders o on o.tenant_id = l.tenant_id and o.id = l.order_id where l.tenant_id = ${payouts.tenantId} and l.payout_id = ${payouts.id} and l.kind = 'sale'), 0)::int`;
const payoutFacilitator = sql<string>`coalesce((select min(l.facilitator) from payout_lines l where l.tenant_id = ${payouts.tenantId} and l.payout_id = ${payouts.id}), 'platform')`;

export const COMPLETED_PAYOUT_LIST: ListSpec = {
  fields: {
    'details.payoutId': { expr: sql`${payouts.id}::text`, type: 'text', match: 'contains' },
    'details.tenantURL': { expr: tenants.url, type: 'text', match: 'contains' },
    'details.tenantId': { expr: sql`${payouts.tenantId}::text`, type: 'text' },
    'details.eventName': { expr: payoutEventNames, type: 'text', match: 'contains' },
    'details.orderUID': { expr: sql`array_to_string(${payoutOrderUids}, ' ')`, type: 'text', match: 'contains' },
    'details.dateCreated': { expr: payouts.createdAt, type: 'timestamp' },
    'details.grossAmount': { expr: payouts.grossAmount, type: 'number' },
    'details.tenantTotal': { expr: payouts.tenantTotal, type: 'number' },
  },
  id: payouts.id,
  defaultSort: '-details.dateCreated',
};

const payoutColumns = {
  payout: payouts,
  tenantUrl: tenants.url,
  tenantName: tenants.name,
  orderUids: payoutOrderUids,
  eventNames: payoutEventNames,
  ticketCount: payoutTicketCount,
  facilitator: payoutFacilitator,
};
export type PayoutListRow = { payout: PayoutRow; tenantUrl: string; tenantName: string; orderUids: string[]; eventNames: string; ticketCount: number; facilitator: string };

export async function listCompletedPayouts(db: DbOrTx, scope: SQL | undefined, q: CompiledList) {
  const where = and(eq(payouts.status, 'completed'), scope);
  const rows = await db
    .select({ ...payoutColumns, _sort: q.sortKey, _id: q.idKey })
    .from(payouts)
    .innerJoin(tenants, eq(tenants.id, payouts.tenantId))
    .where(and(where, q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(payouts).innerJoin(tenants, eq(tenants.id, payouts.tenantId)).where(and(where, q.where));
  return { rows: rows as Array<PayoutListRow & { _sort: unknown; _id: unknown }>, total: total?.n ?? 0 };
}

/** A completed payout, of one tenant when tenantId is given. */
export async function findCompletedPayout(db: DbOrTx, payoutId: string, tenantId?: string): Promise<PayoutListRow | undefined> {
  const [row] = await db
    .select(payoutColumns)
    .from(payouts)
    .innerJoin(tenants, eq(tenants.id, payouts.tenantId))
    .where(and(eq(payouts.id, payoutId), eq(payouts.status, 'completed'), tenantId ? eq(payouts.tenantId, tenantId) : undefined));
  return row as PayoutListRow | undefined;
}

export const payoutsOfTenant = (tenantId: string) => eq(payouts.tenantId, tenantId);

// ---- holds --------------------------------------------------------------------------------------

/** The order named by its id or its Order ID, within the tenant and event. */
export async function findOrder(db: DbOrTx, p: { tenantId: string; eventId: string; orderRef: string; isUuid: boolean }) {
  const [row] = await db
    .select({ id: orders.id, orderUid: orders.orderUid, eventId: orders.eventId })
    .from(orders)
    .where(and(eq(orders.tenantId, p.tenantId), p.isUuid ? eq(orders.id, p.orderRef) : eq(orders.orderUid, p.orderRef)));
  return row && row.eventId === p.eventId ? row : undefined;
}

export async function lockSaleLine(tx: Tx, tenantId: string, orderId: string): Promise<PayoutLineRow | undefined> {
  const [row] = await tx
    .select()
    .from(payoutLines)
    .where(and(eq(payoutLines.tenantId, tenantId), eq(payoutLines.orderId, orderId), eq(payoutLines.kind, 'sale')))
    .for('update');
  return row;
}

export async function setHold(tx: Tx, tenantId: string, orderId: string, hold: boolean) {
  await tx
    .update(payoutLines)
    .set({ onHold: hold })
    .where(and(eq(payoutLines.tenantId, tenantId), eq(payoutLines.orderId, orderId), isNull(payoutLines.payoutId)));
}

export async function recordHold(tx: Tx, row: typeof payoutHolds.$inferInsert) {
  await tx.insert(payoutHolds).values(row);
}

export async function holdHistory(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select()
    .from(payoutHolds)
    .where(and(eq(payoutHolds.tenantId, tenantId), eq(payoutHolds.orderId, orderId)))
    .orderBy(asc(payoutHolds.createdAt), asc(payoutHolds.id));
}

/** The sale line of an order (order page: payout state). */
export async function findSaleLine(db: DbOrTx, tenantId: string, orderId: string) {
  const [row] = await db
    .select()
    .from(payoutLines)
    .where(and(eq(payoutLines.tenantId, tenantId), eq(payoutLines.orderId, orderId), eq(payoutLines.kind, 'sale')));
  return row;
}

// ---- transfers ----------------------------------------------------------------------------------

export async function ordersByUid(db: DbOrTx, uids: string[]) {
  if (uids.length === 0) return [];
  return db.select({ id: orders.id, tenantId: orders.tenantId, orderUid: orders.orderUid }).from(orders).where(inArray(orders.orderUid, uids));
}

/**
 * Locks the lines a transfer may take, in id order (one lock order for every writer): the chosen
 * orders' open lines, and every open refund and netting line of the tenant, which are carried into its next payout.
 */
export async function lockTransferLines(tx: Tx, tenantId: string, orderIds: string[]): Promise<Array<PayoutLineRow & { orderUid: string }>> {
  const rows = await tx
    .select({ line: payoutLines, orderUid: orders.orderUid })
    .from(payoutLines)
    .innerJoin(orders, and(eq(orders.tenantId, payoutLines.tenantId), eq(orders.id, payoutLines.orderId)))
    .where(
      and(
        eq(payoutLines.tenantId, tenantId),
        sql`(${inArray(payoutLines.orderId, orderIds)} or (${payoutLines.kind} in ('refund', 'netting') and ${payoutLines.payoutId} is null))`,
      ),
    )
    .orderBy(asc(payoutLines.id))
    .for('update', { of: payoutLines });
  return rows.map((r) => ({ ...r.line, orderUid: r.orderUid }));
}

export async function transferDestination(db: DbOrTx, tenantId: string): Promise<{ destination: string | null; chargeGatewayFeesToPlatform: boolean }> {
  const [row] = await db
    .select({ ref: paymentSettings.paymentRef, customer: paymentSettings.gatewayCustomerId, toPlatform: paymentSettings.chargeSurchargeFeesToPlatform })
    .from(paymentSettings)
    .where(eq(paymentSettings.tenantId, tenantId));
  return { destination: row?.ref || row?.customer || null, chargeGatewayFeesToPlatform: row?.toPlatform ?? false };
}

export async function insertPayout(tx: Tx, row: typeof payouts.$inferInsert) {
  await tx.insert(payouts).values(row);
}

/** Claims the lines for the payout; answers how many it claimed (all or the caller rolls back). */
export async function claimLines(tx: Tx, tenantId: string, payoutId: string, lineIds: string[]): Promise<number> {
  const rows = await tx
    .update(payoutLines)
    .set({ payoutId, lastFailure: null })
    .where(and(eq(payoutLines.tenantId, tenantId), inArray(payoutLines.id, lineIds), isNull(payoutLines.payoutId)))
    .returning({ id: payoutLines.id });
  return rows.length;
}

export async function lockSendingPayout(tx: Tx, payoutId: string): Promise<PayoutRow | undefined> {
  const [row] = await tx.select().from(payouts).where(and(eq(payouts.id, payoutId), eq(payouts.status, 'sending'))).for('update');
  return row;
}

/**
 * A payout's lines locked in id order, the order lockTransferLines takes them in: a transfer
 * claiming lines while another payout of the tenant completes or fails would otherwise lock the
 * same rows in two orders and deadlock (seen on PostgreSQL with concurrent transfers).
 */
async function lockPayoutLines(tx: Tx, tenantId: string, payoutId: string) {
  await tx
    .select({ id: payoutLines.id })
    .from(payoutLines)
    .where(and(eq(payoutLines.tenantId, tenantId), eq(payoutLines.payoutId, payoutId)))
    .orderBy(asc(payoutLines.id))
    .for('update');
}

export async function completePayout(tx: Tx, p: { tenantId: string; payoutId: string; transferId: string }) {
  await lockPayoutLines(tx, p.tenantId, p.payoutId);
  await tx
    .update(payouts)
    .set({ status: 'completed', transferId: p.transferId, completedAt: new Date() })
    .where(and(eq(payouts.tenantId, p.tenantId), eq(payouts.id, p.payoutId)));
  await tx
    .update(payoutLines)
    .set({ payoutCompletedAt: new Date() })
    .where(and(eq(payoutLines.tenantId, p.tenantId), eq(payoutLines.payoutId, p.payoutId)));
}

export async function failPayout(tx: Tx, p: { tenantId: string; payoutId: string; failure: string }) {
  await lockPayoutLines(tx, p.tenantId, p.payoutId);
  await tx.update(payouts).set({ status: 'failed', failure: p.failure }).where(and(eq(payouts.tenantId, p.tenantId), eq(payouts.id, p.payoutId)));
  await tx
    .update(payoutLines)
    .set({ payoutId: null, lastFailure: p.failure })
    .where(and(eq(payoutLines.tenantId, p.tenantId), eq(payoutLines.payoutId, p.payoutId)));
}

/** Payouts still 'sending' since before `before`: a crash or a lost answer left them. */
export async function staleSendingPayouts(db: DbOrTx, before: Date, limit: number) {
  return db
    .select({ id: payouts.id, tenantId: payouts.tenantId, amount: payouts.amount })
    .from(payouts)
    .where(and(eq(payouts.status, 'sending'), lte(payouts.createdAt, before)))
    .orderBy(asc(payouts.createdAt))
    .limit(limit);
}

/** The orders whose sale line is ready now (core payoutLineReady), by tenant: the weekly automatic run. */
export async function readyOrderUids(db: DbOrTx, now: Date) {
  return db
    .select({ tenantId: payoutLines.tenantId, orderUid: orders.orderUid })
    .from(payoutLines)
    .innerJoin(orders, and(eq(orders.tenantId, payoutLines.tenantId), eq(orders.id, payoutLines.orderId)))
    .where(and(isNull(payoutLines.payoutCompletedAt), lineReady(sql`${now.toISOString()}::timestamptz`)))
    .orderBy(asc(payoutLines.tenantId), asc(orders.orderUid));
}

export async function weeklyAutomatic(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ on: payoutSettings.weeklyAutomatic }).from(payoutSettings).where(eq(payoutSettings.id, 'payouts'));
  return row?.on ?? false;
}

export async function setWeeklyAutomatic(db: DbOrTx, on: boolean) {
  await db
    .insert(payoutSettings)
    .values({ id: 'payouts', weeklyAutomatic: on })
    .onConflictDoUpdate({ target: payoutSettings.id, set: { weeklyAutomatic: on, updatedAt: new Date() } });
}


export async function tenantNames(db: DbOrTx, tenantId: string): Promise<{ url: string; name: string } | null> {
  const [row] = await db.select({ url: tenants.url, name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  return row ?? null;
}

export async function tenantContact(db: DbOrTx, tenantId: string) {
  const [row] = await db.select({ email: tenants.email, name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  return row;
}

/** A line as core's payout rules read it (payoutLineReady, payoutLineBlocker, payoutRowStatus). */
export const lineFacts = (l: PayoutLineRow) => ({
  kind: l.kind as PayoutLineKind,
  facilitator: l.facilitator as Facilitator,
  onHold: l.onHold,
  payoutCompleted: l.payoutCompletedAt !== null,
  inPayout: l.payoutId !== null && l.payoutCompletedAt === null,
  balanceAvailableOn: l.balanceAvailableOn,
});

/**
 * What the tenant is due and what it owes (issue 23, docs/payouts.md "Netting"), over its lines that
 * no payout has taken: due = its open platform-facilitated sale lines' shares (held or not, available
 * or not: they will be paid); owed = its open refund and netting lines (what the next payout takes).
 */
export async function tenantBalance(db: DbOrTx, tenantId: string): Promise<{ due: number; owed: number; nettingOrders: number }> {
  const [row] = await db
    .select({
      due: sql<number>`coalesce(sum(${payoutLines.tenantTotal}) filter (where ${payoutLines.kind} = 'sale' and ${payoutLines.facilitator} = 'platform'), 0)::int`,
      owed: sql<number>`coalesce(-sum(${payoutLines.tenantTotal}) filter (where ${payoutLines.kind} in ('refund', 'netting')), 0)::int`,
      nettingOrders: sql<number>`count(distinct ${payoutLines.orderId}) filter (where ${payoutLines.kind} = 'netting')::int`,
    })
    .from(payoutLines)
    .where(and(eq(payoutLines.tenantId, tenantId), isNull(payoutLines.payoutId)));
  return { due: row?.due ?? 0, owed: row?.owed ?? 0, nettingOrders: row?.nettingOrders ?? 0 };
}
