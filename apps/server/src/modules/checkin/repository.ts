import { and, asc, eq, is, or, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { runPrepared, type Db, type DbOrTx } from '../../db/client.js';
import { checkinScans, events, orders, refunds, tickets, ticketTransfers, ticketTypes, users } from '../../db/schema/index.js';
import { guardSessionCtes, type GuardStatementParams } from '../../platform/auth/guard.js';
import { guardSessionOf, type GuardSession } from '../../platform/auth/sessions.js';
import { domainEventCtesOf } from '../../platform/domain-events.js';
import { CHECKIN } from './access.js';

// Door check-in's SQL (issue 11). A ticket's door state comes from three facts: voided (and whether a
// live refund voided it), its order paid, and used.

/** Orders that were paid for (spec reports-payouts-checkout §4 Order status: processing and completed). */
const PAID = sql`${orders.status} in ('processing', 'completed')`;
/** The ticket was voided by a refund that is asked for or given (a failed one leaves it merely voided). */
const REFUNDED = sql<boolean>`exists (select 1 from ${refunds} r where r.tenant_id = ${tickets.tenantId} and r.order_id = ${tickets.orderId}
  and r.status in ('pending', 'succeeded') and ${tickets.id} = any(r.ticket_ids))`;
/** What the door sees: paid orders' tickets, and any voided ticket (marked as such); never an unpaid order's. */
const AT_THE_DOOR = or(PAID, eq(tickets.voided, true))!;
/** spec: "# TICKETS SOLD" counts paid orders' valid tickets; at the door a complimentary ticket is sold too. */
const SOLD = sql`(${PAID} and not ${tickets.voided})`;

const doorColumns = {
  id: tickets.id,
  eventId: tickets.eventId,
  ticketUid: tickets.ticketUid,
  orderId: tickets.orderId,
  orderUid: orders.orderUid,
  fullName: tickets.fullName,
  email: tickets.email,
  ticketTypeId: tickets.ticketTypeId,
  ticketTypeName: tickets.ticketTypeName,
  seatLabel: tickets.seatLabel,
  used: tickets.used,
  voided: tickets.voided,
  usedAt: tickets.usedAt,
  usedByDevice: tickets.usedByDevice,
  usedByScan: tickets.usedByScan,
  usedByFirstName: users.firstName,
  usedByLastName: users.lastName,
  usedByEmail: users.email,
  paid: sql<boolean>`${PAID}`,
  refunded: REFUNDED,
};

export type DoorTicketRow = {
  id: string;
  eventId: string;
  ticketUid: string;
  orderId: string;
  orderUid: string;
  fullName: string;
  email: string;
  ticketTypeId: string;
  ticketTypeName: string;
  seatLabel: string | null;
  used: boolean;
  voided: boolean;
  usedAt: Date | null;
  usedByDevice: string | null;
  usedByScan: string | null;
  usedByFirstName: string | null;
  usedByLastName: string | null;
  usedByEmail: string | null;
  paid: boolean;
  refunded: boolean;
};

function doorTickets(db: DbOrTx, where: SQL) {
  return db
    .select(doorColumns)
    .from(tickets)
    .innerJoin(orders, and(eq(orders.tenantId, tickets.tenantId), eq(orders.id, tickets.orderId)))
    .leftJoin(users, eq(users.id, tickets.usedByUser))
    .where(where);
}

/** Drivers differ in what a boolean expression comes back as; the row type says boolean. */
const normalise = (r: DoorTicketRow): DoorTicketRow => ({ ...r, paid: r.paid === true || (r.paid as unknown) === 't', refunded: r.refunded === true || (r.refunded as unknown) === 't' });

export async function eventExists(db: DbOrTx, tenantId: string, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return !!row;
}

/** Every ticket the door knows of for the event, by name. */
export async function manifestTickets(db: DbOrTx, tenantId: string, eventId: string): Promise<DoorTicketRow[]> {
  const rows = await doorTickets(db, and(eq(tickets.tenantId, tenantId), eq(tickets.eventId, eventId), AT_THE_DOOR)!).orderBy(
    asc(tickets.fullName),
    asc(tickets.ticketUid),
  );
  return rows.map(normalise);
}

/**
 * The door's two ticket reads built once per database and prepared by name (a scan's hot path:
 * Drizzle's query building cost more Node CPU than the read itself, bench/README.md "Door scans").
 */
function preparedDoorTicketReads(db: Db) {
  const tenantId = sql.placeholder('tenantId');
  return {
    uid: doorTickets(db, and(eq(tickets.tenantId, tenantId), eq(tickets.ticketUid, sql.placeholder('ref')))!).prepare('mq_door_ticket_by_uid'),
    id: doorTickets(db, and(eq(tickets.tenantId, tenantId), eq(tickets.id, sql.placeholder('ref')))!).prepare('mq_door_ticket_by_id'),
  };
}
/** A transaction has rollback(); the database itself does not. */
const isTransaction = (db: DbOrTx): boolean => typeof (db as { rollback?: unknown }).rollback === 'function';
const doorTicketReads = new WeakMap<object, ReturnType<typeof preparedDoorTicketReads>>();

/** One ticket of the tenant by its printed uid, or by its uuid (`byId`). Prepared outside a transaction. */
export async function findDoorTicket(db: DbOrTx, tenantId: string, ref: { uid: string } | { id: string }): Promise<DoorTicketRow | null> {
  if (!isTransaction(db)) {
    let reads = doorTicketReads.get(db);
    if (!reads) doorTicketReads.set(db, (reads = preparedDoorTicketReads(db as Db)));
    const [row] = 'uid' in ref ? await reads.uid.execute({ tenantId, ref: ref.uid }) : await reads.id.execute({ tenantId, ref: ref.id });
    return row ? normalise(row) : null;
  }
  const match = 'uid' in ref ? eq(tickets.ticketUid, ref.uid) : eq(tickets.id, ref.id);
  const [row] = await doorTickets(db, and(eq(tickets.tenantId, tenantId), match)!);
  return row ? normalise(row) : null;
}

/**
 * Search by name, e-mail (contained), Order ID or Ticket ID (prefix), or the ticket's uuid; at most
 * `limit`, with the number of matches.
 */
export async function searchDoorTickets(db: DbOrTx, tenantId: string, eventId: string, q: string, limit: number) {
  const escaped = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  const contains = `%${escaped.toLowerCase()}%`;
  const prefix = `${escaped.toUpperCase()}%`;
  const matches = or(
    sql`lower(${tickets.fullName}) like ${contains}`,
    sql`lower(${tickets.email}) like ${contains}`,
    sql`upper(${orders.orderUid}) like ${prefix}`,
    sql`upper(${tickets.ticketUid}) like ${prefix}`,
    sql`${tickets.id}::text = ${q.toLowerCase()}`,
  )!;
  const rows = await db
    .select({ ...doorColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(tickets)
    .innerJoin(orders, and(eq(orders.tenantId, tickets.tenantId), eq(orders.id, tickets.orderId)))
    .leftJoin(users, eq(users.id, tickets.usedByUser))
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.eventId, eventId), AT_THE_DOOR, matches))
    .orderBy(asc(tickets.fullName), asc(tickets.ticketUid))
    .limit(limit);
  return { rows: rows.map(({ total: _total, ...r }) => normalise(r)), total: rows[0]?.total ?? 0 };
}

