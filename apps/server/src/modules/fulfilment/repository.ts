import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, getTableColumns, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import { type DbOrTx, type Tx } from '../../db/client.js';
import { events, eventTransferSettings, orderActions, orderLines, orderLinks, orders, refunds, subscribers, tenants, tickets, ticketTransfers } from '../../db/schema/index.js';

export type OrderRow = typeof orders.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type LineRow = typeof orderLines.$inferSelect;

export async function findOrder(db: DbOrTx, tenantId: string, orderId: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
  return row ?? null;
}

export async function findOrderOfEvent(db: DbOrTx, tenantId: string, eventId: string, orderUid: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.eventId, eventId), eq(orders.orderUid, orderUid)));
  return row ?? null;
}

export async function findEvent(db: DbOrTx, tenantId: string, eventId: string) {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row ?? null;
}

export async function linesOf(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.tenantId, tenantId), eq(orderLines.orderId, orderId)))
    .orderBy(asc(orderLines.ticketName), asc(orderLines.ticketTypeId));
}

export async function ticketsOf(db: DbOrTx, tenantId: string, orderId: string): Promise<TicketRow[]> {
  return db
    .select()
    .from(tickets)
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId)))
    .orderBy(asc(tickets.createdAt), asc(tickets.ticketTypeName), asc(tickets.ticketUid));
}

export async function insertTickets(tx: DbOrTx, rows: Array<Omit<typeof tickets.$inferInsert, 'id'> & { id?: string }>) {
  if (rows.length === 0) return;
  await tx.insert(tickets).values(rows.map((r) => ({ ...r, id: r.id ?? randomUUID() })));
}

/** processing -> completed; false when another run already completed it. */
export async function completeOrder(tx: DbOrTx, tenantId: string, orderId: string): Promise<boolean> {
  const rows = await tx
    .update(orders)
    .set({ status: 'completed', updatedAt: new Date() })
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId), eq(orders.status, 'processing')))
    .returning({ id: orders.id });
  return rows.length === 1;
}

/**
 * The buyer's opt-ins of one order, per event and address (issue 21: e-mail news, text messages or
 * both). A later order adds to what an earlier one opted in to, never takes it away, and its mobile
 * number is the one texts go to.
 */
export async function addSubscriber(tx: DbOrTx, s: { tenantId: string; eventId: string; email: string; optInEmail: boolean; optInText: boolean; phone: string | null }) {
  const phone = s.optInText ? s.phone : null;
  await tx
    .insert(subscribers)
    .values({ tenantId: s.tenantId, id: randomUUID(), eventId: s.eventId, email: s.email.toLowerCase(), optInEmail: s.optInEmail, optInText: s.optInText, phone })
    .onConflictDoUpdate({
      target: [subscribers.tenantId, subscribers.eventId, subscribers.email],
      set: {
        optInEmail: sql`${subscribers.optInEmail} or excluded.opt_in_email`,
        optInText: sql`${subscribers.optInText} or excluded.opt_in_text`,
        phone: sql`coalesce(excluded.phone, ${subscribers.phone})`,
      },
    });
}

/** Paid orders still not completed since `before`: their fulfilment job died or gave up. */
export async function stuckProcessingOrders(db: DbOrTx, before: Date, limit: number) {
  return db
    .select({ tenantId: orders.tenantId, id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, 'processing'), lt(sql`coalesce(${orders.paidAt}, ${orders.updatedAt})`, before)))
    .orderBy(asc(orders.updatedAt))
    .limit(limit);
}

export async function findTenant(db: DbOrTx, tenantId: string) {
  const [row] = await db.select({ name: tenants.name, url: tenants.url, logoKey: tenants.logoKey, brandColor: tenants.brandColor }).from(tenants).where(eq(tenants.id, tenantId));
  return row ?? null;
}

export async function insertOrderLink(tx: DbOrTx, link: { tenantId: string; orderId: string; tokenHash: string }) {
  await tx.insert(orderLinks).values(link);
}

