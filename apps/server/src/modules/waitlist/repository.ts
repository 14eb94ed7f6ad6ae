import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, jobs, orders, outbox, tenants, ticketTypes, waitlistEntries, waitlistSettings } from '../../db/schema/index.js';
import { MAIL_JOB } from '../../platform/mail.js';

// The waiting list's SQL (issue 24). Lock order (docs/architecture.md): the event's settings row,
// then its entries by join order, before any ticket type, event or order; no path that holds one of
// those takes a waiting-list row.

export type SettingsRow = typeof waitlistSettings.$inferSelect;
export type EntryRow = typeof waitlistEntries.$inferSelect;

export const DEFAULT_SETTINGS = { enabled: true, offerMinutes: 60 } as const;

export async function findSettings(db: DbOrTx, tenantId: string, eventId: string): Promise<SettingsRow | undefined> {
  const [row] = await db.select().from(waitlistSettings).where(and(eq(waitlistSettings.tenantId, tenantId), eq(waitlistSettings.eventId, eventId)));
  return row;
}

/** The event's list row, made with the defaults when missing, and locked to the end of the transaction. */
export async function lockSettings(tx: DbOrTx, tenantId: string, eventId: string): Promise<SettingsRow> {
  await tx.insert(waitlistSettings).values({ tenantId, eventId }).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(waitlistSettings)
    .where(and(eq(waitlistSettings.tenantId, tenantId), eq(waitlistSettings.eventId, eventId)))
    .for('update');
  return row!;
}

export async function saveSettings(tx: DbOrTx, tenantId: string, eventId: string, s: { enabled: boolean; offerMinutes: number }) {
  await tx
    .insert(waitlistSettings)
    .values({ tenantId, eventId, ...s })
    .onConflictDoUpdate({ target: [waitlistSettings.tenantId, waitlistSettings.eventId], set: { ...s, updatedAt: new Date() } });
}

/** Inserts the entry; false when this address already has a live entry for the ticket type. */
export async function insertEntry(db: DbOrTx, e: { tenantId: string; id: string; eventId: string; ticketTypeId: string; email: string; quantity: number }): Promise<boolean> {
  const rows = await db
    .insert(waitlistEntries)
    .values(e)
    // The only conflict a new id can meet is waitlist_entries_one_live.
    .onConflictDoNothing()
    .returning({ id: waitlistEntries.id });
  return rows.length === 1;
}

/** The entry's place among those waiting (1 = next), or its join rank for an entry that waits no more. */
export async function positionOf(db: DbOrTx, tenantId: string, eventId: string, seq: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.tenantId, tenantId), eq(waitlistEntries.eventId, eventId), eq(waitlistEntries.state, 'waiting'), sql`${waitlistEntries.seq} <= ${seq}`));
  return row?.n ?? 0;
}

export async function findEntry(db: DbOrTx, tenantId: string, entryId: string): Promise<EntryRow | undefined> {
  const [row] = await db.select().from(waitlistEntries).where(and(eq(waitlistEntries.tenantId, tenantId), eq(waitlistEntries.id, entryId)));
  return row;
}

/**
 * Offers past their deadline whose draft is gone become claimed (an order bought them) or expired.
 * Run under the settings lock; reads orders without locking them. (Before the deadline the list
 * shows an offer's state from its orders, listEntries; only offers past it need writing down.)
 */
export async function settleOffers(tx: DbOrTx, tenantId: string, eventId: string): Promise<void> {
  await tx.execute(sql`
    update ${waitlistEntries} w set
      state = case when b.order_id is not null then 'claimed' else 'expired' end,
      claimed_order_id = b.order_id, updated_at = now()
    from (
      select w2.id,
        (select o.id from ${orders} o where o.tenant_id = w2.tenant_id and o.waitlist_entry_id = w2.id
           and o.status not in ('draft', 'expired', 'replaced') order by o.created_at limit 1) as order_id
      from ${waitlistEntries} w2
      where w2.tenant_id = ${tenantId} and w2.event_id = ${eventId} and w2.state = 'offered' and w2.offer_expires_at <= now()
        and not exists (select 1 from ${orders} d where d.tenant_id = w2.tenant_id and d.waitlist_entry_id = w2.id and d.status = 'draft')
    ) b
    where w.tenant_id = ${tenantId} and w.id = b.id`);
}

