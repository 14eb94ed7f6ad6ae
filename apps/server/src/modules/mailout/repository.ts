import { PAID_ORDER_STATUSES } from '@marquee/core';
import { and, asc, count, eq, gt, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { attendeeMessageRecipients, attendeeMessages, events, mailOptOuts, tenants, ticketTypes } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

// Messages to attendees' SQL (issue 15).

export type AttendeeMessageRow = typeof attendeeMessages.$inferSelect;

export const MESSAGE_LIST: ListSpec = {
  fields: {
    'details.dateCreated': { expr: attendeeMessages.createdAt, type: 'timestamp' },
    'details.subject': { expr: attendeeMessages.subject, type: 'text', match: 'contains' },
    'details.status': { expr: attendeeMessages.status, type: 'text' },
  },
  id: attendeeMessages.id,
  defaultSort: '-details.dateCreated',
};

export type Audience = { tenantId: string; eventId: string; ticketTypeIds: string[] | null };

const PAID = sql.raw(`(${PAID_ORDER_STATUSES.map((s) => `'${s}'`).join(', ')})`);

/**
 * Every distinct address holding a paid, valid ticket of the event (of the chosen types): the
 * buyer's and the ticket holder's, lower-case, with whether it opted out of this tenant's
 * messages and whether it opted in to its news at a checkout (the subscribers list).
 */
function addressesOf(a: Audience): SQL {
  const types = a.ticketTypeIds ? sql`and t.ticket_type_id in (${sql.join(a.ticketTypeIds.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``;
  return sql`
    select x.email,
      exists (select 1 from mail_opt_outs m where m.tenant_id = ${a.tenantId} and m.email = x.email) as opted_out,
      exists (select 1 from subscribers s where s.tenant_id = ${a.tenantId} and lower(s.email) = x.email and s.opt_in_email) as opted_in
    from (
      select distinct lower(trim(v.email)) as email
      from tickets t
      join orders o on o.tenant_id = t.tenant_id and o.id = t.order_id
      cross join lateral (values (t.email), (o.email)) as v(email)
      where t.tenant_id = ${a.tenantId} and t.event_id = ${a.eventId} and o.status in ${PAID} and not t.voided ${types}
        and trim(v.email) <> ''
    ) x`;
}

/** Who counts as a recipient: not opted out and, for marketing, opted in. */
const eligible = (marketing: boolean) => (marketing ? sql`not a.opted_out and a.opted_in` : sql`not a.opted_out`);

export async function countAudience(db: DbOrTx, a: Audience & { marketing: boolean }) {
  const result = await db.execute(sql`
    select count(*) filter (where ${eligible(a.marketing)})::int as recipients,
      count(*) filter (where a.opted_out)::int as opted_out,
      count(*) filter (where not a.opted_out and not a.opted_in)::int as not_opted_in
    from (${addressesOf(a)}) a`);
  const row = (result as unknown as { rows: Array<{ recipients: number; opted_out: number; not_opted_in: number }> }).rows[0]!;
  return { recipients: Number(row.recipients), optedOut: Number(row.opted_out), notOptedIn: a.marketing ? Number(row.not_opted_in) : 0 };
}

/** Writes the message's recipient rows once; answers how many went in and how many were left out as opted out. */
export async function snapshotRecipients(tx: DbOrTx, m: AttendeeMessageRow) {
  const audience: Audience = { tenantId: m.tenantId, eventId: m.eventId, ticketTypeIds: m.recipients === 'ticket_types' ? m.ticketTypeIds : null };
  await tx.execute(sql`
    insert into attendee_message_recipients (tenant_id, message_id, email)
    select ${m.tenantId}, ${m.id}, a.email from (${addressesOf(audience)}) a where ${eligible(m.marketing)}
    on conflict do nothing`);
  const counted = await countAudience(tx, { ...audience, marketing: m.marketing });
  const [total] = await tx
    .select({ n: count() })
    .from(attendeeMessageRecipients)
    .where(and(eq(attendeeMessageRecipients.tenantId, m.tenantId), eq(attendeeMessageRecipients.messageId, m.id)));
  return { total: total?.n ?? 0, optedOut: counted.optedOut };
}

export async function insertMessage(tx: DbOrTx, row: typeof attendeeMessages.$inferInsert) {
  const [created] = await tx.insert(attendeeMessages).values(row).returning();
  return created!;
}

/** Locks the event's row for this message's checks (NO KEY UPDATE: orders referencing the event are not held up). */
export async function lockEvent(tx: DbOrTx, tenantId: string, eventId: string) {
  await tx.select({ id: events.id }).from(events).where(and(eq(events.tenantId, tenantId), eq(events.id, eventId))).for('no key update');
}

/** Whether a message of the event is still queued or being sent. */
export async function hasMessageInFlight(db: DbOrTx, tenantId: string, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: attendeeMessages.id })
    .from(attendeeMessages)
    .where(and(eq(attendeeMessages.tenantId, tenantId), eq(attendeeMessages.eventId, eventId), inArray(attendeeMessages.status, ['queued', 'sending'])))
    .limit(1);
  return !!row;
}

/**
 * When the event's messages since `since` were created, oldest first: each one that went out or is
 * on its way (one that failed before mailing anybody reached nobody, so it does not count).
 */
export async function messagesSince(db: DbOrTx, tenantId: string, eventId: string, since: Date): Promise<Date[]> {
  const rows = await db
    .select({ createdAt: attendeeMessages.createdAt })
    .from(attendeeMessages)
    .where(
      and(
        eq(attendeeMessages.tenantId, tenantId),
        eq(attendeeMessages.eventId, eventId),
        gt(attendeeMessages.createdAt, since),
        or(ne(attendeeMessages.status, 'failed'), gt(attendeeMessages.sent, 0)),
      ),
    )
    .orderBy(asc(attendeeMessages.createdAt));
  return rows.map((r) => r.createdAt);
}

export async function findMessage(db: DbOrTx, tenantId: string, id: string, lock = false): Promise<AttendeeMessageRow | undefined> {
  const q = db.select().from(attendeeMessages).where(and(eq(attendeeMessages.tenantId, tenantId), eq(attendeeMessages.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function updateMessage(tx: DbOrTx, tenantId: string, id: string, set: Partial<typeof attendeeMessages.$inferInsert>) {
  await tx.update(attendeeMessages).set(set).where(and(eq(attendeeMessages.tenantId, tenantId), eq(attendeeMessages.id, id)));
}

export async function listMessages(db: DbOrTx, tenantId: string, eventId: string, q: CompiledList) {
  const own = and(eq(attendeeMessages.tenantId, tenantId), eq(attendeeMessages.eventId, eventId));
  const rows = await db
    .select({ row: attendeeMessages, _sort: q.sortKey, _id: q.idKey })
    .from(attendeeMessages)
    .where(and(own, q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(attendeeMessages).where(and(own, q.where));
  return { rows, total: total?.n ?? 0 };
}

/** The ticket types of the event among `ids`, id -> name, in the event's order. */
export async function ticketTypesOf(db: DbOrTx, tenantId: string, eventId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: ticketTypes.id, name: ticketTypes.name })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId), inArray(ticketTypes.id, ids)))
    .orderBy(ticketTypes.sortOrder, ticketTypes.name);
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * Recipients still to mail. Those who unsubscribed since the count are marked skipped first and
 * move from the total to the opted-out figure, so that a finished message reads "n of n".
 */
export async function nextPending(db: DbOrTx, m: { tenantId: string; id: string }, limit: number): Promise<string[]> {
  await db.transaction(async (tx) => {
    const skipped = await tx.execute(sql`
      update attendee_message_recipients r set status = 'skipped'
      where r.tenant_id = ${m.tenantId} and r.message_id = ${m.id} and r.status = 'pending'
        and exists (select 1 from mail_opt_outs o where o.tenant_id = r.tenant_id and o.email = r.email)
      returning r.email`);
    const n = (skipped as unknown as { rows: unknown[] }).rows.length;
    if (n > 0)
      await tx
        .update(attendeeMessages)
        .set({ total: sql`${attendeeMessages.total} - ${n}`, optedOut: sql`${attendeeMessages.optedOut} + ${n}` })
        .where(and(eq(attendeeMessages.tenantId, m.tenantId), eq(attendeeMessages.id, m.id)));
  });
  const rows = await db
    .select({ email: attendeeMessageRecipients.email })
    .from(attendeeMessageRecipients)
    .where(and(eq(attendeeMessageRecipients.tenantId, m.tenantId), eq(attendeeMessageRecipients.messageId, m.id), eq(attendeeMessageRecipients.status, 'pending')))
    .orderBy(attendeeMessageRecipients.email)
    .limit(limit);
  return rows.map((r) => r.email);
}

/** Claims one recipient for sending, in the transaction that writes its mail: false when it was sent (or skipped) already. */
export async function claimRecipient(tx: DbOrTx, m: { tenantId: string; id: string }, email: string): Promise<boolean> {
  const rows = await tx
    .update(attendeeMessageRecipients)
    .set({ status: 'sent', sentAt: new Date() })
    .where(
      and(
        eq(attendeeMessageRecipients.tenantId, m.tenantId),
        eq(attendeeMessageRecipients.messageId, m.id),
        eq(attendeeMessageRecipients.email, email),
        eq(attendeeMessageRecipients.status, 'pending'),
      ),
    )
    .returning({ email: attendeeMessageRecipients.email });
  return rows.length === 1;
}

export async function setRecipientOutbox(tx: DbOrTx, m: { tenantId: string; id: string }, email: string, outboxId: string) {
  await tx
    .update(attendeeMessageRecipients)
    .set({ outboxId })
    .where(and(eq(attendeeMessageRecipients.tenantId, m.tenantId), eq(attendeeMessageRecipients.messageId, m.id), eq(attendeeMessageRecipients.email, email)));
}

export async function addSent(tx: DbOrTx, m: { tenantId: string; id: string }, n: number) {
  await tx
    .update(attendeeMessages)
    .set({ sent: sql`${attendeeMessages.sent} + ${n}`, status: 'sending' })
    .where(and(eq(attendeeMessages.tenantId, m.tenantId), eq(attendeeMessages.id, m.id)));
}

export async function senderInfo(db: DbOrTx, tenantId: string, eventId: string) {
  const [row] = await db
    .select({ organiser: tenants.name, tenantUrl: tenants.url, contactEmail: tenants.email, eventName: events.name, urlName: events.urlName })
    .from(events)
    .innerJoin(tenants, eq(tenants.id, events.tenantId))
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row;
}

export async function isOptedOut(db: DbOrTx, tenantId: string, email: string) {
  const [row] = await db.select({ email: mailOptOuts.email }).from(mailOptOuts).where(and(eq(mailOptOuts.tenantId, tenantId), eq(mailOptOuts.email, email)));
  return !!row;
}

export async function optOut(db: DbOrTx, tenantId: string, email: string) {
  await db.insert(mailOptOuts).values({ tenantId, email }).onConflictDoNothing();
}

export async function optIn(db: DbOrTx, tenantId: string, email: string) {
  await db.delete(mailOptOuts).where(and(eq(mailOptOuts.tenantId, tenantId), eq(mailOptOuts.email, email)));
}
