import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
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
 * The one writer of remaining quantities (architecture rule 7). Rows are taken in one fixed order
 * everywhere, ticket types by id, then discount codes by id, then the event, so concurrent
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

type SettingsRow = typeof ticketSettings.$inferSelect;
type RuleRow = typeof surchargeRules.$inferSelect;

/** A row as Drizzle would return it, from the same row serialised with to_jsonb (snake_case keys). */
function rowFromJson<T>(table: PgTable, json: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    out[key] = value !== null && value !== undefined && column.columnType === 'PgTimestamp' ? new Date(value as string) : (value ?? null);
  }
  return out as T;
}

type DiscountRow = typeof discountCodes.$inferSelect;

export type CheckoutSnapshot = {
  event: EventRow;
  types: TicketTypeRow[];
  pricing: { settings: SettingsRow; rule: RuleRow | null } | null;
  /** The discount code asked for, if it exists on this event. */
  discount: DiscountRow | null;
};

/**
 * Everything a checkout reads before it holds, in one round trip: the event, its ticket types in
 * menu order, the tenant's ticket settings and the rule the event is priced by (its own while
 * active, else the tenant's default).
 */
export async function findCheckoutSnapshot(
  db: DbOrTx,
  where: { tenantId: string; discountCode?: string | null } & ({ eventId: string } | { urlName: string }),
): Promise<CheckoutSnapshot | undefined> {
  const match = 'eventId' in where ? sql`e.id = ${where.eventId}` : sql`e.url_name = ${where.urlName}`;
  const code = where.discountCode ? where.discountCode.toUpperCase() : null;
  const result = await db.execute(sql`
    select to_jsonb(e) as event,
      coalesce((select jsonb_agg(to_jsonb(t) order by t.sort_order, t.created_at, t.id)
                from ${ticketTypes} t where t.tenant_id = e.tenant_id and t.event_id = e.id), '[]'::jsonb) as types,
      (select to_jsonb(s) from ${ticketSettings} s where s.tenant_id = e.tenant_id) as settings,
      coalesce(
        (select to_jsonb(r) from ${surchargeRules} r where r.tenant_id = e.tenant_id and r.id = e.surcharge_rule_id and r.active),
        (select to_jsonb(r) from ${surchargeRules} r join ${ticketSettings} s on s.tenant_id = r.tenant_id and s.default_surcharge_rule = r.id
          where r.tenant_id = e.tenant_id)) as rule,
      (select to_jsonb(d) from ${discountCodes} d where d.tenant_id = e.tenant_id and d.event_id = e.id and d.code = ${code}) as discount
    from ${events} e
    where e.tenant_id = ${where.tenantId} and ${match}`);
  const [row] = (result as unknown as { rows: Array<Record<string, unknown>> }).rows;
  if (!row) return undefined;
  const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown> | null;
  const settings = parse(row.settings);
  const rule = parse(row.rule);
  const discount = parse(row.discount);
  return {
    discount: discount ? rowFromJson<DiscountRow>(discountCodes, discount) : null,
    event: rowFromJson<EventRow>(events, parse(row.event)!),
    types: (parse(row.types) as unknown as Array<Record<string, unknown>>).map((t) => rowFromJson<TicketTypeRow>(ticketTypes, t)),
    pricing: settings ? { settings: rowFromJson<SettingsRow>(ticketSettings, settings), rule: rule ? rowFromJson<RuleRow>(surchargeRules, rule) : null } : null,
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
  db: DbOrTx,
  h: {
    order: OrderInsert & { id: string; tenantId: string; eventId: string; orderUid: string };
    lines: HoldLine[];
    discountCodeId: string | null;
    job: { name: string; payload: unknown; runAt: Date; dedupeKey: string };
  },
): Promise<HoldOutcome> {
  const { tenantId, eventId } = h.order;
  const req = sql.join(
    h.lines.map((l) => sql`(${l.ticketTypeId}::uuid, ${l.quantity}::int, ${l.unitPrice}::int, ${l.ticketName}::text)`),
    sql`, `,
  );
  const discount = h.discountCodeId === null ? sql`null::uuid` : sql`${h.discountCodeId}::uuid`;
  const everythingTaken = sql`(select count(*) from tt) = ${h.lines.length}
    and (select count(*) from ev) = 1
    and (select count(*) from dc) = ${h.discountCodeId === null ? 0 : 1}`;
  const insertOrder: SQL = db.insert(orders).values(h.order).returning({ id: orders.id }).getSQL();
  const insertJob: SQL = db
    .insert(jobs)
    .values({ name: h.job.name, payload: h.job.payload as object, runAt: h.job.runAt, dedupeKey: h.job.dedupeKey })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id })
    .getSQL();
  try {
    // Each part names the one before it, which fixes the order the database runs them in.
    await db.execute(sql`
      with req (id, qty, price, name) as (values ${req}),
      o as (${insertOrder}),
      j as (${insertJob}),
      locked as (
        select t.id from ${ticketTypes} t join req on req.id = t.id and req.price = t.price and req.name = t.name
        where t.tenant_id = ${tenantId} and t.event_id = ${eventId} and t.active
          and (t.sales_availability <> 'SALES_AVAILABILITY_OPT_2'
               or (coalesce(t.sales_start_at, '-infinity') <= now() and now() < coalesce(t.sales_end_at, 'infinity')))
          and (select count(*) from o) + (select count(*) from j) >= 0
        order by t.id
        for update of t),
      tt as (
        update ${ticketTypes} t set remaining = t.remaining - req.qty from req
        where t.tenant_id = ${tenantId} and t.id = req.id and t.id in (select id from locked)
        returning t.id),
      dc as (
        update ${discountCodes} set used_count = used_count + 1
        where tenant_id = ${tenantId} and id = ${discount} and active
          and (starts_at is null or starts_at <= now()) and (ends_at is null or ends_at > now())
          and (select count(*) from tt) > 0
        returning id),
      ev as (
        update ${events} set remaining_capacity = remaining_capacity - (select coalesce(sum(req.qty), 0) from req)::int
        where tenant_id = ${tenantId} and id = ${eventId} and status = 'published'
          and (select count(*) from tt) > 0 and (select count(*) from dc) >= 0
        returning id),
      l as (
        insert into ${orderLines} (tenant_id, order_id, ticket_type_id, ticket_name, unit_price, quantity)
        select ${tenantId}, o.id, req.id, req.name, req.price, case when ${everythingTaken} then req.qty end from o, req
        returning order_id)
      select count(*) from l`);
    return { ok: true };
  } catch (err) {
    const { code, constraint } = pgError(err);
    if (code === '23514' && constraint && CHECK_REASONS[constraint]) return { ok: false, reason: CHECK_REASONS[constraint] };
    if (code === '23502') return { ok: false, reason: 'changed' };
    throw err;
  }
}
