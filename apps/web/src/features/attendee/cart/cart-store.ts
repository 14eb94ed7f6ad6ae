import { useCallback, useSyncExternalStore } from 'react';

// The cart lives in the browser, one per event, so it survives a reload and a trip to the payment
// page (spec: reports-payouts-checkout §3 Cart line: id (ticket type id), ticketName, price,
// quantity, details). Prices here are for display only: the server prices every order itself.

export type CartItem = { id: string; ticketName: string; price: number; quantity: number; details: string };

const PREFIX = 'marquee.cart:';
const keyOf = (eventName: string) => `${PREFIX}${eventName.toLowerCase()}`;
const EMPTY: CartItem[] = [];

const cache = new Map<string, CartItem[]>();
const listeners = new Set<() => void>();

function isItem(v: unknown): v is CartItem {
  const o = v as Partial<CartItem> | null;
  return !!o && typeof o.id === 'string' && typeof o.ticketName === 'string' && Number.isInteger(o.price) && Number.isInteger(o.quantity);
}

function read(key: string): CartItem[] {
  const hit = cache.get(key);
  if (hit) return hit;
  let items: CartItem[] = EMPTY;
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? '[]') as unknown;
    if (Array.isArray(parsed)) items = parsed.filter(isItem).filter((i) => i.quantity > 0).map((i) => ({ ...i, details: i.details ?? '' }));
  } catch {
    items = EMPTY;
  }
  cache.set(key, items);
  return items;
}

function write(key: string, items: CartItem[]) {
  const kept = items.filter((i) => i.quantity > 0);
  cache.set(key, kept);
  try {
    if (kept.length) localStorage.setItem(key, JSON.stringify(kept));
    else localStorage.removeItem(key);
  } catch {
    // Private browsing with storage off: the cart still works for this page view.
  }
  for (const l of listeners) l();
}

// Another tab changed the cart: drop the cached copy so the next read sees it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key && e.key.startsWith(PREFIX)) {
      cache.delete(e.key);
      for (const l of listeners) l();
    }
  });
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function getCart(eventName: string): CartItem[] {
  return read(keyOf(eventName));
}

export function setCart(eventName: string, items: CartItem[]) {
  write(keyOf(eventName), items);
}

/** Sets one ticket type's quantity (0 removes the line), keeping the order lines were added in. */
export function setQuantity(eventName: string, item: Omit<CartItem, 'quantity'>, quantity: number) {
  const items = getCart(eventName);
  const exists = items.some((i) => i.id === item.id);
  const next = exists ? items.map((i) => (i.id === item.id ? { ...i, ...item, quantity } : i)) : [...items, { ...item, quantity }];
  write(keyOf(eventName), next);
}

export function removeItems(eventName: string, ids: readonly string[]) {
  write(
    keyOf(eventName),
    getCart(eventName).filter((i) => !ids.includes(i.id)),
  );
}

export function clearCart(eventName: string) {
  write(keyOf(eventName), []);
}

/** The stored cart; empty on the server and while hydrating (the server cannot know it), then the stored one. */
export function useCart(eventName: string): CartItem[] {
  const get = useCallback(() => read(keyOf(eventName)), [eventName]);
  return useSyncExternalStore(subscribe, get, serverCart);
}
const serverCart = () => EMPTY;

export const cartTicketCount = (items: readonly CartItem[]) => items.reduce((n, i) => n + i.quantity, 0);
export const cartSubtotal = (items: readonly CartItem[]) => items.reduce((n, i) => n + i.price * i.quantity, 0);
export const cartLines = (items: readonly CartItem[]) => items.map((i) => ({ ticketTypeId: i.id, quantity: i.quantity }));