/** What is free now: each ticket type's remaining tickets and the event's capacity (null: none). */
export async function freeTickets(tx: DbOrTx, tenantId: string, eventId: string) {
  const [event] = await tx
    .select({ status: events.status, remainingCapacity: events.remainingCapacity })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  const types = await tx
    .select({ id: ticketTypes.id, remaining: ticketTypes.remaining, maxPerOrder: ticketTypes.maxPerOrder, active: ticketTypes.active })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId)));
  return { event, types };
}

/** The next waiting entries in join order, locked (after the settings row, before any ticket type). */
export async function lockWaiting(tx: DbOrTx, tenantId: string, eventId: string, limit: number, onlyId?: string): Promise<EntryRow[]> {
  return tx
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.tenantId, tenantId),
        eq(waitlistEntries.eventId, eventId),
        eq(waitlistEntries.state, 'waiting'),
        onlyId ? eq(waitlistEntries.id, onlyId) : undefined,
      ),
    )
    .orderBy(asc(waitlistEntries.seq))
    .limit(limit)
    .for('update');
}

export type OfferMade = { entryId: string; quantity: number; orderId: string; tokenHash: string; offeredAt: Date; expiresAt: Date };

export async function markOffered(tx: DbOrTx, tenantId: string, offers: readonly OfferMade[]) {
  if (offers.length === 0) return;
  const json = JSON.stringify(offers.map((o) => ({ id: o.entryId, q: o.quantity, o: o.orderId, h: o.tokenHash, a: o.offeredAt.toISOString(), x: o.expiresAt.toISOString() })));
  await tx.execute(sql`
    update ${waitlistEntries} w set state = 'offered', offered_quantity = (x->>'q')::int, offer_order_id = (x->>'o')::uuid,
      claim_token_hash = x->>'h', offer_expires_at = (x->>'x')::timestamptz, offered_at = (x->>'a')::timestamptz, updated_at = now()
    from jsonb_array_elements(${json}::jsonb) x
    where w.tenant_id = ${tenantId} and w.id = (x->>'id')::uuid and w.state = 'waiting'`);
}

export async function setState(tx: DbOrTx, tenantId: string, entryId: string, state: string) {
  await tx
    .update(waitlistEntries)
    .set({ state, updatedAt: new Date() })
    .where(and(eq(waitlistEntries.tenantId, tenantId), eq(waitlistEntries.id, entryId)));
}

/**
 * Mails for many offers at once: outbox rows and their delivery jobs (what platform/mail.ts writes for
 * one), in one statement for the whole round.
 */
export async function queueMails(tx: DbOrTx, tenantId: string, replyTo: string | null, mails: ReadonlyArray<{ id: string; to: string; subject: string; text: string; html: string }>) {
  if (mails.length === 0) return;
  const json = JSON.stringify(mails);
  await tx.execute(sql`
    with m as (select * from jsonb_to_recordset(${json}::jsonb) as x(id uuid, "to" text, subject text, text text, html text)),
    o as (
      insert into ${outbox} (id, tenant_id, "to", subject, text, html, reply_to, attachments, headers)
      select m.id, ${tenantId}, m."to", m.subject, m.text, m.html, ${replyTo}, '[]'::jsonb, null from m
      returning id)
    insert into ${jobs} (name, payload, dedupe_key)
    select ${MAIL_JOB}, jsonb_build_object('id', o.id), 'mail:' || o.id from o`);
}