/** Sold and checked-in tickets per ticket type: the event's types in their order, then any type only tickets still name. */
export async function doorCounts(db: DbOrTx, tenantId: string, eventId: string) {
  const types = await db
    .select({ id: ticketTypes.id, name: ticketTypes.name })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId)))
    .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.name), asc(ticketTypes.id));
  const counts = await db
    .select({
      ticketTypeId: tickets.ticketTypeId,
      name: sql<string>`max(${tickets.ticketTypeName})`,
      sold: sql<number>`count(*) filter (where ${SOLD})`.mapWith(Number),
      checkedIn: sql<number>`count(*) filter (where ${SOLD} and ${tickets.used})`.mapWith(Number),
    })
    .from(tickets)
    .innerJoin(orders, and(eq(orders.tenantId, tickets.tenantId), eq(orders.id, tickets.orderId)))
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.eventId, eventId)))
    .groupBy(tickets.ticketTypeId);
  const byId = new Map(counts.map((c) => [c.ticketTypeId, c]));
  const out = types.map((t) => ({ id: t.id, name: t.name, sold: byId.get(t.id)?.sold ?? 0, checkedIn: byId.get(t.id)?.checkedIn ?? 0 }));
  const known = new Set(types.map((t) => t.id));
  for (const c of counts.filter((x) => !known.has(x.ticketTypeId)).sort((a, b) => a.name.localeCompare(b.name)))
    out.push({ id: c.ticketTypeId, name: c.name, sold: c.sold, checkedIn: c.checkedIn });
  return out;
}

