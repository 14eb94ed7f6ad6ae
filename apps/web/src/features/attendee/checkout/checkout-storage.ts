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
export const getPendingOrder = (eventName: string) => readJson<PendingOrder>(localStorage, pendingKey(eventName));
export const getOrderByUid = (orderUID: string) => readJson<PendingOrder>(localStorage, orderKey(orderUID));

export function savePendingOrder(order: PendingOrder) {
  writeJson(localStorage, pendingKey(order.eventName), order);
  writeJson(localStorage, orderKey(order.orderUID), order);
}

/** The order was paid: the event has no draft any more (the order's own record stays for its page). */
export function clearPendingOrder(eventName: string, orderUID?: string) {
  const pending = getPendingOrder(eventName);
  if (!orderUID || pending?.orderUID === orderUID) remove(localStorage, pendingKey(eventName));
}

export type ContactDraft = Record<string, string | boolean>;
export const getContactDraft = (eventName: string) => readJson<ContactDraft>(sessionStorage, contactKey(eventName));
export const saveContactDraft = (eventName: string, draft: ContactDraft) => writeJson(sessionStorage, contactKey(eventName), draft);

/** GA4 counts a purchase once: a reload of the success page must not send it again. */
export function markPurchaseTracked(orderUID: string): boolean {
  if (localStorage.getItem(purchaseKey(orderUID))) return false;
  try {
    localStorage.setItem(purchaseKey(orderUID), '1');
  } catch {
    // ignore
  }
  return true;
}
