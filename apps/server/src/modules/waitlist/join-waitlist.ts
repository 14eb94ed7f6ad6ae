import { randomUUID } from 'node:crypto';
import { isEventPublic, M, type TJoinWaitlistResponse } from '@marquee/core';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { AppError, DomainError, notFound } from '../../platform/errors.js';
import { findEvent } from '../events/repository.js';
import * as repo from './repository.js';

/**
 * Whether the event keeps a waiting list: on unless the organiser turned it off (no row yet: the
 * defaults). The ticket menu offers "Join the waiting list" only then (public-site's event).
 */
export async function isWaitlistOn(db: DbOrTx, tenantId: string, eventId: string): Promise<boolean> {
  return ((await repo.findSettings(db, tenantId, eventId))?.enabled ?? repo.DEFAULT_SETTINGS.enabled) === true;
}

/**
 * Joins an event's waiting list for one ticket type (issue 24), from the ticket menu: only while
 * that type (or the whole event) is sold out and the list is on, for at most the type's per-order
 * maximum, once per address and type while the entry waits or holds an offer.
 */
export async function joinWaitlist(opts: {
  deps: Deps;
  tenantId: string;
  eventId: string;
  input: { ticketTypeId: string; email: string; quantity: number };
}): Promise<TJoinWaitlistResponse> {
  const { deps, tenantId, eventId, input } = opts;
  const event = await findEvent(deps.db, tenantId, eventId);
  if (!event || !isEventPublic(event)) throw notFound();
  const [type] = await repo.ticketTypesOf(deps.db, tenantId, [input.ticketTypeId]);
  if (!type || type.eventId !== eventId || !type.active) throw notFound();
  if (input.quantity > type.maxPerOrder) {
    const message = `You can join for at most ${type.maxPerOrder} ticket${type.maxPerOrder === 1 ? '' : 's'}.`;
    throw new AppError('VALIDATION', message, { quantity: message });
  }
  const soldOut = type.remaining === 0 || event.remainingCapacity === 0;
  if (event.status !== 'published' || !(await isWaitlistOn(deps.db, tenantId, eventId)) || !soldOut) throw new DomainError('WAITLIST_UNAVAILABLE', M.waitlistUnavailable);

  const id = randomUUID();
  const joined = await deps.db.transaction(async (tx) => {
    // The list's row exists from the first join: the sweep and the rounds lock it.
    await repo.ensureSettings(tx, tenantId, eventId);
    return repo.insertEntry(tx, { tenantId, id, eventId, ticketTypeId: type.id, email: input.email, quantity: input.quantity });
  });
  if (!joined) throw new DomainError('WAITLIST_ALREADY_JOINED', M.waitlistAlreadyJoined);
  const entry = (await repo.findEntry(deps.db, tenantId, id))!;
  return { joined: true, position: await repo.positionOf(deps.db, tenantId, eventId, entry.seq) };
}