/**
 * The ticket's order row, locked (FOR NO KEY UPDATE, what the reports' trigger takes when the ticket
 * changes) before the ticket itself: the one lock order (docs/decisions.md "Issue 21.2: one lock
 * order") is an order, then its tickets, so the door queues behind a refund or a void of the same
 * order instead of deadlocking with it. As SQL, for use inside one statement.
 */
const lockOrderOfTicket = (tenantId: string, ticketId: string) => sql`
  select o.id from ${orders} o
  where o.tenant_id = ${tenantId}::uuid
    and o.id = (select t.order_id from ${tickets} t where t.tenant_id = ${tenantId}::uuid and t.id = ${ticketId}::uuid)
  for no key update`;

/** Locks the ticket's order (see lockOrderOfTicket) for the rest of the caller's transaction. */
export async function lockOrderOfTicketRow(tx: DbOrTx, tenantId: string, ticketId: string): Promise<void> {
  await tx.execute(lockOrderOfTicket(tenantId, ticketId));
}

/**
 * Admits the ticket and records the admission, in one statement (atomic by itself, and one round
 * trip on the hot path): the ticket is taken only if, at this instant, it is neither used nor voided
 * (a conditional UPDATE, so that of two doors scanning it at once exactly one gets the row: issue 11
 * "Exactly once") and this scan's clientScanId is not recorded yet. False when the ticket was not
 * admitted (nothing written). A clientScanId recorded meanwhile by a concurrent retry fails the
 * statement as a whole with a unique violation: the caller answers the recorded scan instead.
 * The order's row is locked first (`ord`, evaluated once before any ticket row is touched): a
 * refund or void that holds it finishes first, and the UPDATE then sees the ticket as they left it.
 */
