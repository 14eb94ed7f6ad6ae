import { M, salesWindowInstants, type TEvent } from '@marquee/core';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { queueApplePassUpdates } from '../../platform/domain-events.js';
import { AppError, notFound } from '../../platform/errors.js';
import { assertEventCharity } from '../charities/service.js';
import { assertEndAfterStart, assertRule, type EventChanges, toColumns, urlNameTaken } from './event-input.js';
import { findOrThrow, toEvent } from './event-view.js';
import * as repo from './repository.js';
import { assertWritable } from './writable.js';

/** After the event's time zone changed: the same wall-clock sales windows are other instants now. */
async function recomputeSalesWindows(tx: DbOrTx, tenantId: string, eventId: string, timeZone: string) {
  // Fixed id order, like every other writer of ticket_types (docs/decisions.md, lock order).
  for (const row of await repo.ticketTypeWindows(tx, tenantId, eventId)) {
    await repo.setTicketTypeWindow(tx, tenantId, eventId, row.id, salesWindowInstants(row, timeZone));
  }
}

/** What an event's wallet pass shows of it (modules/wallet). */
const PASS_FIELDS = ['name', 'startDateTime', 'endDateTime', 'timeZone', 'venueName', 'address1', 'city', 'state', 'zip', 'country', 'emailDeliveryVerbiage'] as const;

export async function updateEvent({ deps, ctx, eventId, changes }: { deps: Deps; ctx: TenantCtx; eventId: string; changes: EventChanges }): Promise<TEvent> {
  const current = await findOrThrow(deps.db, ctx.tenantId, eventId);
  assertWritable(current);
  const { capacity, ...rest } = changes;
  const columns = toColumns(rest);
  assertEndAfterStart(
    columns.startDateTime === undefined ? current.startDateTime : columns.startDateTime,
    columns.endDateTime === undefined ? current.endDateTime : columns.endDateTime,
  );
  await assertRule(deps.db, ctx.tenantId, changes.surchargeRuleId);
  if (columns.urlName && columns.urlName !== current.urlName) {
    const other = await repo.findEventByUrlName(deps.db, ctx.tenantId, columns.urlName);
    if (other && other.id !== eventId) throw urlNameTaken();
  }
  try {
    const row = await deps.db.transaction(async (tx) => {
      // The charity first: it stays active and enabled until this commits (charities/service.ts).
      await assertEventCharity(tx, ctx.tenantId, changes.charityId);
      // Ticket types before the event: every writer takes ticket type rows first (lock order).
      if (columns.timeZone && columns.timeZone !== current.timeZone) await recomputeSalesWindows(tx, ctx.tenantId, eventId, columns.timeZone);
      if (capacity !== undefined) await setCapacity(tx, ctx.tenantId, eventId, capacity);
      const updated = await repo.updateEvent(tx, ctx.tenantId, eventId, columns);
      if (!updated) throw notFound();
      // Issue 28: a pass in Apple Wallet shows the event's name, time and place: check them again.
      if (PASS_FIELDS.some((k) => columns[k] !== undefined)) await queueApplePassUpdates(deps, tx, ctx.tenantId, eventId);
      return updated;
    });
    return toEvent(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw urlNameTaken();
    throw err;
  }
}

/**
 * A new capacity keeps what is sold or held: remaining moves by the change, and a capacity below
 * what is already out is refused. Read under the event's row lock, so no hold slips between.
 */
async function setCapacity(tx: DbOrTx, tenantId: string, eventId: string, capacity: number | null) {
  const event = await repo.findEvent(tx, tenantId, eventId, true);
  if (!event) throw notFound();
  if (capacity === null) {
    await repo.updateEvent(tx, tenantId, eventId, { capacity: null, remainingCapacity: null });
    return;
  }
  const out =
    event.capacity !== null && event.remainingCapacity !== null
      ? event.capacity - event.remainingCapacity
      : await repo.soldOrHeld(tx, tenantId, eventId);
  if (capacity < out) throw new AppError('CONFLICT', M.capacityBelowSold, { 'details.capacity': M.capacityBelowSold });
  await repo.updateEvent(tx, tenantId, eventId, { capacity, remainingCapacity: capacity - out });
}
