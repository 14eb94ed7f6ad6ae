import { M_SITE as M, type CartValidation, type TPublicEvent } from '@marquee/core';
import { useEffect, useMemo, useRef } from 'react';
import { toast } from '../event-site/kit/toast';
import { trackRemoveFromCart } from './analytics';
import { checkCart, currentItems, joinNames, unavailableItems } from './cart-rules';
import { removeItems, setCart, useCart, type CartItem } from './cart-store';

/**
 * The cart as the cart and checkout show it: each line's name and price as the event has them now
 * (the stored copy may predate an organiser's change; the server prices from its own data). Once the
 * event was fetched on this visit (`fresh`), the stored copy is brought up to date too.
 */
export function useCurrentCart(eventName: string, event: TPublicEvent, fresh: boolean): CartItem[] {
  const stored = useCart(eventName);
  const items = useMemo(() => currentItems(event, stored), [event, stored]);
  useEffect(() => {
    if (fresh && items !== stored) setCart(eventName, items);
  }, [fresh, items, stored, eventName]);
  return items;
}

const REMOVED_TOAST_MS = 8000; // spec §9 8 s removed tickets
export const CAPACITY_TOAST_ID = 'insufficient-capacity';

/**
 * The cart's standing checks against a freshly fetched event (spec §4 Cart, §8 Cart):
 * lines no longer on sale are removed once with 'Tickets Removed', and 'Insufficient Capacity'
 * stays on screen while the cart asks for more than the event has left.
 */
export function useCartChecks(opts: { event: TPublicEvent; eventName: string; items: readonly CartItem[]; fresh: boolean }): CartValidation {
  const { event, eventName, items, fresh } = opts;
  const removedOnce = useRef(false);

  useEffect(() => {
    if (!fresh || removedOnce.current) return;
    removedOnce.current = true;
    const gone = unavailableItems(event, items);
    if (!gone.length) return;
    removeItems(eventName, gone.map((i) => i.id));
    trackRemoveFromCart(event.details.name, gone);
    const names = joinNames(gone.map((i) => i.ticketName));
    toast.warning(M.ticketsRemoved, `${names} ${gone.length === 1 ? 'is' : 'are'} no longer available and ${gone.length === 1 ? 'was' : 'were'} removed from your cart.`, {
      duration: REMOVED_TOAST_MS,
      id: 'tickets-removed',
    });
  }, [fresh, event, eventName, items]);

  const validation = checkCart(event, items);
  const capacityProblem = fresh && (validation.blockReason === 'noCapacity' || validation.blockReason === 'overCapacity');
  const remaining = event.settings.remainingCapacity;

  useEffect(() => {
    if (!capacityProblem) {
      toast.hide(CAPACITY_TOAST_ID);
      return;
    }
    const left = remaining <= 0 ? 'There are no tickets left for this event.' : `Only ${remaining} ticket${remaining === 1 ? ' is' : 's are'} left for this event.`;
    toast.warning(M.insufficientCapacity, `${left} Please update your ticket numbers.`, { duration: null, id: CAPACITY_TOAST_ID });
  }, [capacityProblem, remaining]);

  useEffect(() => () => toast.hide(CAPACITY_TOAST_ID), []);

  return validation;
}
