import { and, asc, eq, getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { runPrepared, type Db, type DbOrTx } from '../../db/client.js';
import { discountCodes, events, jobs, orderLines, orders, surchargeRules, ticketSettings, ticketTypes } from '../../db/schema/index.js';
import * as discounts from '../discounts/repository.js';
import type { EventRow } from '../events/repository.js';
import type { TicketTypeRow } from '../ticket-types/repository.js';

export type OrderRow = typeof orders.$inferSelect;
export type OrderInsert = typeof orders.$inferInsert;
export type OrderLineRow = typeof orderLines.$inferSelect;

// ---- inventory ---------------------------------------------------------------------------------

export type InventoryChange = {
  tenantId: string;
  eventId: string;
  /** Tickets per ticket type: positive takes them from the pool, negative gives them back. */
  deltas: ReadonlyMap<string, number>;
  /** Discount code uses to count (+1: only while usable, 'force': whatever the limit) or give back (-1). */
  discountUses?: ReadonlyArray<{ id: string; op: 'take' | 'force' | 'release' }>;
  /** Taking tickets also requires the event to be on sale. */
  requirePublished?: boolean;
};

export type InventoryResult =
  | { ok: true; taken: Map<string, { name: string; price: number; remaining: number }> }
  | { ok: false; reason: 'ticketType'; ticketTypeId: string }
  | { ok: false; reason: 'discount'; discountCodeId: string }
  | { ok: false; reason: 'capacity' };

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Gives held tickets back and takes them again inside a transaction (expiry, a late payment):
 * architecture rule 7. Rows are locked in one fixed order everywhere, ticket types by id, then
 * discount codes by id, then the event (holdOrder below keeps the same order), so concurrent
 * checkouts, expiries and payments queue behind each other instead of deadlocking. Each take is a
 * conditional UPDATE ... WHERE remaining >= n: nothing is read first, so nothing can oversell.
 * A failed take leaves earlier changes in the transaction: the caller must roll it back.
 */
export async function applyInventory(tx: DbOrTx, change: InventoryChange): Promise<InventoryResult> {
  const { tenantId, eventId } = change;
  const taken = new Map<string, { name: string; price: number; remaining: number }>();
  let total = 0;
  for (const id of [...change.deltas.keys()].sort(byId)) {
    const delta = change.deltas.get(id) ?? 0;
    if (delta === 0) continue;
    total += delta;
    const own = and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId), eq(ticketTypes.id, id));
    if (delta > 0) {
      const [row] = await tx
        .update(ticketTypes)
        .set({ remaining: sql`${ticketTypes.remaining} - ${delta}::int` })
        .where(and(own, sql`${ticketTypes.remaining} >= ${delta}::int`))
        .returning({ name: ticketTypes.name, price: ticketTypes.price, remaining: ticketTypes.remaining });
      if (!row) return { ok: false, reason: 'ticketType', ticketTypeId: id };
      taken.set(id, row);
    } else {
      await tx
        .update(ticketTypes)
        .set({ remaining: sql`${ticketTypes.remaining} + ${-delta}::int` })
        .where(own);
    }
  }

  for (const use of [...(change.discountUses ?? [])].sort((a, b) => byId(a.id, b.id))) {
    if (use.op === 'release') await discounts.releaseUse(tx, tenantId, use.id);
    else if (use.op === 'force') await discounts.forceUse(tx, tenantId, use.id);
    else if (!(await discounts.takeUse(tx, tenantId, use.id))) return { ok: false, reason: 'discount', discountCodeId: use.id };
  }

  const ownEvent = and(eq(events.tenantId, tenantId), eq(events.id, eventId));
  if (total > 0) {
    const [row] = await tx
      .update(events)
      .set({ remainingCapacity: sql`${events.remainingCapacity} - ${total}::int` })
      .where(
        and(
          ownEvent,
          sql`(${events.remainingCapacity} is null or ${events.remainingCapacity} >= ${total}::int)`,
          change.requirePublished ? eq(events.status, 'published') : undefined,
        ),
      )
      .returning({ id: events.id });
    if (!row) return { ok: false, reason: 'capacity' };
  } else if (total < 0) {
    await tx
      .update(events)
      .set({ remainingCapacity: sql`${events.remainingCapacity} + ${-total}::int` })
      .where(and(ownEvent, sql`${events.remainingCapacity} is not null`));
  }
  return { ok: true, taken };
}