/** The order a link opens, on this tenant's host only. */
export async function findOrderByLink(db: DbOrTx, tenantId: string, tokenHash: string): Promise<OrderRow | null> {
  const [row] = await db
    .select({ order: orders })
    .from(orderLinks)
    .innerJoin(orders, and(eq(orders.tenantId, orderLinks.tenantId), eq(orders.id, orderLinks.orderId)))
    .where(and(eq(orderLinks.tenantId, tenantId), eq(orderLinks.tokenHash, tokenHash)));
  return row?.order ?? null;
}

/** The paid orders bought with this address from this tenant, newest first. */
export async function paidOrdersOf(db: DbOrTx, tenantId: string, email: string, limit: number) {
  return db
    .select({ order: orders, eventName: events.name, startDateTime: events.startDateTime, timeZone: events.timeZone })
    .from(orders)
    .innerJoin(events, and(eq(events.tenantId, orders.tenantId), eq(events.id, orders.eventId)))
    .where(and(eq(orders.tenantId, tenantId), sql`lower(${orders.email}) = ${email.toLowerCase()}`, inArray(orders.status, ['processing', 'completed'])))
    .orderBy(desc(orders.createdAt))
    .limit(limit);
}

/**
 * When members of the tenant resent tickets since `since` (order_actions 'resend' rows with a user;
 * the buyer's own resends from the order link have their own limits), oldest first: of one order,
 * or by one member.
 */
