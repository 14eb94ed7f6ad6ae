import { and, eq, getTableColumns, getTableName, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { runPrepared, type Db, type DbOrTx } from '../../db/client.js';
import { charities, discountCodes, eventSeatCategories, events, jobs, orderLines, orders, surchargeRules, tenants, ticketSettings, ticketTypes } from '../../db/schema/index.js';
import { createBatcher, type Batcher } from '../../platform/batcher.js';
import type { EventRow } from '../events/repository.js';
import type { OrderInsert } from '../orders/repository.js';
import type { TicketTypeRow } from '../ticket-types/repository.js';

// ---- the checkout's hot path -------------------------------------------------------------------
//
// PLACE ORDER runs two statements of its own, one read and one write, each shared by the orders
// that arrive together (platform/batcher.ts). Both are fixed texts sent as named prepared
// statements to PostgreSQL (each connection parses and plans them once), straight to the driver
// under Drizzle: at hundreds of orders a second, building the SQL and planning it again every time
// cost more than running it (bench/README.md). Their parameters are always bound; the texts are
// built once, from the schema, when this module loads.

type SettingsRow = typeof ticketSettings.$inferSelect;
type RuleRow = typeof surchargeRules.$inferSelect;
type DiscountRow = typeof discountCodes.$inferSelect;

/** Per table, its columns as rowFromJson reads them (the property, the column's name, a timestamp?), listed once. */
const jsonColumns = new WeakMap<PgTable, Array<readonly [key: string, name: string, timestamp: boolean]>>();

/** A row as Drizzle would return it, from the same row serialised with to_jsonb (snake_case keys). */
function rowFromJson<T>(table: PgTable, json: Record<string, unknown>): T {
  let columns = jsonColumns.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name, column.columnType === 'PgTimestamp'] as const);
    jsonColumns.set(table, columns);
  }
  const out: Record<string, unknown> = {};
  for (const [key, name, timestamp] of columns) {
    const value = json[name];
    out[key] = value === null || value === undefined ? null : timestamp ? new Date(value as string) : value;
  }
  return out as T;
}

export type CheckoutSnapshot = {
  event: EventRow;
  types: TicketTypeRow[];
  pricing: { settings: SettingsRow; rule: RuleRow | null } | null;
  /** The discount code asked for, if it exists on this event. */
  discount: DiscountRow | null;
  /** The event's charity while it is active (events_charity_fk keeps it one the tenant enabled). */
  charity: { id: string; name: string } | null;
  /** Issue 27: the ticket types the event's seats sell as (empty for general admission): read with the rest, so a GA checkout pays no extra query. */
  seatedTypeIds: ReadonlySet<string>;
  /**
   * Issue 23 (bo3): a digest of everything above but the counts every sale moves (the ticket types'
   * remaining, the event's remaining capacity, the code's uses), worked out by PostgreSQL with the
   * read: checkoutSnapshotVersionSql reads it again, so a statement can tell whether a snapshot
   * kept in memory is still what the database has.
   */
  version: string;
};

/**
 * The snapshot's version (see CheckoutSnapshot.version), of the columns `s` the snapshot's select
 * answers. The counts a take moves are left out: they are checked again under the take's locks
 * (mq_take_holds), and with them in, every sale would make every kept snapshot stale.
 */
const SNAPSHOT_VERSION = `md5(jsonb_build_array(
      s.event - 'remaining_capacity',
      (select coalesce(jsonb_agg(x.t - 'remaining' order by x.n), '[]'::jsonb) from jsonb_array_elements(s.types) with ordinality x(t, n)),
      s.settings, s.rule, s.discount - 'used_count', s.charity, s.seated)::text)`;

const snapshotSql = (match: string) => `
  select s.*, ${SNAPSHOT_VERSION} as version from (
  select to_jsonb(e) as event,
    coalesce((select jsonb_agg(to_jsonb(t) order by t.sort_order, t.created_at, t.id)
              from ${getTableName(ticketTypes)} t where t.tenant_id = e.tenant_id and t.event_id = e.id), '[]'::jsonb) as types,
    (select to_jsonb(s) from ${getTableName(ticketSettings)} s where s.tenant_id = e.tenant_id) as settings,
    coalesce(
      (select to_jsonb(r) from ${getTableName(surchargeRules)} r where r.tenant_id = e.tenant_id and r.id = e.surcharge_rule_id and r.active),
      (select to_jsonb(r) from ${getTableName(surchargeRules)} r join ${getTableName(ticketSettings)} s
         on s.tenant_id = r.tenant_id and s.default_surcharge_rule = r.id
       where r.tenant_id = e.tenant_id)) as rule,
    (select to_jsonb(d) from ${getTableName(discountCodes)} d where d.tenant_id = e.tenant_id and d.event_id = e.id and d.code = $3::text) as discount,
    (select jsonb_build_object('id', c.id, 'name', c.name) from ${getTableName(charities)} c where c.id = e.charity_id and c.status = 'active') as charity,
    coalesce((select jsonb_agg(distinct sc.ticket_type_id) from ${getTableName(eventSeatCategories)} sc
              where sc.tenant_id = e.tenant_id and sc.event_id = e.id), '[]'::jsonb) as seated
  from ${getTableName(events)} e
  where e.tenant_id = $1::uuid and ${match}) s`;