// ---- orders ------------------------------------------------------------------------------------

export async function findLines(db: DbOrTx, tenantId: string, orderId: string): Promise<OrderLineRow[]> {
  return db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.tenantId, tenantId), eq(orderLines.orderId, orderId)))
    .orderBy(asc(orderLines.ticketTypeId));
}

/** The order row, locked for the rest of the transaction (payments and expiry queue on it). */
export async function lockOrder(tx: DbOrTx, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

export async function findOrderByUid(db: DbOrTx, tenantId: string, orderUid: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.orderUid, orderUid)));
  return row;
}

/**
 * draft -> expired, once: only the caller whose conditional update matched releases the hold.
 * `dueOnly` leaves drafts whose hold has not run out yet.
 */
export async function expireDraft(
  tx: DbOrTx,
  where: { orderId: string } | { tenantId: string; eventId: string; orderUid: string; email: string },
  dueOnly: boolean,
): Promise<Pick<OrderRow, 'id' | 'tenantId' | 'eventId' | 'discountCodeId'> | undefined> {
  const match =
    'orderId' in where
      ? eq(orders.id, where.orderId)
      : and(eq(orders.tenantId, where.tenantId), eq(orders.eventId, where.eventId), eq(orders.orderUid, where.orderUid), eq(orders.email, where.email));
  const [row] = await tx
    .update(orders)
    .set({ status: 'expired', updatedAt: new Date() })
    .where(and(match, eq(orders.status, 'draft'), dueOnly ? sql`${orders.holdExpiresAt} <= now()` : undefined))
    .returning({ id: orders.id, tenantId: orders.tenantId, eventId: orders.eventId, discountCodeId: orders.discountCodeId });
  return row;
}

export async function updateOrder(tx: DbOrTx, tenantId: string, orderId: string, set: Partial<OrderInsert>) {
  await tx
    .update(orders)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
}

/** Drafts whose hold ran out more than a minute ago: their expiry job was lost or is failing. */
export async function overdueDrafts(db: DbOrTx, limit: number) {
  return db
    .select({ tenantId: orders.tenantId, id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, 'draft'), sql`${orders.holdExpiresAt} < now() - interval '1 minute'`))
    .orderBy(asc(orders.holdExpiresAt))
    .limit(limit);
}

// ---- the checkout's hot path -------------------------------------------------------------------
//
// PLACE ORDER runs two statements of its own: one read and one write. Both are fixed texts sent
// as named prepared statements to PostgreSQL (each connection parses and plans them once), and
// straight to the driver under Drizzle: at hundreds of orders a second, building the SQL and
// planning it again every time cost more than running it (bench/README.md). Their parameters are
// always bound; the texts are built once, from the schema, when this module loads.

type SettingsRow = typeof ticketSettings.$inferSelect;
type RuleRow = typeof surchargeRules.$inferSelect;
type DiscountRow = typeof discountCodes.$inferSelect;

/** A row as Drizzle would return it, from the same row serialised with to_jsonb (snake_case keys). */
function rowFromJson<T>(table: PgTable, json: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    out[key] = value !== null && value !== undefined && column.columnType === 'PgTimestamp' ? new Date(value as string) : (value ?? null);
  }
  return out as T;
}

export type CheckoutSnapshot = {
  event: EventRow;
  types: TicketTypeRow[];
  pricing: { settings: SettingsRow; rule: RuleRow | null } | null;
  /** The discount code asked for, if it exists on this event. */
  discount: DiscountRow | null;
};

const snapshotSql = (match: string) => `
  select to_jsonb(e) as event,
    coalesce((select jsonb_agg(to_jsonb(t) order by t.sort_order, t.created_at, t.id)
              from ${getTableName(ticketTypes)} t where t.tenant_id = e.tenant_id and t.event_id = e.id), '[]'::jsonb) as types,
    (select to_jsonb(s) from ${getTableName(ticketSettings)} s where s.tenant_id = e.tenant_id) as settings,
    coalesce(
      (select to_jsonb(r) from ${getTableName(surchargeRules)} r where r.tenant_id = e.tenant_id and r.id = e.surcharge_rule_id and r.active),
      (select to_jsonb(r) from ${getTableName(surchargeRules)} r join ${getTableName(ticketSettings)} s
         on s.tenant_id = r.tenant_id and s.default_surcharge_rule = r.id
       where r.tenant_id = e.tenant_id)) as rule,
    (select to_jsonb(d) from ${getTableName(discountCodes)} d where d.tenant_id = e.tenant_id and d.event_id = e.id and d.code = $3::text) as discount
  from ${getTableName(events)} e
  where e.tenant_id = $1::uuid and ${match}`;