export async function admitTicket(
  db: DbOrTx,
  s: {
    tenantId: string;
    eventId: string;
    ticketId: string;
    /** A scanned code's Ticket ID: the ticket is admitted only while it still has it (issue 24, a transfer gives it a new one). */
    ticketUid?: string;
    scanId: string;
    clientScanId: string;
    deviceId: string;
    userId: string;
    at: Date;
    scannedAt: Date;
    details: string;
  },
  /** The domain event to record with the admission (platform/domain-events.ts domainEventCtes over `scan`), in the same statement. */
  event?: (after: string) => SQL,
): Promise<boolean> {
  const res = (await db.execute(sql`
    with ord as (${lockOrderOfTicket(s.tenantId, s.ticketId)}),
    taken as (
      update ${tickets} set used = true, used_at = ${s.at.toISOString()}::timestamptz, used_by_device = ${s.deviceId}, used_by_user = ${s.userId}::uuid, used_by_scan = ${s.scanId}::uuid
      where tenant_id = ${s.tenantId}::uuid and id = ${s.ticketId}::uuid and not used and not voided
        ${s.ticketUid === undefined ? sql`` : sql`and ticket_uid = ${s.ticketUid}`}
        and order_id = (select id from ord)
        and not exists (select 1 from ${checkinScans} c where c.tenant_id = ${s.tenantId}::uuid and c.client_scan_id = ${s.clientScanId}::uuid)
      returning id
    ),
    scan as (
      insert into ${checkinScans} (tenant_id, id, event_id, ticket_id, client_scan_id, device_id, user_id, kind, result, scanned_at, recorded_at, details)
      select ${s.tenantId}::uuid, ${s.scanId}::uuid, ${s.eventId}::uuid, taken.id, ${s.clientScanId}::uuid, ${s.deviceId}, ${s.userId}::uuid, 'admit', 'admitted', ${s.scannedAt.toISOString()}::timestamptz, ${s.at.toISOString()}::timestamptz, ${s.details}
      from taken
      returning id
    )${event ? sql`, ${event('scan')}` : sql``}
    select id from scan`)) as unknown as { rows: unknown[] };
  return res.rows.length === 1;
}

// ---- the door scan in one statement (issue 26) ---------------------------------------------------
//
// A scan's hot path: the ticket as the door sees it AND, when it is this event's and valid at this
// instant, its admission (the order's lock, then the conditional UPDATE, the scan's record and the
// ticket.checked_in event with its delivery job): one prepared statement, one round trip, instead of a
// read and then the admission (bench/README.md "Door scans"). The same SQL as doorTickets and
// admitTicket above; what the read returns is the ticket as of the statement's start, so a ticket that
// was valid then but not admitted lost a race (another door, a refund): the caller reads it again.

const P = (name: string) => sql.placeholder(name);
const DOOR_SCAN_PARAMS = ['tenantId', 'eventId', 'ref', 'uid', 'scanId', 'clientScanId', 'deviceId', 'userId', 'at', 'scannedAt', 'via', 'eventRowId'] as const;
export type DoorScanParams = Record<(typeof DOOR_SCAN_PARAMS)[number], string | null>;

/**
 * `guarded`: the statement also reads the request's session as the guard would (platform/auth/guard.ts
 * guardSessionCtes, for CHECKIN) and reads and writes nothing of the door unless the guard's check
 * passes (`guard_allowed`), the scanner being the session's user; its rows are the session's (none:
 * no live session), with the door's columns beside it (null: no ticket, or not allowed). So a scan is
 * one round trip, and the session is still read from the database at every scan (no session cache).
 */