export async function findTenant(db: DbOrTx, tenantId: string) {
  const [row] = await db.select({ name: tenants.name, email: tenants.email, url: tenants.url }).from(tenants).where(eq(tenants.id, tenantId));
  return row;
}

export type ListedEntry = EntryRow & { ticketTypeName: string; shownState: string };

/** The list in join order, each offer's state as its orders say (an offer whose draft is gone shows claimed or expired). */
export async function listEntries(db: DbOrTx, tenantId: string, eventId: string): Promise<ListedEntry[]> {
  const rows = await db
    .select({
      entry: waitlistEntries,
      ticketTypeName: sql<string>`coalesce(${ticketTypes.name}, '')`,
      shownState: sql<string>`case when ${waitlistEntries.state} <> 'offered' then ${waitlistEntries.state}
        when exists (select 1 from ${orders} o where o.tenant_id = ${waitlistEntries.tenantId} and o.waitlist_entry_id = ${waitlistEntries.id} and o.status not in ('draft', 'expired', 'replaced')) then 'claimed'
        when exists (select 1 from ${orders} o where o.tenant_id = ${waitlistEntries.tenantId} and o.waitlist_entry_id = ${waitlistEntries.id} and o.status = 'draft') then 'offered'
        else 'expired' end`,
    })
    .from(waitlistEntries)
    .leftJoin(ticketTypes, and(eq(ticketTypes.tenantId, waitlistEntries.tenantId), eq(ticketTypes.id, waitlistEntries.ticketTypeId)))
    .where(and(eq(waitlistEntries.tenantId, tenantId), eq(waitlistEntries.eventId, eventId)))
    .orderBy(asc(waitlistEntries.seq));
  return rows.map((r) => ({ ...r.entry, ticketTypeName: r.ticketTypeName, shownState: r.shownState }));
}

/** The offer's draft orders still holding tickets (for a removal: they are given back). */
export async function liveOfferDrafts(db: DbOrTx, tenantId: string, entryId: string): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.tenantId, tenantId), eq(orders.waitlistEntryId, entryId), eq(orders.status, 'draft')));
  return rows.map((r) => r.id);
}

export async function ticketTypesOf(db: DbOrTx, tenantId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db.select().from(ticketTypes).where(and(eq(ticketTypes.tenantId, tenantId), inArray(ticketTypes.id, ids)));
}

/**
 * The sweep's events: an offer still marked offered whose draft is gone (it ran out with nobody
 * waiting behind it), or people waiting while their ticket type has tickets free.
 */
export async function eventsToSweep(db: DbOrTx): Promise<Array<{ tenantId: string; eventId: string }>> {
  const result = (await db.execute(sql`
    select distinct w.tenant_id as "tenantId", w.event_id as "eventId"
    from ${waitlistEntries} w
    join ${waitlistSettings} s on s.tenant_id = w.tenant_id and s.event_id = w.event_id and s.enabled
    where (w.state = 'offered' and w.offer_expires_at <= now() and not exists (select 1 from ${orders} d where d.tenant_id = w.tenant_id and d.waitlist_entry_id = w.id and d.status = 'draft'))
       or (w.state = 'waiting' and exists (select 1 from ${ticketTypes} t where t.tenant_id = w.tenant_id and t.id = w.ticket_type_id and t.remaining > 0))
    limit 1000`)) as unknown as { rows: Array<{ tenantId: string; eventId: string }> };
  return result.rows;
}

export async function ensureSettings(tx: DbOrTx, tenantId: string, eventId: string) {
  await tx.insert(waitlistSettings).values({ tenantId, eventId }).onConflictDoNothing();
}

export async function findOrder(db: DbOrTx, tenantId: string, orderId: string) {
  const [row] = await db.select().from(orders).where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
  return row;
}

export async function lockEntry(tx: DbOrTx, tenantId: string, entryId: string) {
  return tx.select().from(waitlistEntries).where(and(eq(waitlistEntries.tenantId, tenantId), eq(waitlistEntries.id, entryId))).for('update');
}