const SNAPSHOT_BY_ID = snapshotSql('e.id = $2::uuid');
const SNAPSHOT_BY_URL = snapshotSql('e.url_name = $2::text');

/**
 * Everything a checkout reads before it holds, in one round trip: the event, its ticket types in
 * menu order, the tenant's ticket settings and the rule the event is priced by (its own while
 * active, else the tenant's default), and the discount code typed, if any.
 */
export async function findCheckoutSnapshot(
  db: Db,
  where: { tenantId: string; discountCode?: string | null } & ({ eventId: string } | { urlName: string }),
): Promise<CheckoutSnapshot | undefined> {
  const code = where.discountCode ? where.discountCode.toUpperCase() : null;
  const [row] =
    'eventId' in where
      ? await runPrepared(db, 'mq_checkout_snapshot_by_id', SNAPSHOT_BY_ID, [where.tenantId, where.eventId, code])
      : await runPrepared(db, 'mq_checkout_snapshot_by_url', SNAPSHOT_BY_URL, [where.tenantId, where.urlName, code]);
  if (!row) return undefined;
  const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown> | null;
  const settings = parse(row.settings);
  const rule = parse(row.rule);
  const discount = parse(row.discount);
  return {
    event: rowFromJson<EventRow>(events, parse(row.event)!),
    types: (parse(row.types) as unknown as Array<Record<string, unknown>>).map((t) => rowFromJson<TicketTypeRow>(ticketTypes, t)),
    pricing: settings ? { settings: rowFromJson<SettingsRow>(ticketSettings, settings), rule: rule ? rowFromJson<RuleRow>(surchargeRules, rule) : null } : null,
    discount: discount ? rowFromJson<DiscountRow>(discountCodes, discount) : null,
  };
}

export type HoldLine = { ticketTypeId: string; ticketName: string; unitPrice: number; quantity: number };
/**
 * Why a hold was refused. Nothing was written in any case:
 * ticketType / capacity / discount: too few tickets, no capacity, or the code is used up;
 * changed: a ticket type changed or went, the event went off sale, or the code lapsed since it was read.
 */
export type HoldOutcome = { ok: true } | { ok: false; reason: 'ticketType' | 'capacity' | 'discount' | 'changed' };

const CHECK_REASONS: Record<string, 'ticketType' | 'capacity' | 'discount'> = {
  ticket_types_remaining_nonneg: 'ticketType',
  events_remaining_capacity_nonneg: 'capacity',
  discount_codes_usage_within_limit: 'discount',
};

function pgError(err: unknown): { code?: string; constraint?: string } {
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
  }
  return {};
}

/** The order's columns a hold writes, in parameter order from $10. */
const HOLD_ORDER_KEYS = [
  'tenantId', 'id', 'orderUid', 'eventId', 'status', 'source', 'email', 'firstName', 'lastName', 'phone',
  'address1', 'address2', 'city', 'state', 'zipCode', 'country', 'optInEmail', 'optInText', 'discountCode',
  'discountCodeId', 'ticketCount', 'subtotal', 'surcharge', 'processingFee', 'gatewayProcessingFee', 'discount',
  'vat', 'taxRate', 'donation', 'totalAmount', 'tenantTotal', 'platformTotal', 'breakdown', 'holdExpiresAt',
  'viewTokenHash', 'userId', 'paymentProvider',
] as const satisfies ReadonlyArray<keyof OrderInsert>;
export type HoldOrderRow = { [K in (typeof HOLD_ORDER_KEYS)[number]]-?: Exclude<OrderInsert[K], undefined> };

const param = (key: (typeof HOLD_ORDER_KEYS)[number]) => `$${10 + HOLD_ORDER_KEYS.indexOf(key)}`;
const TENANT = param('tenantId');
const EVENT = param('eventId');