const SNAPSHOT_BY_ID = snapshotSql('e.id = $2::uuid');
const SNAPSHOT_BY_URL = snapshotSql('e.url_name = $2::text');

type SnapshotWhere = { tenantId: string; discountCode?: string | null } & ({ eventId: string } | { urlName: string });
const snapshotReaders = new WeakMap<object, Batcher<SnapshotWhere, CheckoutSnapshot | undefined>>();

/**
 * Everything a checkout reads before it holds, in one round trip: the event, its ticket types in
 * menu order, the tenant's ticket settings and the rule the event is priced by (its own while
 * active, else the tenant's default), the discount code typed, if any, and the event's charity
 * (what a donation goes to). The same read asked for while one is running is answered by the next
 * one, shared by all who waited (platform/batcher.ts), so the answer is shared too: callers must
 * not change it.
 */
export function findCheckoutSnapshot(db: Db, where: SnapshotWhere): Promise<CheckoutSnapshot | undefined> {
  let reader = snapshotReaders.get(db);
  if (!reader) {
    snapshotReaders.set(
      db,
      (reader = createBatcher(async (_key, batch) => {
        const snapshot = await readCheckoutSnapshot(db, batch[0]!);
        return batch.map(() => snapshot);
      })),
    );
  }
  const code = where.discountCode ? where.discountCode.toUpperCase() : '';
  const key = 'eventId' in where ? `${where.tenantId}/id/${where.eventId}/${code}` : `${where.tenantId}/url/${where.urlName}/${code}`;
  return reader.submit(key, where);
}

async function readCheckoutSnapshot(db: Db, where: SnapshotWhere): Promise<CheckoutSnapshot | undefined> {
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
    charity: parse(row.charity) as { id: string; name: string } | null,
    seatedTypeIds: new Set((typeof row.seated === 'string' ? JSON.parse(row.seated) : (row.seated ?? [])) as string[]),
    version: String(row.version),
  };
}

/**
 * Issue 23 (bo3): the version of the event's checkout snapshot as the database has it now (null: no
 * such event), as an SQL expression for a statement of the caller's (the box office's one-trip sale
 * compares it with the version of the snapshot it priced the sale from). The same text as the read.
 */