function doorScanSql(by: 'uid' | 'id', guarded: boolean): SQL {
  const tenantId = sql`${P('tenantId')}::uuid`;
  const match = by === 'uid' ? sql`t.ticket_uid = ${P('ref')}::text` : sql`t.id = ${P('ref')}::uuid`;
  const userId = guarded ? sql`(select user_id from guard_allowed)` : sql`${P('userId')}::uuid`;
  return sql`
    with ${guarded ? sql`${guardSessionCtes(CHECKIN)},` : sql``}
    door as (
      select t.id, t.event_id, t.ticket_uid, t.order_id, o.order_uid, t.full_name, t.email, t.ticket_type_id, t.ticket_type_name, t.seat_label,
        t.used, t.voided, t.used_at, t.used_by_device, t.used_by_scan, u.first_name as used_by_first_name, u.last_name as used_by_last_name,
        u.email as used_by_email, (o.status in ('processing', 'completed')) as paid,
        exists (select 1 from ${refunds} r where r.tenant_id = t.tenant_id and r.order_id = t.order_id
          and r.status in ('pending', 'succeeded') and t.id = any(r.ticket_ids)) as refunded
      from ${tickets} t
      join ${orders} o on o.tenant_id = t.tenant_id and o.id = t.order_id
      left join ${users} u on u.id = t.used_by_user
      where t.tenant_id = ${tenantId} and ${match}${guarded ? sql` and exists (select 1 from guard_allowed)` : sql``}
    ),
    known as (select 1 from ${checkinScans} c where c.tenant_id = ${tenantId} and c.client_scan_id = ${P('clientScanId')}::uuid),
    ord as (
      select o.id from ${orders} o
      where o.tenant_id = ${tenantId}
        and o.id = (select d.order_id from door d where d.event_id = ${P('eventId')}::uuid and d.paid and not d.voided and not d.used)
      for no key update
    ),
    taken as (
      update ${tickets} set used = true, used_at = ${P('at')}::timestamptz, used_by_device = ${P('deviceId')}::text, used_by_user = ${userId},
        used_by_scan = ${P('scanId')}::uuid
      where tenant_id = ${tenantId} and id = (select d.id from door d) and not used and not voided
        and (${P('uid')}::text is null or ticket_uid = ${P('uid')}::text)
        and order_id = (select id from ord)
        and not exists (select 1 from known)
      returning id
    ),
    scan as (
      insert into ${checkinScans} (tenant_id, id, event_id, ticket_id, client_scan_id, device_id, user_id, kind, result, scanned_at, recorded_at, details)
      select ${tenantId}, ${P('scanId')}::uuid, ${P('eventId')}::uuid, taken.id, ${P('clientScanId')}::uuid, ${P('deviceId')}::text, ${userId},
        'admit', 'admitted', ${P('scannedAt')}::timestamptz, ${P('at')}::timestamptz, json_build_object('via', ${P('via')}::text)::text
      from taken
      returning id
    ),
    -- The refusal of a ticket of this event that is not valid as the statement begins, recorded with
    -- why: the door state of service.ts stateOf (voided: refunded or voided; an unpaid order: voided;
    -- used: already_used, with who admitted it and when, as the answer shows them). A clientScanId
    -- recorded already (a retry) records nothing: the caller answers the recorded scan.
    refusal as (
      insert into ${checkinScans} (tenant_id, id, event_id, ticket_id, client_scan_id, device_id, user_id, kind, result, scanned_at, recorded_at, details)
      select ${tenantId}, ${P('scanId')}::uuid, ${P('eventId')}::uuid, d.id, ${P('clientScanId')}::uuid, ${P('deviceId')}::text, ${userId}, 'admit',
        case when d.voided and d.refunded then 'refunded' when d.voided or not d.paid then 'voided' else 'already_used' end,
        ${P('scannedAt')}::timestamptz, ${P('at')}::timestamptz,
        case when d.voided or not d.paid then json_build_object('via', ${P('via')}::text)::text
          else json_build_object('via', ${P('via')}::text, 'previous', json_build_object(
            'usedAt', to_char(d.used_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'deviceId', d.used_by_device,
            -- service.ts personName: first and last name, else the e-mail; only when someone is known.
            'name', case when coalesce(d.used_by_device, '') <> '' or coalesce(d.used_by_email, '') <> ''
              then coalesce(nullif(btrim(coalesce(d.used_by_first_name, '') || ' ' || coalesce(d.used_by_last_name, '')), ''), nullif(d.used_by_email, ''), '') end))::text
        end
      from door d
      where d.event_id = ${P('eventId')}::uuid and (d.voided or not d.paid or d.used)
      on conflict (tenant_id, client_scan_id) do nothing
      returning result, details
    ),
    ${domainEventCtesOf(
      {
        id: P('eventRowId'),
        tenantId: P('tenantId'),
        type: 'ticket.checked_in',
        // The event's data as the admission's answer names it (WebhookEventData['ticket.checked_in']).
        data: sql`(select jsonb_build_object(
          'ticket', jsonb_build_object('id', d.id, 'uid', d.ticket_uid, 'eventId', d.event_id, 'orderId', d.order_id),
          'scan', jsonb_build_object('id', ${P('scanId')}::uuid, 'at', ${P('at')}::text, 'deviceId', ${P('deviceId')}::text)) from door d)`,
      },
      'scan',
    )}
    -- One column, the row as JSON (issue 26, scan3): the pg client's work per column of an answer
    -- (a parser per field, a Date per timestamp) was a share of a scan's CPU; JSON.parse reads it whole.
    select row_to_json(x)::text as r from (
      select ${guarded ? sql`guard_session.*, exists (select 1 from guard_allowed) as allowed, ` : sql``}door.*, exists (select 1 from scan) as admitted,
        exists (select 1 from known) as known, (select result from refusal) as refused, (select details from refusal) as refused_details
      from ${guarded ? sql`guard_session left join door on true` : sql`door`}) x`;
}

