import {
  checkAddToCart,
  isTicketTypeAvailable,
  ticketTypesOnMenu,
  validateCart,
  type CartTicketType,
  type CartValidation,
  type TPublicEvent,
  type TPublicTicketType,
} from '@marquee/core';
import type { CartItem } from './cart-store';

// The cart's rules come from core (the same functions the server runs when it takes the hold):
// spec reports-payouts-checkout §4 Cart, §5 Cart validation.

/** spec §9 "Quantity input shows max 10". */
export const QUANTITY_INPUT_MAX = 10;

/** spec §8: a sales window date that cannot be read is logged as a warning and skipped (treated as open). */
function windowEdge(value: string | null, t: TPublicTicketType): string | null {
  if (value === null || !Number.isNaN(Date.parse(value))) return value;
  console.warn(`Ticket type ${t.details.name}: unreadable sales window date ${JSON.stringify(value)} skipped`);
  return null;
}

export function toCartTicketType(t: TPublicTicketType): CartTicketType {
  return {
    id: t.id,
    name: t.details.name,
    remainingQuantity: t.details.remainingQuantity,
    salesAvailability: t.details.salesAvailability,
    salesStartAt: windowEdge(t.details.salesStartAt, t),
    salesEndAt: windowEdge(t.details.salesEndAt, t),
    otherTicketTypeId: t.details.otherTicketTypeId,
    minTicketPerOrder: t.details.minTicketPerOrder,
    maxTicketPerOrder: t.details.maxTicketPerOrder,
  };
}

/** The ticket types the menu lists, in menu order: sold-out ones only when the tenant shows them (core ticketTypesOnMenu). */
export function menuTicketTypes(event: TPublicEvent): TPublicTicketType[] {
  const sorted = [...event.ticketTypes].sort((a, b) => a.details.sortOrder - b.details.sortOrder);
  return ticketTypesOnMenu(sorted, {
    autoShowActiveTicketsAsSoldOut: event.settings.autoShowActiveTicketsAsSoldOut,
    remainingOf: (t) => t.details.remainingQuantity,
  });
}

export type TicketState = 'onSale' | 'soldOut' | 'notOnSale' | 'salesEnded' | 'notYetOnSale';

/** What the menu shows for a ticket type right now. */
export function ticketState(t: TPublicTicketType, event: TPublicEvent, now = Date.now()): TicketState {
  if (t.details.remainingQuantity <= 0) return 'soldOut';
  if (isTicketTypeAvailable(toCartTicketType(t), event.ticketTypes.map(toCartTicketType), now)) return 'onSale';
  if (t.details.salesAvailability === 'SALES_AVAILABILITY_OPT_2') {
    if (t.details.salesStartAt && now < Date.parse(t.details.salesStartAt)) return 'notYetOnSale';
    if (t.details.salesEndAt && now >= Date.parse(t.details.salesEndAt)) return 'salesEnded';
  }
  return 'notOnSale';
}

/** The words for a ticket type that cannot be bought right now; null while it is on sale. */
export function offSaleLabel(state: TicketState, t: TPublicTicketType, formatMoment: (iso: string) => string): string | null {
  switch (state) {
    case 'soldOut':
      return 'Sold out';
    case 'notYetOnSale':
      return t.details.salesStartAt ? `On sale ${formatMoment(t.details.salesStartAt)}` : 'On sale soon';
    case 'salesEnded':
      return 'Sales ended';
    case 'notOnSale':
      return 'Not on sale';
    case 'onSale':
      return null;
  }
}

/** The most the quantity control offers: the per-order maximum, never more than 10. */
export function stepperMax(t: TPublicTicketType): number {
  return Math.min(QUANTITY_INPUT_MAX, t.details.maxTicketPerOrder);
}

/** The next quantity up from `current`: the first step jumps to the per-order minimum. */
export function nextUp(t: TPublicTicketType, current: number): number {
  return current === 0 ? Math.max(1, t.details.minTicketPerOrder) : current + 1;
}

/** The next quantity down: below the per-order minimum the line goes. */
export function nextDown(t: TPublicTicketType | undefined, current: number): number {
  const min = t ? Math.max(1, t.details.minTicketPerOrder) : 1;
  return current - 1 < min ? 0 : current - 1;
}

/**
 * What a ticket type has left to sell, never more than the event as a whole can still sell (its
 * remaining capacity, in the public event data) after `others` tickets of other types: the ticket
 * menu's "N left".
 */
export function leftOf(t: TPublicTicketType, event: TPublicEvent, others = 0): number {
  return Math.max(0, Math.min(t.details.remainingQuantity, event.settings.remainingCapacity - others));
}

/**
 * The event as the ticket menu and the event home show it: each ticket type's remaining count capped
 * by the event's remaining capacity, so a type of 10 on an event with 3 left shows 3 and one on a
 * full event shows sold out.
 */
export function withCapacityCap(event: TPublicEvent): TPublicEvent {
  if (event.ticketTypes.every((t) => t.details.remainingQuantity === leftOf(t, event))) return event;
  return { ...event, ticketTypes: event.ticketTypes.map((t) => ({ ...t, details: { ...t.details, remainingQuantity: leftOf(t, event) } })) };
}

/**
 * spec §4 "Adding is blocked if the quantity would exceed remaining tickets": what the ticket type has
 * left, and what the event can still sell once the cart's other lines are counted.
 */
export function canAdd(t: TPublicTicketType, event: TPublicEvent, items: readonly CartItem[], next: number) {
  const inCart = items.find((i) => i.id === t.id)?.quantity ?? 0;
  const others = items.reduce((n, i) => (i.id === t.id ? n : n + i.quantity), 0);
  return checkAddToCart({ remainingQuantity: leftOf(t, event, others) }, inCart, next - inCart);
}

export function checkCart(event: TPublicEvent, items: readonly CartItem[], now = Date.now()): CartValidation {
  return validateCart({
    lines: items.map((i) => ({ ticketTypeId: i.id, quantity: i.quantity })),
    ticketTypes: event.ticketTypes.map(toCartTicketType),
    remainingCapacity: event.settings.remainingCapacity,
    now,
  });
}

/** Cart lines whose ticket type is no longer on sale (or gone from the menu). */
export function unavailableItems(event: TPublicEvent, items: readonly CartItem[], now = Date.now()): CartItem[] {
  const gone = new Set(checkCart(event, items, now).problems.filter((p) => p.kind === 'unavailable').map((p) => p.ticketTypeId));
  return items.filter((i) => gone.has(i.id));
}

/** The cart line for a ticket type, with the menu's current name and price. */
export const itemOf = (t: TPublicTicketType): Omit<CartItem, 'quantity'> => ({
  id: t.id,
  ticketName: t.details.name,
  price: t.details.price,
  details: t.details.details,
});

/**
 * The cart's lines with the name, price and description the event has now (the stored copy may be
 * older than an organiser's change; the server prices every order from its own data). Lines whose
 * ticket type is gone keep what was stored: they are removed with 'Tickets Removed'. The same array
 * comes back when nothing changed.
 */
export function currentItems(event: TPublicEvent, items: CartItem[]): CartItem[] {
  let changed = false;
  const next = items.map((i) => {
    const t = event.ticketTypes.find((x) => x.id === i.id);
    if (!t || (t.details.name === i.ticketName && t.details.price === i.price && t.details.details === i.details)) return i;
    changed = true;
    return { ...itemOf(t), quantity: i.quantity };
  });
  return changed ? next : items;
}

export const joinNames = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