// $1..$4 the lines (ticket type ids, quantities, prices, names), $5 the discount code id,
// $6..$9 the expiry job (name, payload, run at, dedupe key), $10.. the order.
// Each part names the one before it, which fixes the order the database runs them in.
const HOLD_SQL = `
  with req (id, qty, price, name) as (select * from unnest($1::uuid[], $2::int[], $3::int[], $4::text[])),
  o as (
    insert into ${getTableName(orders)} (${HOLD_ORDER_KEYS.map((k) => `"${orders[k].name}"`).join(', ')})
    values (${HOLD_ORDER_KEYS.map(param).join(', ')})
    returning id),
  j as (
    insert into ${getTableName(jobs)} (name, payload, run_at, dedupe_key) values ($6::text, $7::jsonb, $8::timestamptz, $9::text)
    on conflict (dedupe_key) do nothing
    returning id),
  locked as (
    select t.id from ${getTableName(ticketTypes)} t join req on req.id = t.id and req.price = t.price and req.name = t.name
    where t.tenant_id = ${TENANT} and t.event_id = ${EVENT} and t.active
      and (t.sales_availability <> 'SALES_AVAILABILITY_OPT_2'
           or (coalesce(t.sales_start_at, '-infinity') <= now() and now() < coalesce(t.sales_end_at, 'infinity')))
      and (select count(*) from o) + (select count(*) from j) >= 0
    order by t.id
    for update of t),
  tt as (
    update ${getTableName(ticketTypes)} t set remaining = t.remaining - req.qty from req
    where t.tenant_id = ${TENANT} and t.id = req.id and t.id in (select id from locked)
    returning t.id),
  dc as (
    update ${getTableName(discountCodes)} set used_count = used_count + 1
    where tenant_id = ${TENANT} and id = $5::uuid and active
      and (starts_at is null or starts_at <= now()) and (ends_at is null or ends_at > now())
      and (select count(*) from tt) > 0
    returning id),
  ev as (
    update ${getTableName(events)} set remaining_capacity = remaining_capacity - (select coalesce(sum(req.qty), 0) from req)::int
    where tenant_id = ${TENANT} and id = ${EVENT} and status = 'published'
      and (select count(*) from tt) > 0 and (select count(*) from dc) >= 0
    returning id),
  l as (
    insert into ${getTableName(orderLines)} (tenant_id, order_id, ticket_type_id, ticket_name, unit_price, quantity)
    select ${TENANT}, o.id, req.id, req.name, req.price,
      case when (select count(*) from tt) = cardinality($1::uuid[])
            and (select count(*) from ev) = 1
            and (select count(*) from dc) = (case when $5::uuid is null then 0 else 1 end)
      then req.qty end
    from o, req
    returning order_id)
  select count(*)::int as lines from l`;

/**
 * PLACE ORDER's hold as ONE statement, committed on its own, all or nothing. The draft order and
 * its hold-expiry job are written first; then the ticket types are locked in id order and
 * decremented, the discount code's use counted and the event's remaining capacity taken (the lock
 * order of applyInventory); last the order's lines. A decrement past zero or a use past the code's
 * limit violates a CHECK constraint; a part that could not be taken leaves the lines' quantity
 * NULL, which NOT NULL refuses: either way the database undoes the whole statement. The hot rows
 * are locked and released inside the database, for as short a time as the last three writes, so
 * a busy app server never stretches a lock.
 */
export async function holdOrder(
  db: Db,
  h: {
    order: HoldOrderRow;
    lines: HoldLine[];
    discountCodeId: string | null;
    job: { name: string; payload: unknown; runAt: Date; dedupeKey: string };
  },
): Promise<HoldOutcome> {
  const values: unknown[] = [
    h.lines.map((l) => l.ticketTypeId),
    h.lines.map((l) => l.quantity),
    h.lines.map((l) => l.unitPrice),
    h.lines.map((l) => l.ticketName),
    h.discountCodeId,
    h.job.name,
    JSON.stringify(h.job.payload),
    h.job.runAt.toISOString(),
    h.job.dedupeKey,
    ...HOLD_ORDER_KEYS.map((k) => {
      const v = h.order[k];
      return v instanceof Date ? v.toISOString() : v;
    }),
  ];
  try {
    await runPrepared(db, 'mq_hold_order', HOLD_SQL, values);
    return { ok: true };
  } catch (err) {
    const { code, constraint } = pgError(err);
    if (code === '23514' && constraint && CHECK_REASONS[constraint]) return { ok: false, reason: CHECK_REASONS[constraint] };
    if (code === '23502') return { ok: false, reason: 'changed' };
    throw err;
  }
}