/** A statement compiled once: its text, and its values in parameter order from the named values given (later sources win). */
export type NumberedStatement = { name: string; text: string; values(...sources: Array<Record<string, unknown>>): unknown[] };

/**
 * `query` compiled once with each of its parameters numbered once (issue 26, scan5): drizzle numbers
 * every occurrence of a placeholder apart ($1, $2, … for the same tenantId), so the door's statement
 * bound 50 values for 20 names, each serialized by pg and parsed by PostgreSQL at every scan. Here the
 * occurrences of one placeholder with the same cast (`$n::uuid`), or of one constant with the same
 * cast, share one $n: PostgreSQL gives a parameter the type of its cast, so they read exactly as before.
 * An occurrence without a cast (its type taken from where it stands) keeps a $n of its own. `values`
 * replaces drizzle's fillPlaceholders (an entity check per parameter) with a lookup by position.
 */
export function numberedStatement(name: string, query: SQL): NumberedStatement {
  const { sql: text, params } = new PgDialect().sqlToQuery(query);
  const slots: Array<{ placeholder: string } | { value: unknown }> = [];
  const numbers = new Map<string, number>();
  let occurrence = 0;
  const renumbered = text.replace(/\$(\d+)(::[a-z_]+(?:\[\])?)?/g, (_all, digits: string, cast: string | undefined) => {
    const p = params[occurrence];
    // drizzle numbers its parameters $1, $2, … in the order they appear; anything else is not its text.
    if (Number(digits) !== ++occurrence || p === undefined) throw new Error(`${name}: parameter $${digits} out of order`);
    const slot = is(p, Placeholder) ? { placeholder: p.name as string } : { value: p };
    if ('value' in slot && slot.value !== null && typeof slot.value === 'object') throw new Error(`${name}: parameter $${digits} is neither a placeholder nor a constant`);
    const key = cast ? `${'placeholder' in slot ? `p:${slot.placeholder}` : `v:${JSON.stringify(slot.value)}`}${cast}` : null;
    let n = key === null ? undefined : numbers.get(key);
    if (n === undefined) {
      slots.push(slot);
      n = slots.length;
      if (key !== null) numbers.set(key, n);
    }
    return `$${n}${cast ?? ''}`;
  });
  if (occurrence !== params.length) throw new Error(`${name}: ${params.length} parameters, ${occurrence} in the text`);
  return {
    name,
    text: renumbered,
    values(...sources) {
      const out = new Array<unknown>(slots.length);
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        if ('value' in slot) {
          out[i] = slot.value;
          continue;
        }
        let k = sources.length - 1;
        while (k >= 0 && !(slot.placeholder in sources[k]!)) k--;
        if (k < 0) throw new Error(`No value for placeholder "${slot.placeholder}" was provided`);
        out[i] = sources[k]![slot.placeholder];
      }
      return out;
    },
  };
}

/** The statements, compiled once (the text is constant: prepared by name on PostgreSQL). */
const doorScanStatements = (() => {
  const compile = (by: 'uid' | 'id', guarded: boolean) => numberedStatement(`mq_door_scan_by_${by}${guarded ? '_guarded' : ''}`, doorScanSql(by, guarded));
  return { uid: compile('uid', false), id: compile('id', false), guardedUid: compile('uid', true), guardedId: compile('id', true) };
})();

