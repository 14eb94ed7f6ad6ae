import { randomUUID } from 'node:crypto';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { WEBHOOK_PAYLOAD_VERSION, type WebhookEventData, type WebhookEventType } from '@marquee/core';
import type { DbOrTx } from '../db/client.js';
import { domainEvents } from '../db/schema/index.js';
import type { Jobs } from './jobs.js';

// Domain events (issue 25): a module says what happened by writing a row in the SAME transaction
// as the change (an outbox), so the event exists exactly when the change committed, and nothing
// is sent for a change that rolled back. This file is low on the map so that every module may
// call it; the webhooks module registers the job that delivers the events and imports no module.

/** Job name of an event's delivery to the endpoints that listen; modules/webhooks registers it. */
export const DOMAIN_EVENT_JOB = 'webhooks.event';

/** Job name of the check for changed Apple Wallet passes of an event (issue 28); modules/fulfilment registers it. */
export const APPLE_PASS_UPDATE_JOB = 'wallet.apple_pass_updates';

/** The event (of the tenant) whose wallet passes a domain event may change, or null. */
function passesTouched(event: DomainEventInput<WebhookEventType>): string | null {
  switch (event.type) {
    case 'order.refunded':
    case 'order.voided':
    case 'order.unvoided':
      return (event.data as WebhookEventData['order.voided']).order.eventId;
    case 'ticket.transferred':
      return (event.data as WebhookEventData['ticket.transferred']).ticket.eventId;
    case 'event.cancelled':
      return (event.data as WebhookEventData['event.cancelled']).event.id;
    default:
      return null;
  }
}

/**
 * Queues the check of the event's Apple Wallet passes (in `tx`), when a device registered one of
 * them for updates: the job pushes to the devices whose pass now shows something else.
 */
export async function queueApplePassUpdates(deps: { jobs: Jobs }, tx: DbOrTx, tenantId: string, eventId: string): Promise<void> {
  const registered = (await tx.execute(sql`select 1 from apple_pass_registrations where tenant_id = ${tenantId}::uuid and event_id = ${eventId}::uuid limit 1`)) as unknown as { rows: unknown[] };
  if (registered.rows.length > 0) await deps.jobs.enqueue(tx, APPLE_PASS_UPDATE_JOB, { tenantId, eventId });
}

export type DomainEventInput<T extends WebhookEventType> = { tenantId: string | null; type: T; data: WebhookEventData[T] };

/**
 * Records a domain event inside `tx` and, when an enabled endpoint of the tenant (or of the
 * platform) listens for its type, queues its delivery in the same transaction. Returns the event id.
 */
export async function emitDomainEvent<T extends WebhookEventType>(deps: { jobs: Jobs }, tx: DbOrTx, event: DomainEventInput<T>): Promise<string> {
  const id = randomUUID();
  await tx.insert(domainEvents).values({ id, tenantId: event.tenantId, type: event.type, version: WEBHOOK_PAYLOAD_VERSION, data: event.data });
  const listening = (await tx.execute(sql`
    select 1 from webhook_endpoints
    where enabled and (tenant_id is null or tenant_id = ${event.tenantId}::uuid) and ${event.type} = any(event_types)
    limit 1`)) as unknown as { rows: unknown[] };
  if (listening.rows.length > 0) await deps.jobs.enqueue(tx, DOMAIN_EVENT_JOB, { eventId: id }, { dedupeKey: `${DOMAIN_EVENT_JOB}:${id}` });
  const touched = event.tenantId ? passesTouched(event as DomainEventInput<WebhookEventType>) : null;
  if (touched) await queueApplePassUpdates(deps, tx, event.tenantId!, touched);
  return id;
}

/**
 * The same as emitDomainEvent, as two data-modifying CTEs for a caller that writes its change in ONE
 * statement (the door's admission: one round trip on the hot path, bench/README.md "Door scans"):
 * `<prefix>_event` records the event for each row of the CTE `after` (at most one), and `<prefix>_job`
 * queues its delivery when an endpoint listens, as jobs.enqueue would (due now, 8 attempts, the same
 * dedupe key). Put it in a WITH list after `after`; the event id is the caller's (randomUUID()).
 */
export function domainEventCtes<T extends WebhookEventType>(event: DomainEventInput<T> & { id: string }, after: string, prefix = 'domain'): SQL {
  return domainEventCtesOf({ id: sql`${event.id}`, tenantId: sql`${event.tenantId}`, type: event.type, data: sql`${JSON.stringify(event.data)}::jsonb` }, after, prefix);
}

/**
 * domainEventCtes with its values as SQL: the id and tenant (uuid text), and the data (jsonb) built
 * by the statement itself, so that a statement prepared once (with placeholders) can carry it.
 */
export function domainEventCtesOf(event: { id: SQLWrapper; tenantId: SQLWrapper; type: WebhookEventType; data: SQLWrapper }, after: string, prefix = 'domain'): SQL {
  const ev = sql.raw(`${prefix}_event`);
  return sql`${ev} as (
      insert into domain_events (id, tenant_id, type, version, data)
      select ${event.id}::uuid, ${event.tenantId}::uuid, ${event.type}, ${WEBHOOK_PAYLOAD_VERSION}::int, ${event.data} from ${sql.raw(after)}
      returning id
    ),
    ${sql.raw(`${prefix}_job`)} as (
      insert into jobs (name, payload, run_at, dedupe_key, max_attempts)
      select ${DOMAIN_EVENT_JOB}, jsonb_build_object('eventId', ${ev}.id), now(), ${`${DOMAIN_EVENT_JOB}:`} || ${ev}.id::text, 8 from ${ev}
      where exists (select 1 from webhook_endpoints
        where enabled and (tenant_id is null or tenant_id = ${event.tenantId}::uuid) and ${event.type} = any(event_types))
      on conflict (dedupe_key) do nothing
    )`;
}

/**
 * ticket.transferred: the call a ticket transfer makes in its transaction (transfers are built
 * under their own issue), so the payload is defined once here.
 */
export function emitTicketTransferred(
  deps: { jobs: Jobs },
  tx: DbOrTx,
  t: { tenantId: string; ticket: WebhookEventData['ticket.transferred']['ticket']; from: { fullName: string; email: string }; to: { fullName: string; email: string } },
) {
  return emitDomainEvent(deps, tx, { tenantId: t.tenantId, type: 'ticket.transferred', data: { ticket: t.ticket, from: t.from, to: t.to } });
}
