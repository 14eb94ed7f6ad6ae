import { SM, type TSeatHoldRef } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { DomainError } from '../../platform/errors.js';
import * as repo from './repository.js';
import { queueSeatHoldExpiry } from './seat-hold-jobs.js';
import { seatTokenMatches } from './seat-token.js';

// Issue 27.2: the checkout's two calls (hold-cart.ts and place-order.ts). Before it holds, the
// cart's seated tickets must be exactly the seats the buyer holds, per ticket type; after the
// order is written, the seat hold is attached to it (and lasts as long as its hold), so the seats
// become the order's when it is paid (the orders_paid_seats trigger, migration 0027).

export type CartSeats = { holdId: string } | null;

/** Null when the cart has no seated tickets; else the seat hold to attach. Throws when it is gone or does not match. */
export async function checkCartSeats(opts: {
  deps: Deps;
  tenantId: string;
  eventId: string;
  lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>;
  seatHold: TSeatHoldRef | null | undefined;
  /** The ticket types the event's seats sell as, as the checkout's snapshot read them (no query of its own). */
  seated: ReadonlySet<string>;
}): Promise<CartSeats> {
  const { deps, tenantId, eventId, seatHold, seated } = opts;
  if (seated.size === 0) return null;
  const wanted = new Map<string, number>();
  for (const l of opts.lines) if (seated.has(l.ticketTypeId)) wanted.set(l.ticketTypeId, (wanted.get(l.ticketTypeId) ?? 0) + l.quantity);
  if (wanted.size === 0) return null;
  if (!seatHold) throw new DomainError('SEATS_DO_NOT_MATCH_CART', SM.seatsRequired);
  const hold = await repo.findSeatHold(deps.db, tenantId, seatHold.holdId);
  if (!hold || hold.eventId !== eventId || hold.status !== 'live' || hold.expiresAt.getTime() <= Date.now() || !seatTokenMatches(hold.tokenHash, seatHold.token)) {
    throw new DomainError('SEAT_HOLD_EXPIRED', SM.seatHoldExpired);
  }
  const held = new Map<string, number>();
  for (const s of await repo.seatsOfHold(deps.db, tenantId, eventId, hold.id)) held.set(s.ticketTypeId, (held.get(s.ticketTypeId) ?? 0) + 1);
  const same = held.size === wanted.size && [...wanted].every(([id, q]) => held.get(id) === q);
  if (!same) throw new DomainError('SEATS_DO_NOT_MATCH_CART', SM.seatsDoNotMatchCart);
  return { holdId: hold.id };
}

/** The seats go with this order until `until` (its hold's expiry); false when the seat hold ran out meanwhile. */
export async function attachCartSeats(deps: Deps, p: { tenantId: string; eventId: string; seats: NonNullable<CartSeats>; orderId: string; until: Date }): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const attached = await repo.attachSeatHold(tx, { tenantId: p.tenantId, eventId: p.eventId, holdId: p.seats.holdId, orderId: p.orderId, until: p.until });
    if (attached) await queueSeatHoldExpiry(deps, tx, { tenantId: p.tenantId, holdId: p.seats.holdId, at: p.until });
    return attached;
  });
}

export const seatHoldExpired = () => new DomainError('SEAT_HOLD_EXPIRED', SM.seatHoldExpired);
