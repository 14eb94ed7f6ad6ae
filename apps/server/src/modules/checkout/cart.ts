import { M, cartBlockTitle, cartProblemTitle, validateCart, type CartValidation, type TCartValidation } from '@marquee/core';
import { DomainError } from '../../platform/errors.js';
import type { EventRow } from '../events/repository.js';
import type { TicketTypeRow } from '../ticket-types/repository.js';

// The cart's rules as the server applies them to stored ticket types (spec reports-payouts-checkout §5).

/** Tickets ran out between the cart and PLACE ORDER: a 409 the web shows as 'Ticket Availability Issue'. */
export function cartConflict(v: TCartValidation) {
  return new DomainError('CART_CONFLICT', M.ticketsNoLongerAvailable, {
    payload: { title: v.title ?? M.ticketsNoLongerAvailable, problems: v.problems, blockReason: v.blockReason, remainingCapacity: v.remainingCapacity },
  });
}

/** What the event can still sell: its remaining capacity, else what its ticket types have left. */
export function remainingCapacityOf(event: Pick<EventRow, 'remainingCapacity'>, types: readonly TicketTypeRow[]): number {
  if (event.remainingCapacity !== null) return event.remainingCapacity;
  return types.filter((t) => t.active).reduce((sum, t) => sum + Math.max(0, t.remaining), 0);
}

export function toCartTicketType(t: TicketTypeRow) {
  return {
    id: t.id,
    name: t.name,
    remainingQuantity: t.remaining,
    salesAvailability: t.salesAvailability,
    salesStartAt: t.salesStartAt,
    salesEndAt: t.salesEndAt,
    otherTicketTypeId: t.otherTicketTypeId,
    active: t.active,
    minTicketPerOrder: t.minPerOrder,
    maxTicketPerOrder: t.maxPerOrder,
  };
}

export function toCartValidation(v: CartValidation, remainingCapacity: number): TCartValidation {
  return {
    valid: !v.blocked,
    blocked: v.blocked,
    blockReason: v.blockReason,
    title: cartBlockTitle(v.blockReason),
    totalQuantity: v.totalQuantity,
    remainingCapacity,
    problems: v.problems.map((p) => ({ ...p, title: cartProblemTitle(p.kind) })),
  };
}

/** spec §5 Cart validation against the stored ticket types, as of `now`. */
export function checkCart(event: EventRow, types: TicketTypeRow[], lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>, now: Date) {
  const v = validateCart({ lines, ticketTypes: types.map(toCartTicketType), remainingCapacity: event.remainingCapacity, now });
  return toCartValidation(v, remainingCapacityOf(event, types));
}