export function checkoutSnapshotVersionSql(where: { tenantId: string; eventId: string; discountCode?: string | null }): SQL {
  const code = where.discountCode ? where.discountCode.toUpperCase() : null;
  const params = [where.tenantId, where.eventId, code];
  const parts = `(select v.version from (${SNAPSHOT_BY_ID}) v)`.split(/\$(\d)/);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`)));
}

export type HoldLine = { ticketTypeId: string; ticketName: string; unitPrice: number; quantity: number };
/** What is left, read under the hold's locks: the order's ticket types and the event's capacity (null: none set). */
export type HoldStock = { remaining: Record<string, number>; capacity: number | null };
/**
 * Why a hold was refused (src/db/functions/mq-take-holds.sql says when each applies). Nothing was
 * written in any case; a shortage carries what is left.
 */
export type HoldOutcome =
  | { ok: true }
  | { ok: false; reason: 'notOnSale' | 'admission' | 'discount' | 'noCharity' | 'charityChanged' | 'changed' }
  | { ok: false; reason: 'ticketType' | 'capacity'; stock: HoldStock };

const SIMPLE_REFUSALS = new Set(['notOnSale', 'admission', 'discount', 'noCharity', 'charityChanged', 'changed']);

export function toOutcome(verdict: string): HoldOutcome {
  if (verdict === 'ok') return { ok: true };
  if (SIMPLE_REFUSALS.has(verdict)) return { ok: false, reason: verdict as 'changed' };
  const colon = verdict.indexOf(':');
  const reason = verdict.slice(0, colon);
  if (colon > 0 && (reason === 'ticketType' || reason === 'capacity')) {
    const stock = JSON.parse(verdict.slice(colon + 1)) as { remaining: Record<string, number> | null; capacity: number | null };
    return { ok: false, reason, stock: { remaining: stock.remaining ?? {}, capacity: stock.capacity } };
  }
  throw new Error(`unexpected hold verdict ${verdict}`);
}

/** The order columns a hold writes. */
const HOLD_ORDER_KEYS = [
  'tenantId', 'id', 'orderUid', 'eventId', 'status', 'source', 'email', 'firstName', 'lastName', 'phone',
  'address1', 'address2', 'city', 'state', 'zipCode', 'country', 'optInEmail', 'optInText', 'discountCode',
  'discountCodeId', 'ticketCount', 'subtotal', 'surcharge', 'processingFee', 'gatewayProcessingFee', 'discount',
  'vat', 'taxRate', 'donation', 'donationFee', 'charityId', 'charityName', 'totalAmount', 'tenantTotal', 'platformTotal', 'breakdown',
  'holdExpiresAt', 'viewTokenHash', 'userId', 'waitingRoomVisitorId', 'waitlistEntryId', 'paymentProvider', 'channel',
] as const satisfies ReadonlyArray<keyof OrderInsert>;
export type HoldOrderRow = { [K in Exclude<(typeof HOLD_ORDER_KEYS)[number], 'channel'>]-?: Exclude<OrderInsert[K], undefined> } & {
  /** Where it is sold; the website (ONLINE) unless said (issue 25: APP). */
  channel?: 'ONLINE' | 'APP';
};

// One statement holds a whole batch of orders (see holdOrder below). $1 is the batch as JSON, one
// item per order: {order: its columns by column name, lines: [{id, qty, price, name}], discountCodeId,
// admissionOrders: how many orders its waiting-room admission allows (when it has one), job: the
// hold-expiry job}. mq_take_holds (src/db/functions/mq-take-holds.sql) takes each order's tickets in turn under
// locks and answers a verdict per item; the orders, their lines and their expiry jobs are then
// written for the items it took, in the same statement, so a hold is all or nothing.
const HOLD_COLUMNS = HOLD_ORDER_KEYS.map((k) => `"${orders[k].name}"`).join(', ');
const HOLD_SQL = `
  with verdict as (select mq_take_holds($1::jsonb) as v),
  items as (
    select i.value as item, i.ordinality::int as n, (select v from verdict)[i.ordinality] as outcome
    from jsonb_array_elements($1::jsonb) with ordinality i),
  o as (
    insert into ${getTableName(orders)} (${HOLD_COLUMNS})
    select ${HOLD_ORDER_KEYS.map((k) => `r."${orders[k].name}"`).join(', ')}
    from items, jsonb_populate_record(null::${getTableName(orders)}, items.item->'order') r
    where items.outcome = 'ok'
    returning id),
  l as (
    insert into ${getTableName(orderLines)} (tenant_id, order_id, ticket_type_id, ticket_name, unit_price, quantity)
    select (item->'order'->>'tenant_id')::uuid, (item->'order'->>'id')::uuid, (x->>'id')::uuid, x->>'name', (x->>'price')::int, (x->>'qty')::int
    from items, jsonb_array_elements(items.item->'lines') x
    where items.outcome = 'ok'
    returning order_id),
  j as (
    insert into ${getTableName(jobs)} (name, payload, run_at, dedupe_key)
    select item->'job'->>'name', item->'job'->'payload', (item->'job'->>'runAt')::timestamptz, item->'job'->>'dedupeKey'
    from items where items.outcome = 'ok'
    on conflict (dedupe_key) do nothing
    returning id)
  select n, outcome from items order by n`;

export type HoldRequest = {
  order: HoldOrderRow;
  lines: HoldLine[];
  discountCodeId: string | null;
  /** With order.waitingRoomVisitorId: how many orders that admission may have placed (its own included). */
  admissionOrders: number | null;
  job: { name: string; payload: unknown; runAt: Date; dedupeKey: string };
};

function holdItem(h: HoldRequest) {
  const order: Record<string, unknown> = {};
  for (const k of HOLD_ORDER_KEYS) {
    const v = k === 'channel' ? (h.order.channel ?? 'ONLINE') : h.order[k];
    order[orders[k].name] = v instanceof Date ? v.toISOString() : v;
  }
  return {
    order,
    lines: h.lines.map((l) => ({ id: l.ticketTypeId, qty: l.quantity, price: l.unitPrice, name: l.ticketName })),
    discountCodeId: h.discountCodeId,
    admissionOrders: h.admissionOrders,
    job: { name: h.job.name, payload: h.job.payload, runAt: h.job.runAt.toISOString(), dedupeKey: h.job.dedupeKey },
  };
}

/** Holds a batch in one statement (one transaction): a verdict per request, in order. */
async function holdBatch(db: Db, batch: readonly HoldRequest[]): Promise<HoldOutcome[]> {
  const rows = await runPrepared(db, 'mq_hold_orders', HOLD_SQL, [JSON.stringify(batch.map(holdItem))]);
  return rows.map((row) => toOutcome(String(row.outcome)));
}

/**
 * The same hold statement inside the caller's transaction, for a batch that must be written with
 * other rows (the waiting list's offers, modules/waitlist/offer-round.ts): a verdict per request.
 */
export async function holdInTx(tx: DbOrTx, batch: readonly HoldRequest[]): Promise<HoldOutcome[]> {
  if (batch.length === 0) return [];
  const json = JSON.stringify(batch.map(holdItem));
  const result = (await tx.execute(sql.join(HOLD_SQL.split('$1').map((part) => sql.raw(part)), sql`${json}`))) as unknown as { rows: Array<{ outcome: unknown }> };
  return result.rows.map((row) => toOutcome(String(row.outcome)));
}

const holdBatchers = new WeakMap<object, Batcher<HoldRequest, HoldOutcome>>();

/**
 * PLACE ORDER's hold, all or nothing: the order's tickets, its discount code use and the event's
 * capacity are taken (mq_take_holds), and the draft order, its lines and its hold-expiry job
 * written, in one statement. Nothing is written when it is refused; the outcome says why. Holds of
 * one event are batched (platform/batcher.ts): in a rush, one statement and one transaction take
 * the tickets of many orders in the order they arrived, instead of each order queueing for the
 * same rows' locks. Batchers are per database handle, so servers sharing a process do not mix.
 */
export function holdOrder(db: Db, request: HoldRequest): Promise<HoldOutcome> {
  let batcher = holdBatchers.get(db);
  if (!batcher) holdBatchers.set(db, (batcher = createBatcher((_key, batch) => holdBatch(db, batch))));
  return batcher.submit(`${request.order.tenantId}/${request.order.eventId}`, request);
}

// ---- PLACE ORDER in place of the checkout's own hold (issue 21.8, take-over-hold.ts) ------------

/** The hold's order row, locked for the rest of the transaction: its status, as the expiry job would see it. */
export async function lockHoldOrder(tx: DbOrTx, tenantId: string, orderId: string): Promise<{ status: string } | null> {
  const [row] = await tx
    .select({ status: orders.status })
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)))
    .for('update');
  return row ?? null;
}

/** One use of the discount code, taken only while it is usable now (the checks of mq_take_holds). */
export async function takeDiscountUse(tx: DbOrTx, tenantId: string, codeId: string): Promise<boolean> {
  const rows = await tx
    .update(discountCodes)
    .set({ usedCount: sql`${discountCodes.usedCount} + 1` })
    .where(
      and(
        eq(discountCodes.tenantId, tenantId),
        eq(discountCodes.id, codeId),
        eq(discountCodes.active, true),
        sql`(${discountCodes.startsAt} is null or ${discountCodes.startsAt} <= now())`,
        sql`(${discountCodes.endsAt} is null or ${discountCodes.endsAt} > now())`,
        sql`(${discountCodes.usageLimit} is null or ${discountCodes.usedCount} < ${discountCodes.usageLimit})`,
      ),
    )
    .returning({ id: discountCodes.id });
  return rows.length === 1;
}

/** The event's status and charity, kept from changing until the transaction ends. */
export async function shareEvent(tx: DbOrTx, tenantId: string, eventId: string): Promise<{ status: string; charityId: string | null } | null> {
  const [row] = await tx
    .select({ status: events.status, charityId: events.charityId })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)))
    .for('share');
  return row ?? null;
}

/** The hold becomes 'replaced' and the order takes its tickets as they are: no ticket type is touched. */
export async function replaceHoldWithOrder(tx: DbOrTx, p: { holdId: string; request: HoldRequest }) {
  const { order, lines } = p.request;
  await tx
    .update(orders)
    .set({ status: 'replaced', updatedAt: new Date() })
    .where(and(eq(orders.tenantId, order.tenantId), eq(orders.id, p.holdId)));
  await tx.insert(orders).values(order);
  await tx.insert(orderLines).values(lines.map((l) => ({ tenantId: order.tenantId, orderId: order.id, ...l })));
}

/** The tenant an app's order is placed for (issue 25), as the site's host would name it. */
export async function findTenantForApp(db: DbOrTx, tenantId: string): Promise<{ id: string; name: string; url: string; status: string } | null> {
  const [row] = await db
    .select({ id: tenants.id, name: tenants.name, url: tenants.url, status: tenants.status })
    .from(tenants)
    .where(and(eq(tenants.id, tenantId), isNull(tenants.deletedAt)));
  return row ?? null;
}
