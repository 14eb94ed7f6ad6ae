import type { TSeatHold } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { DomainError } from '../../platform/errors.js';
import { attachCartSeats } from './cart-seats.js';
import { holdSeats } from './hold-seats.js';
import * as repo from './repository.js';

// Issue 27 (second slice): a waiting-list offer of a seated ticket type (docs/decisions.md "Issue
// 27.5"). The offer holds the ticket type's count, as for general admission; when its buyer opens
// the claim link, the best free seats of that type are held for them (N together if there are,
// else the N best), through the same seat holds as the ticket menu, and attached to the offer's
// order for as long as it is held. The checkout then sends that seat hold like any buyer's.

export async function holdOfferSeats(
  deps: Deps,
  p: { tenantId: string; eventId: string; orderId: string; lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>; until: Date },
): Promise<TSeatHold | null> {
  const { tenantId, eventId } = p;
  const seated = await repo.seatedTicketTypes(deps.db, tenantId, eventId);
  const line = p.lines.find((l) => seated.has(l.ticketTypeId));
  if (!line) return null;
  // The link opened again (another device, a reload): the seats held for it before go back first.
  await deps.db.transaction(async (tx) => {
    for (const h of await repo.lockSeatHoldsOfOrder(tx, tenantId, p.orderId)) if (h.status === 'live') await repo.releaseSeatHold(tx, { tenantId, holdId: h.id });
  });
  let hold: TSeatHold;
  try {
    hold = await holdSeats({ deps, tenantId, eventId, input: { best: { ticketTypeId: line.ticketTypeId, quantity: line.quantity } } });
  } catch (err) {
    if (!(err instanceof DomainError) || err.domainCode !== 'SEATS_NOT_TOGETHER') throw err;
    // No N together left: the N best seats, apart.
    const free = await repo.bestFreeSeats(deps.db, { tenantId, eventId, ticketTypeId: line.ticketTypeId, limit: line.quantity });
    if (free.length < line.quantity) return null;
    hold = await holdSeats({ deps, tenantId, eventId, input: { seats: free.map((s) => s.n) } });
  }
  if (!(await attachCartSeats(deps, { tenantId, eventId, seats: { holdId: hold.holdId }, orderId: p.orderId, until: p.until }))) return null;
  return { ...hold, expiresAt: (hold.expiresAt > p.until.toISOString() ? hold.expiresAt : p.until.toISOString()) };
}
