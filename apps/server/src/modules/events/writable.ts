import { M, isEventWritable, type EventStatus } from '@marquee/core';
import type { DbOrTx } from '../../db/client.js';
import { DomainError, notFound } from '../../platform/errors.js';
import * as repo from './repository.js';

/** A cancelled event is read-only: 409 on any change to it (packages/core isEventWritable is the rule). */
export function assertWritable(event: Pick<repo.EventRow, 'status'>) {
  if (!isEventWritable(event.status as EventStatus)) throw new DomainError('EVENT_CANCELLED', M.eventCancelledReadOnly);
}

/** The event, for a change to it or to what hangs off it (ticket types, discount codes): 404, or 409 when cancelled. */
export async function writableEvent(db: DbOrTx, tenantId: string, eventId: string) {
  const event = await repo.findEvent(db, tenantId, eventId);
  if (!event) throw notFound();
  assertWritable(event);
  return event;
}
