import type { TBreakdown } from '@marquee/core';
import type { CartItem } from '../cart/cart-store';

// What must survive the trip to the payment page and back. The held draft and the order's view
// token go to localStorage (the success page needs them, possibly after a reload); the buyer's
// contact details only to sessionStorage, so they do not outlive the tab.

export type PendingOrder = {
  orderUID: string;
  token: string;
  eventName: string;
  email: string;
  holdExpiresAt: string;
  breakdown: TBreakdown;
  items: CartItem[];
  /** A waiting-list offer (issue 24): held for `email` only, bought as offered. */
  waitlist?: boolean;
};

const pendingKey = (eventName: string) => `marquee.pending:${eventName.toLowerCase()}`;
const orderKey = (orderUID: string) => `marquee.order:${orderUID}`;
const contactKey = (eventName: string) => `marquee.contact:${eventName.toLowerCase()}`;
const purchaseKey = (orderUID: string) => `marquee.purchase-tracked:${orderUID}`;

/**
 * A browser may refuse storage altogether (the widget in an organiser's page when third-party
 * cookies are blocked, issue 28: reading `localStorage` itself throws): then this page keeps what
 * it would have stored, in memory.
 */
function inMemory(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, String(v)),
    removeItem: (k: string) => void map.delete(k),
  };
}
const fallback = { local: inMemory(), session: inMemory() };
function local(): Storage {
  try {
    return window.localStorage;
  } catch {
    return fallback.local;
  }
}
function session(): Storage {
  try {
    return window.sessionStorage;
  } catch {
    return fallback.session;
  }
}

function readJson<T>(storage: Storage, key: string): T | null {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function writeJson(storage: Storage, key: string, value: unknown) {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage off: the flow still works within this page.
  }
}

function remove(storage: Storage, key: string) {
  try {
    storage.removeItem(key);
  } catch {
    // ignore
  }
}

/** The draft this browser holds for the event (a declined card, or back from the payment page). */
export const getPendingOrder = (eventName: string) => readJson<PendingOrder>(local(), pendingKey(eventName));
export const getOrderByUid = (orderUID: string) => readJson<PendingOrder>(local(), orderKey(orderUID));

export function savePendingOrder(order: PendingOrder) {
  writeJson(local(), pendingKey(order.eventName), order);
  writeJson(local(), orderKey(order.orderUID), order);
}

/** The order was paid: the event has no draft any more (the order's own record stays for its page). */
export function clearPendingOrder(eventName: string, orderUID?: string) {
  const pending = getPendingOrder(eventName);
  if (!orderUID || pending?.orderUID === orderUID) remove(local(), pendingKey(eventName));
}

export type ContactDraft = Record<string, string | boolean>;
export const getContactDraft = (eventName: string) => readJson<ContactDraft>(session(), contactKey(eventName));
export const saveContactDraft = (eventName: string, draft: ContactDraft) => writeJson(session(), contactKey(eventName), draft);

/** GA4 counts a purchase once: a reload of the success page must not send it again. */
export function markPurchaseTracked(orderUID: string): boolean {
  if (local().getItem(purchaseKey(orderUID))) return false;
  try {
    local().setItem(purchaseKey(orderUID), '1');
  } catch {
    // ignore
  }
  return true;
}
