import { createHash } from 'node:crypto';
import { isEventPublic, type TSeatMap, type TSeatStates } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { notFound } from '../../platform/errors.js';
import * as eventsRepo from '../events/repository.js';
import * as repo from './repository.js';

// Issue 27.4: what the attendee's map reads. The plan (seats, labels, positions, categories) changes
// only when the organiser changes the seating; the states change all the time and are polled with
// ETag (the states' hash), so an unchanged poll costs a 304.

async function publicEvent(deps: Deps, tenantId: string, eventId: string) {
  const event = await eventsRepo.findEvent(deps.db, tenantId, eventId);
  if (!event || !isEventPublic(event)) throw notFound();
  return event;
}

export async function readSeatMap({ deps, tenantId, eventId }: { deps: Deps; tenantId: string; eventId: string }): Promise<TSeatMap> {
  await publicEvent(deps, tenantId, eventId);
  const found = await repo.findEventSeating(deps.db, tenantId, eventId);
  if (!found) throw notFound();
  const [seats, types] = await Promise.all([repo.mapSeats(deps.db, tenantId, eventId), repo.eventTicketTypes(deps.db, tenantId, eventId)]);
  const typeById = new Map(types.map((t) => [t.id, t]));
  const sections: string[] = [];
  const sectionIndex = new Map<string, number>();
  const categories = found.categories.map((c) => {
    const t = typeById.get(c.ticketTypeId);
    return { name: c.category, ticketTypeId: t ? t.id : null, ticketTypeName: t?.name ?? null, price: t?.price ?? null };
  });
  const categoryIndex = new Map(categories.map((c, i) => [c.name, i]));
  const tuples = seats.map((s): TSeatMap['seats'][number] => {
    let si = sectionIndex.get(s.section);
    if (si === undefined) {
      si = sections.push(s.section) - 1;
      sectionIndex.set(s.section, si);
    }
    return [si, s.row, s.seat, s.x, s.y, categoryIndex.get(s.category) ?? -1, (s.accessible ? 1 : 0) | (s.companion ? 2 : 0)];
  });
  return { version: `${found.seating.createdAt.getTime()}`, sections, categories, seats: tuples };
}

export async function readSeatStates({ deps, tenantId, eventId }: { deps: Deps; tenantId: string; eventId: string }): Promise<TSeatStates> {
  await publicEvent(deps, tenantId, eventId);
  const states = await repo.seatStates(deps.db, tenantId, eventId);
  return { version: createHash('sha1').update(states).digest('base64url').slice(0, 20), states };
}