const asDate = (v: unknown): Date | null => (v == null ? null : v instanceof Date ? v : new Date(String(v)));
const asBool = (v: unknown): boolean => v === true || v === 't';

export type DoorScan = {
  ticket: DoorTicketRow;
  /** This scan admitted the ticket (and recorded it). */
  admitted: boolean;
  /** This scan's refusal as recorded (the ticket was this event's and not valid), with its details (JSON). */
  refused: { result: 'already_used' | 'voided' | 'refunded'; details: string } | null;
  /** The clientScanId was recorded already as the statement began (a retry). */
  known: boolean;
};

/**
 * The scan's ticket by its printed uid (`by: 'uid'`) or its uuid, admitted by this scan when it is
 * `eventId`'s and valid (paid, not voided, not used) and, when `uid` is given, still has that Ticket ID;
 * refused and recorded when it is `eventId`'s and not valid. Null when the tenant has no such ticket.
 * Neither admitted nor refused with a ticket of the event that reads valid: the admission lost a race
 * (run it again); that reads not valid: the clientScanId was recorded already (a retry). Outside a
 * transaction (the box office's admission in its sale's transaction is admitTicket). A clientScanId
 * recorded by a concurrent retry may also fail the statement with a unique violation, as admitTicket.
 */
export async function scanDoorTicket(db: Db, by: 'uid' | 'id', values: DoorScanParams): Promise<DoorScan | null> {
  const statement = doorScanStatements[by];
  const r = rowOf(await runPrepared(db, statement.name, statement.text, statement.values(values)));
  return r ? doorScanOf(r) : null;
}

/** What the guarded statement read of the session (null: no live session) and whether the guard's check passed in it. */
export type GuardedDoorScan = { session: GuardSession | null; stale: unknown; allowed: boolean; scan: DoorScan | null };

/**
 * scanDoorTicket with the request's session read and the guard's check made in the same statement
 * (doorScanSql `guarded`): nothing of the door is read or written unless `allowed`; the scanner is the
 * session's user (`values.userId` is not used).
 */
export async function scanDoorTicketGuarded(db: Db, by: 'uid' | 'id', values: DoorScanParams, guard: GuardStatementParams): Promise<GuardedDoorScan> {
  const statement = by === 'uid' ? doorScanStatements.guardedUid : doorScanStatements.guardedId;
  const r = rowOf(await runPrepared(db, statement.name, statement.text, statement.values(values, guard)));
  if (!r) return { session: null, stale: false, allowed: false, scan: null };
  return { session: guardSessionOf(r, 'gs_'), stale: r.gs_stale, allowed: asBool(r.allowed), scan: r.id == null ? null : doorScanOf(r) };
}