export async function staffResendsSince(db: DbOrTx, tenantId: string, by: { orderId: string } | { userId: string }, since: Date): Promise<Date[]> {
  const rows = await db
    .select({ at: orderActions.createdAt })
    .from(orderActions)
    .where(
      and(
        eq(orderActions.tenantId, tenantId),
        'orderId' in by ? eq(orderActions.orderId, by.orderId) : eq(orderActions.userId, by.userId),
        eq(orderActions.action, 'resend'),
        sql`${orderActions.userId} is not null`,
        sql`${orderActions.createdAt} > ${since.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(orderActions.createdAt));
  return rows.map((r) => r.at);
}

/**
 * The money an order gave back or is giving back, newest first (issue 21.6, the buyer's order page):
 * failed refunds gave nothing back, and a duplicate payment's refund is of a second charge, not of
 * the order (docs/decisions.md "Refunds: who gives the money back").
 */
export async function buyerRefundsOf(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select({ id: refunds.id, amount: refunds.amount, status: refunds.status, ticketIds: refunds.ticketIds, createdAt: refunds.createdAt })
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId), inArray(refunds.status, ['pending', 'succeeded']), ne(refunds.kind, 'duplicate_payment')))
    .orderBy(desc(refunds.createdAt), desc(refunds.id));
}

export async function findRefundOf(db: DbOrTx, tenantId: string, orderId: string, refundId: string) {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId), eq(refunds.id, refundId)));
  return row ?? null;
}

/**
 * Where the order's tickets went (issue 24): each transferred ticket's first transfer, the one out of
 * the buyer's hands. The transfers module writes the table; the order's pages read it here.
 */
export async function transfersOfOrder(db: DbOrTx, tenantId: string, orderId: string): Promise<Map<string, { toName: string; toEmail: string; at: Date }>> {
  const rows = await db
    .select({ ticketId: ticketTransfers.ticketId, toName: ticketTransfers.toName, toEmail: ticketTransfers.toEmail, at: ticketTransfers.createdAt })
    .from(ticketTransfers)
    .where(and(eq(ticketTransfers.tenantId, tenantId), eq(ticketTransfers.orderId, orderId)))
    .orderBy(desc(ticketTransfers.createdAt));
  // Oldest last, so the first transfer of each ticket wins.
  return new Map(rows.map((r) => [r.ticketId, { toName: r.toName, toEmail: r.toEmail, at: r.at }]));
}

/** The event's transfer setting (issue 24): allowed unless the organiser switched it off. */
export async function transfersAllowed(db: DbOrTx, tenantId: string, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ allowed: eventTransferSettings.allowed })
    .from(eventTransferSettings)
    .where(and(eq(eventTransferSettings.tenantId, tenantId), eq(eventTransferSettings.eventId, eventId)));
  return row?.allowed ?? true;
}

// ---- the fulfil job in few statements (issue 26 "mail2") -----------------------------------------
//
// A paid order's fulfilment was 17 statements (the order locked, its tickets, lines and attendees read
// one by one, the tickets written and read back, the event and the tenant read, the completion, the
// order link, the tenant's reply-to, the outbox row and the mail job each on their own): the main
// thread's CPU per order was mostly building and answering them. Now: the order locked with what the
// tickets and the mail need (lockForFulfilment), the tickets written unless some exist
// (issueTicketsOnce), and the completion with its link, mail and opt-in in one statement
// (completeWithCtes): begin, two statements, commit, then one.

/** A row of `table` from its row_to_json (snake_case keys), each column through Drizzle's own mapping (dates, JSON). */
function rowFromJson<T>(columns: Array<[string, { name: string; mapFromDriverValue(v: unknown): unknown }]>, json: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [key, col] of columns) {
    const v = json[col.name];
    out[key] = v == null ? null : col.mapFromDriverValue(v);
  }
  return out as T;
}
const orderColumns = Object.entries(getTableColumns(orders)) as unknown as Array<[string, { name: string; mapFromDriverValue(v: unknown): unknown }]>;
const eventColumns = Object.entries(getTableColumns(events)) as unknown as Array<[string, { name: string; mapFromDriverValue(v: unknown): unknown }]>;
const parsed = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

export type FulfilmentLine = { ticketTypeId: string; ticketName: string; unitPrice: number; quantity: number };
export type FulfilmentRead = {
  order: OrderRow;
  event: EventRow | null;
  tenant: { name: string; url: string; email: string | null; logoKey: string | null; brandColor: string | null } | null;
  /** In the order the receipt lists them (ticket name, then type), as linesOf. */
  lines: FulfilmentLine[];
  attendees: Array<{ ticketTypeId: string; position: number; fullName: string; email: string }>;
};

/**
 * The order locked (lock order: orders first) with its event, its tenant's look, its lines and its
 * attendees, in one statement; null when the tenant has no such order. The rows are the order's as
 * locked; the others do not change while an order is paid (attendees are edited under the order's lock).
 */
export async function lockForFulfilment(tx: Tx, tenantId: string, orderId: string): Promise<FulfilmentRead | null> {
  return (await lockManyForFulfilment(tx, [{ tenantId, orderId }]))[0] ?? null;
}

/**
 * lockForFulfilment for a batch of orders (issue 26 "mail4"), in one statement: the orders are locked
 * in order-id order (the lock order among orders: the sort is under the lock, so two batches that
 * share orders take them in the same order), each with what its fulfilment reads; orders the tenant
 * does not have are left out. Answered in order-id order.
 */
export async function lockManyForFulfilment(tx: Tx, keys: ReadonlyArray<{ tenantId: string; orderId: string }>): Promise<FulfilmentRead[]> {
  if (keys.length === 0) return [];
  const wanted = JSON.stringify(keys.map((k) => ({ t: k.tenantId, o: k.orderId })));
  const res = (await tx.execute(sql`
    select row_to_json(o)::text as o,
      (select row_to_json(e)::text from events e where e.tenant_id = o.tenant_id and e.id = o.event_id) as e,
      (select json_build_object('name', t.name, 'url', t.url, 'email', t.email, 'logoKey', t.logo_key, 'brandColor', t.brand_color)::text from tenants t where t.id = o.tenant_id) as t,
      (select coalesce(json_agg(json_build_object('ticketTypeId', l.ticket_type_id, 'ticketName', l.ticket_name, 'unitPrice', l.unit_price, 'quantity', l.quantity)
          order by l.ticket_name, l.ticket_type_id), '[]')::text
        from order_lines l where l.tenant_id = o.tenant_id and l.order_id = o.id) as l,
      (select coalesce(json_agg(json_build_object('ticketTypeId', a.ticket_type_id, 'position', a.position, 'fullName', a.full_name, 'email', a.email)), '[]')::text
        from order_attendees a where a.tenant_id = o.tenant_id and a.order_id = o.id) as a
    from orders o
    where (o.tenant_id, o.id) in (select x.t, x.o from jsonb_to_recordset(${wanted}::jsonb) as x(t uuid, o uuid))
    order by o.id
    for update of o`)) as unknown as { rows: Array<{ o: string; e: string | null; t: string | null; l: string; a: string }> };
  return res.rows.map((r) => ({
    order: rowFromJson<OrderRow>(orderColumns, parsed(r.o)),
    event: r.e == null ? null : rowFromJson<EventRow>(eventColumns, parsed(r.e)),
    tenant: r.t == null ? null : parsed(r.t),
    lines: parsed(r.l),
    attendees: parsed(r.a),
  }));
}

export type NewTicket = {
  id: string;
  tenantId: string;
  ticketUid: string;
  orderId: string;
  eventId: string;
  ticketTypeId: string;
  ticketTypeName: string;
  price: number;
  fullName: string;
  email: string;
  contactNumber: string | null;
};

/**
 * The order's tickets written in one statement unless it has some already (the caller holds the
 * order's lock, so the check sees every ticket written before), with the attendees tied to theirs.
 * Answers null when it had tickets (nothing written), else each new ticket's seat label (the seating
 * trigger gives a seated order's tickets their seats as they are written), by ticket id.
 */
export async function issueTicketsOnce(
  tx: Tx,
  tenantId: string,
  orderId: string,
  rows: NewTicket[],
  ties: Array<{ ticketTypeId: string; position: number; ticketId: string }>,
): Promise<Map<string, string | null> | null> {
  return (await issueManyTicketsOnce(tx, [{ tenantId, orderId, rows, ties }])).get(orderId) ?? null;
}

/**
 * issueTicketsOnce for a batch of orders (issue 26 "mail4"), all locked by the caller, in one
 * statement: each order's tickets are written unless that order has some already. Answers, by order
 * id, null for an order that had tickets (nothing of it written), else its new tickets' seat labels.
 */
export async function issueManyTicketsOnce(
  tx: Tx,
  orders: ReadonlyArray<{ tenantId: string; orderId: string; rows: NewTicket[]; ties: Array<{ ticketTypeId: string; position: number; ticketId: string }> }>,
): Promise<Map<string, Map<string, string | null> | null>> {
  const out = new Map<string, Map<string, string | null> | null>();
  if (orders.length === 0) return out;
  const keys = JSON.stringify(orders.map((o) => ({ t: o.tenantId, o: o.orderId })));
  const rows = JSON.stringify(orders.flatMap((o) => o.rows.map((r) => ({ ...r, tenantId: o.tenantId, orderId: o.orderId }))));
  const ties = orders.flatMap((o) => o.ties.map((t) => ({ ...t, tenantId: o.tenantId, orderId: o.orderId })));
  const tie: SQL = ties.length
    ? sql`, tie as (
        update order_attendees a set ticket_id = x."ticketId"
        from jsonb_to_recordset(${JSON.stringify(ties)}::jsonb) as x("tenantId" uuid, "orderId" uuid, "ticketTypeId" uuid, position int, "ticketId" uuid)
        where a.tenant_id = x."tenantId" and a.order_id = x."orderId" and a.ticket_type_id = x."ticketTypeId" and a.position = x.position
          and x."orderId" in (select order_id from ins))`
    : sql``;
  const res = (await tx.execute(sql`
    with had as (
      select distinct k.o as order_id from jsonb_to_recordset(${keys}::jsonb) as k(t uuid, o uuid)
      where exists (select 1 from tickets where tenant_id = k.t and order_id = k.o)),
    ins as (
      insert into tickets (tenant_id, id, ticket_uid, order_id, event_id, ticket_type_id, ticket_type_name, price, full_name, email, contact_number)
      select x."tenantId", x.id, x."ticketUid", x."orderId", x."eventId", x."ticketTypeId", x."ticketTypeName", x.price, x."fullName", x.email, x."contactNumber"
      from jsonb_to_recordset(${rows}::jsonb) as x("tenantId" uuid, "orderId" uuid, id uuid, "ticketUid" text, "eventId" uuid, "ticketTypeId" uuid, "ticketTypeName" text,
        price int, "fullName" text, email text, "contactNumber" text)
      where x."orderId" not in (select order_id from had)
      returning order_id, id, seat_label)${tie}
    select (select coalesce(json_agg(order_id), '[]')::text from had) as had,
      (select coalesce(json_agg(json_build_object('orderId', order_id, 'id', id, 'seatLabel', seat_label)), '[]')::text from ins) as issued`)) as unknown as {
    rows: Array<{ had: string; issued: string }>;
  };
  const r = res.rows[0]!;
  const had = new Set(parsed(r.had) as string[]);
  for (const o of orders) out.set(o.orderId, had.has(o.orderId) ? null : new Map());
  for (const t of parsed(r.issued) as Array<{ orderId: string; id: string; seatLabel: string | null }>) out.get(t.orderId)?.set(t.id, t.seatLabel);
  return out;
}

/** What one order's completion writes with it (issue 26 "mail2"), each only when that order completes. */
export type Completion = {
  tenantId: string;
  orderId: string;
  /** The mail's order link (its token's hash). */
  link?: { tokenHash: string };
  /** The buyer's opt-ins (addSubscriber's rule). */
  subscriber?: { eventId: string; email: string; optInEmail: boolean; optInText: boolean; phone: string | null };
};

/**
 * processing -> completed for a batch of orders (issue 26 "mail4"; one order is a batch of one), and
 * with it, in the same statement, what each completion writes: its order link, its opt-in, and the
 * CTEs `more` (data-modifying, written for the orders in the CTE `done`, column `id`: the mails).
 * The orders are locked in order-id order (the lock order among orders) before they are updated;
 * an order another run completed first is left out, and nothing of it is written. Answers the ids of
 * the orders this statement completed.
 */
export async function completeMany(db: DbOrTx, items: ReadonlyArray<Completion>, more: SQL[] = []): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  const keys = JSON.stringify(items.map((c) => ({ t: c.tenantId, o: c.orderId })));
  const ctes: SQL[] = [...more];
  const links = items.filter((c) => c.link).map((c) => ({ t: c.tenantId, o: c.orderId, h: c.link!.tokenHash }));
  if (links.length) {
    ctes.push(sql`order_link as (
      insert into order_links (tenant_id, token_hash, order_id)
      select x.t, x.h, x.o from jsonb_to_recordset(${JSON.stringify(links)}::jsonb) as x(t uuid, o uuid, h text)
      where x.o in (select id from done))`);
  }
  // addSubscriber's rule, once per address and event (two orders of one buyer in a batch are one row:
  // the opt-ins added up, the later order's mobile number kept).
  const subs = items
    .filter((c) => c.subscriber)
    .map((c, n) => ({ n, id: randomUUID(), t: c.tenantId, o: c.orderId, e: c.subscriber!.eventId, email: c.subscriber!.email.toLowerCase(), oe: c.subscriber!.optInEmail, ot: c.subscriber!.optInText, p: c.subscriber!.optInText ? c.subscriber!.phone : null }));
  if (subs.length) {
    ctes.push(sql`subscriber as (
      insert into subscribers (tenant_id, id, event_id, email, opt_in_email, opt_in_text, phone)
      select x.t, (array_agg(x.id order by x.n))[1], x.e, x.email, bool_or(x.oe), bool_or(x.ot), (array_agg(x.p order by x.n desc) filter (where x.p is not null))[1]
      from jsonb_to_recordset(${JSON.stringify(subs)}::jsonb) as x(n int, id uuid, t uuid, o uuid, e uuid, email text, oe boolean, ot boolean, p text)
      where x.o in (select id from done)
      group by x.t, x.e, x.email
      on conflict (tenant_id, event_id, email) do update set
        opt_in_email = subscribers.opt_in_email or excluded.opt_in_email,
        opt_in_text = subscribers.opt_in_text or excluded.opt_in_text,
        phone = coalesce(excluded.phone, subscribers.phone))`);
  }
  const res = (await db.execute(sql`
    with locked as (
      select o.tenant_id, o.id from orders o
      where (o.tenant_id, o.id) in (select k.t, k.o from jsonb_to_recordset(${keys}::jsonb) as k(t uuid, o uuid)) and o.status = 'processing'
      order by o.id
      for update of o),
    done as (
      update orders o set status = 'completed', updated_at = now()
      from locked l where o.tenant_id = l.tenant_id and o.id = l.id and o.status = 'processing'
      returning o.id)${ctes.length ? sql`, ${sql.join(ctes, sql`, `)}` : sql``}
    select coalesce(json_agg(id), '[]')::text as done from done`)) as unknown as { rows: Array<{ done: string }> };
  return new Set(parsed(res.rows[0]?.done ?? '[]') as string[]);
}
