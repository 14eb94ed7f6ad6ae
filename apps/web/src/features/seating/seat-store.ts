import type { TSeatHold, TSeatHoldRef } from '@marquee/core';
import { useCallback, useSyncExternalStore } from 'react';

// The buyer's seat hold for an event, kept in the browser beside the cart (cart-store.ts), so the
// cart and the checkout send it with the seated tickets and a reload keeps the seats.

const PREFIX = 'marquee.seats:';
const keyOf = (eventId: string) => `${PREFIX}${eventId}`;
const listeners = new Set<() => void>();
const cache = new Map<string, TSeatHold | null>();

function read(eventId: string): TSeatHold | null {
  const key = keyOf(eventId);
  if (cache.has(key)) return cache.get(key)!;
  let hold: TSeatHold | null = null;
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? 'null') as TSeatHold | null;
    if (parsed && typeof parsed.holdId === 'string' && Array.isArray(parsed.seats)) hold = parsed;
  } catch {
    hold = null;
  }
  if (hold && Date.parse(hold.expiresAt) <= Date.now()) hold = null;
  cache.set(key, hold);
  return hold;
}

export function setSeatHold(eventId: string, hold: TSeatHold | null) {
  const key = keyOf(eventId);
  cache.set(key, hold);
  try {
    if (hold) localStorage.setItem(key, JSON.stringify(hold));
    else localStorage.removeItem(key);
  } catch {
    // Storage off: the hold lasts for this page view.
  }
  for (const l of listeners) l();
}

export const getSeatHold = (eventId: string) => read(eventId);

/** What the cart and PLACE ORDER send: the live hold's id and token, or null. */
export function seatHoldRef(eventId: string): TSeatHoldRef | null {
  const hold = read(eventId);
  return hold ? { holdId: hold.holdId, token: hold.token } : null;
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useSeatHold(eventId: string): TSeatHold | null {
  const get = useCallback(() => read(eventId), [eventId]);
  return useSyncExternalStore(subscribe, get, () => null);
}
