import { M_WEBHOOKS, type TWebhookDelivery } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { webhookDeliveries } from '../../db/schema/index.js';
import { notFound } from '../../platform/errors.js';
import { compileList, type ListSpec } from '../../platform/list-query.js';
import { payloadOf, WEBHOOK_REDELIVER_JOB } from './deliver.js';
import * as repo from './repository.js';

// An endpoint's delivery log, and sending a delivery again by hand.

const DELIVERY_LIST: ListSpec = {
  fields: {
    'details.dateCreated': { expr: webhookDeliveries.createdAt, type: 'timestamp' },
    'details.status': { expr: webhookDeliveries.status, type: 'text' },
    'details.eventType': { expr: webhookDeliveries.eventType, type: 'text' },
  },
  id: webhookDeliveries.id,
  defaultSort: '-details.dateCreated',
};

function toDelivery(row: repo.DeliveryRow, event: Pick<repo.DomainEventRow, 'id' | 'type' | 'version' | 'tenantId' | 'data' | 'occurredAt'>): TWebhookDelivery {
  return {
    id: row.id,
    details: {
      endpointId: row.endpointId,
      eventId: row.eventId,
      eventType: row.eventType,
      status: row.status as TWebhookDelivery['details']['status'],
      attempts: row.attempts,
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
      lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
      responseStatus: row.responseStatus,
      responseBody: row.responseBody,
      error: row.error,
      durationMs: row.durationMs,
      payloadPreview: payloadOf(event).slice(0, 2000),
      dateCreated: row.createdAt.toISOString(),
    },
  };
}

export async function listDeliveries({ deps, owner, endpointId, query }: { deps: Deps; owner: repo.Owner; endpointId: string; query: unknown }) {
  if (!(await repo.findEndpoint(deps.db, owner, endpointId))) throw notFound();
  const q = compileList(DELIVERY_LIST, query);
  const [rows, [total]] = await repo.deliveryPage(deps.db, owner, endpointId, q);
  return q.page(rows, total?.n ?? 0, (r) => toDelivery(r.row, { id: r.row.eventId, type: r.row.eventType, version: r.version, tenantId: r.row.tenantId, data: r.data, occurredAt: r.occurredAt }));
}

/** Queues one more attempt of a delivery (whatever its state); its automatic schedule is unchanged. */
export async function redeliver({ deps, owner, endpointId, deliveryId }: { deps: Deps; owner: repo.Owner; endpointId: string; deliveryId: string }) {
  const delivery = await deps.db.transaction(async (tx) => {
    const found = await repo.findOwnedDelivery(tx, owner, endpointId, deliveryId);
    if (!found) throw notFound();
    const row = await repo.lockDelivery(tx, found.id);
    if (!row) throw notFound();
    if (row.status === 'failed') await repo.updateDelivery(tx, row.id, { status: 'pending' });
    await deps.jobs.enqueue(tx, WEBHOOK_REDELIVER_JOB, { deliveryId: row.id }, { dedupeKey: `${WEBHOOK_REDELIVER_JOB}:${row.id}:${crypto.randomUUID()}` });
    return (await repo.findDelivery(tx, row.id))!;
  });
  const event = await repo.findEvent(deps.db, delivery.eventId);
  if (!event) throw notFound();
  return { success: true as const, message: M_WEBHOOKS.redeliverQueued, delivery: toDelivery(delivery, event) };
}
