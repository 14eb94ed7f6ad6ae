import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { domainEvents, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import type { CompiledList } from '../../platform/list-query.js';

// The webhooks' SQL. An owner is a tenant (its id) or the platform (null): every query filters on it.

export type Owner = { tenantId: string | null };
export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DomainEventRow = typeof domainEvents.$inferSelect;

const ownedBy = (owner: Owner, column: typeof webhookEndpoints.tenantId | typeof webhookDeliveries.tenantId) =>
  owner.tenantId === null ? isNull(column) : eq(column, owner.tenantId);

export async function listEndpoints(db: DbOrTx, owner: Owner): Promise<EndpointRow[]> {
  return db.select().from(webhookEndpoints).where(ownedBy(owner, webhookEndpoints.tenantId)).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
}

export async function findEndpoint(db: DbOrTx, owner: Owner, id: string): Promise<EndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoints).where(and(ownedBy(owner, webhookEndpoints.tenantId), eq(webhookEndpoints.id, id)));
  return row ?? null;
}

export async function insertEndpoint(db: DbOrTx, row: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  const [inserted] = await db.insert(webhookEndpoints).values(row).returning();
  return inserted!;
}

export async function updateEndpoint(db: DbOrTx, owner: Owner, id: string, set: Partial<typeof webhookEndpoints.$inferInsert>): Promise<EndpointRow | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...set, updatedAt: new Date() })
    .where(and(ownedBy(owner, webhookEndpoints.tenantId), eq(webhookEndpoints.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteEndpoint(db: DbOrTx, owner: Owner, id: string): Promise<boolean> {
  const rows = await db.delete(webhookEndpoints).where(and(ownedBy(owner, webhookEndpoints.tenantId), eq(webhookEndpoints.id, id))).returning({ id: webhookEndpoints.id });
  if (rows.length === 0) return false;
  await db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id));
  return true;
}

export async function countEndpoints(db: DbOrTx, owner: Owner): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(ownedBy(owner, webhookEndpoints.tenantId));
  return row?.n ?? 0;
}

export async function findEvent(db: DbOrTx, id: string): Promise<DomainEventRow | null> {
  const [row] = await db.select().from(domainEvents).where(eq(domainEvents.id, id));
  return row ?? null;
}

/** The enabled endpoints that take this event: its tenant's and the platform's. */
export async function listeningEndpoints(db: DbOrTx, event: DomainEventRow): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        event.tenantId === null ? isNull(webhookEndpoints.tenantId) : sql`(${webhookEndpoints.tenantId} is null or ${webhookEndpoints.tenantId} = ${event.tenantId})`,
        sql`${event.type} = any(${webhookEndpoints.eventTypes})`,
      ),
    );
}

/** One delivery per (endpoint, event): a second fan-out of the same event adds nothing. */
export async function insertDeliveries(db: DbOrTx, event: DomainEventRow, endpoints: EndpointRow[]): Promise<void> {
  if (endpoints.length === 0) return;
  await db
    .insert(webhookDeliveries)
    .values(endpoints.map((e) => ({ id: crypto.randomUUID(), tenantId: e.tenantId, endpointId: e.id, eventId: event.id, eventType: event.type, nextAttemptAt: new Date() })))
    .onConflictDoNothing();
}

/** The event's deliveries still to try now (not waiting for a later retry). */
export async function dueDeliveriesOfEvent(db: DbOrTx, eventId: string): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.status, 'pending'), sql`${webhookDeliveries.nextAttemptAt} <= now()`));
}

export async function findDelivery(db: DbOrTx, id: string): Promise<DeliveryRow | null> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row ?? null;
}

export async function findOwnedDelivery(db: DbOrTx, owner: Owner, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(ownedBy(owner, webhookDeliveries.tenantId), eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.id, id)));
  return row ?? null;
}

export async function lockDelivery(db: DbOrTx, id: string): Promise<DeliveryRow | null> {
  const rows = (await db.execute(sql`select id from webhook_deliveries where id = ${id} for update`)) as unknown as { rows: unknown[] };
  return rows.rows.length ? findDelivery(db, id) : null;
}

export async function updateDelivery(db: DbOrTx, id: string, set: Partial<typeof webhookDeliveries.$inferInsert>) {
  await db.update(webhookDeliveries).set(set).where(eq(webhookDeliveries.id, id));
}

export async function endpointById(db: DbOrTx, id: string): Promise<EndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row ?? null;
}

export async function markEndpointSuccess(db: DbOrTx, id: string, at: Date) {
  await db.update(webhookEndpoints).set({ lastSuccessAt: at }).where(eq(webhookEndpoints.id, id));
}

/** Turns a failing endpoint off, once: true when this call did it. */
export async function disableFailingEndpoint(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: 'failing', updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id });
  return rows.length === 1;
}

/** Who is told when a tenant's endpoint is turned off: its contact address and its admins. */
export async function tenantRecipients(db: DbOrTx, tenantId: string): Promise<{ name: string; emails: string[] }> {
  const res = (await db.execute(sql`
    select t.name, t.email as contact,
      coalesce((select array_agg(distinct u.email) from memberships m join users u on u.id = m.user_id
        where m.tenant_id = t.id and m.event_id is null and 'tenant_admin' = any(m.roles)), '{}') as admins
    from tenants t where t.id = ${tenantId}`)) as unknown as { rows: Array<{ name: string; contact: string; admins: string[] }> };
  const row = res.rows[0];
  if (!row) return { name: '', emails: [] };
  return { name: row.name, emails: [...new Set([row.contact, ...row.admins].filter((e) => !!e).map((e) => e.toLowerCase()))] };
}

export function deliveryPage(db: DbOrTx, owner: Owner, endpointId: string, q: CompiledList) {
  const scope: SQL = and(ownedBy(owner, webhookDeliveries.tenantId), eq(webhookDeliveries.endpointId, endpointId))!;
  return Promise.all([
    db
      .select({ row: webhookDeliveries, data: domainEvents.data, occurredAt: domainEvents.occurredAt, version: domainEvents.version, _sort: q.sortKey, _id: q.idKey })
      .from(webhookDeliveries)
      .innerJoin(domainEvents, eq(domainEvents.id, webhookDeliveries.eventId))
      .where(and(scope, q.pageWhere))
      .orderBy(...q.orderBy)
      .limit(q.limit + 1),
    db.select({ n: count() }).from(webhookDeliveries).where(and(scope, q.where)),
  ]);
}