/** The door statement's one row, its one column `r` the row as JSON (text), or undefined. */
function rowOf(rows: Array<Record<string, unknown>>): Record<string, unknown> | undefined {
  const raw = rows[0]?.r;
  return raw == null ? undefined : ((typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>);
}

function doorScanOf(r: Record<string, unknown>): DoorScan {
  const ticket: DoorTicketRow = {
    id: r.id as string,
    eventId: r.event_id as string,
    ticketUid: r.ticket_uid as string,
    orderId: r.order_id as string,
    orderUid: r.order_uid as string,
    fullName: r.full_name as string,
    email: r.email as string,
    ticketTypeId: r.ticket_type_id as string,
    ticketTypeName: r.ticket_type_name as string,
    seatLabel: (r.seat_label as string | null) ?? null,
    used: asBool(r.used),
    voided: asBool(r.voided),
    usedAt: asDate(r.used_at),
    usedByDevice: (r.used_by_device as string | null) ?? null,
    usedByScan: (r.used_by_scan as string | null) ?? null,
    usedByFirstName: (r.used_by_first_name as string | null) ?? null,
    usedByLastName: (r.used_by_last_name as string | null) ?? null,
    usedByEmail: (r.used_by_email as string | null) ?? null,
    paid: asBool(r.paid),
    refunded: asBool(r.refunded),
  };
  const refused = r.refused ? { result: r.refused as 'already_used' | 'voided' | 'refunded', details: r.refused_details as string } : null;
  return { ticket, admitted: asBool(r.admitted), refused, known: asBool(r.known) };
}

/** Takes back the admission made by `scanId`, if it is still the ticket's admission. */
export async function unadmitTicket(tx: DbOrTx, t: { tenantId: string; ticketId: string; scanId: string }): Promise<boolean> {
  const rows = await tx
    .update(tickets)
    .set({ used: false, usedAt: null, usedByDevice: null, usedByUser: null, usedByScan: null })
    .where(and(eq(tickets.tenantId, t.tenantId), eq(tickets.id, t.ticketId), eq(tickets.used, true), eq(tickets.usedByScan, t.scanId)))
    .returning({ id: tickets.id });
  return rows.length === 1;
}

export type ScanRow = typeof checkinScans.$inferSelect;

/** Records a scan; false when this device's scan id is already recorded (a retry), leaving that one. */
export async function insertScan(tx: DbOrTx, row: typeof checkinScans.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(checkinScans)
    .values(row)
    .onConflictDoNothing({ target: [checkinScans.tenantId, checkinScans.clientScanId] })
    .returning({ id: checkinScans.id });
  return rows.length === 1;
}

/** Records an undo; false when the admission already has one. */
export async function insertUndo(tx: DbOrTx, row: typeof checkinScans.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(checkinScans)
    .values(row)
    .onConflictDoNothing({ target: [checkinScans.tenantId, checkinScans.undoneOf] })
    .returning({ id: checkinScans.id });
  return rows.length === 1;
}

export async function findScanByClientId(db: DbOrTx, tenantId: string, clientScanId: string): Promise<ScanRow | null> {
  const [row] = await db
    .select()
    .from(checkinScans)
    .where(and(eq(checkinScans.tenantId, tenantId), eq(checkinScans.clientScanId, clientScanId)));
  return row ?? null;
}

export async function findScan(db: DbOrTx, tenantId: string, eventId: string, scanId: string): Promise<ScanRow | null> {
  const [row] = await db
    .select()
    .from(checkinScans)
    .where(and(eq(checkinScans.tenantId, tenantId), eq(checkinScans.eventId, eventId), eq(checkinScans.id, scanId)));
  return row ?? null;
}

/**
 * A Ticket ID a transfer took away (issue 24): the ticket, its event and when. The transfers module
 * writes ticket_transfers; the door reads it here (a lower module reads the table itself).
 */
export async function findTransferredUid(db: DbOrTx, tenantId: string, uid: string): Promise<{ ticketId: string; eventId: string; at: Date } | null> {
  const [row] = await db
    .select({ ticketId: ticketTransfers.ticketId, eventId: ticketTransfers.eventId, at: ticketTransfers.createdAt })
    .from(ticketTransfers)
    .where(and(eq(ticketTransfers.tenantId, tenantId), eq(ticketTransfers.fromUid, uid)));
  return row ?? null;
}

/** The event's Ticket IDs that transfers took away: the manifest's revoked codes. */
export async function transferredUids(db: DbOrTx, tenantId: string, eventId: string): Promise<Array<{ ticketUid: string; at: Date }>> {
  return db
    .select({ ticketUid: ticketTransfers.fromUid, at: ticketTransfers.createdAt })
    .from(ticketTransfers)
    .where(and(eq(ticketTransfers.tenantId, tenantId), eq(ticketTransfers.eventId, eventId)))
    .orderBy(asc(ticketTransfers.createdAt));
}
