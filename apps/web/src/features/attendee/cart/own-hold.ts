import type { TPublicEvent } from '@marquee/core';
import type { PendingOrder } from '../checkout/checkout-storage';

/**
 * The event as this buyer sees it while their own draft still holds tickets (back from the payment
 * page after a declined card): those tickets count as theirs, as the server counts them when the
 * draft is placed again (orders service, withPreviousDraft). Without this the buyer's own hold on
 * the last tickets would read as "sold out" and empty their cart.
 */
export function withOwnHold(event: TPublicEvent, pending: PendingOrder | null, now = Date.now()): TPublicEvent {
  if (!pending || Date.parse(pending.holdExpiresAt) <= now) return event;
  const held = new Map(pending.items.map((i) => [i.id, i.quantity]));
  const total = pending.items.reduce((n, i) => n + i.quantity, 0);
  if (total === 0) return event;
  return {
    ...event,
    settings: { ...event.settings, remainingCapacity: event.settings.remainingCapacity + total },
    ticketTypes: event.ticketTypes.map((t) => {
      const mine = held.get(t.id) ?? 0;
      if (!mine) return t;
      return { ...t, details: { ...t.details, remainingQuantity: t.details.remainingQuantity + mine } };
    }),
  };
}
