import { isEmbedded, postToParent } from '../site/embed';
import type { CartItem } from './cart-store';

// spec: reports-payouts-checkout §7 Analytics events view_cart, begin_checkout, remove_from_cart,
// purchase (USD), pushed to window.dataLayer in GA4's e-commerce shape for a tag manager to pick up.

type Ga4Item = { item_id: string; item_name: string; item_category: string; price: number; quantity: number };
type DataLayerWindow = Window & { dataLayer?: unknown[] };

export const CURRENCY = 'USD';
const dollars = (cents: number) => Math.round(cents) / 100;

export const ga4Items = (items: readonly Pick<CartItem, 'id' | 'ticketName' | 'price' | 'quantity'>[], eventTitle: string): Ga4Item[] =>
  items.map((i) => ({ item_id: i.id, item_name: i.ticketName, item_category: eventTitle, price: dollars(i.price), quantity: i.quantity }));

function push(event: string, ecommerce: Record<string, unknown>) {
  const w = window as DataLayerWindow;
  w.dataLayer = w.dataLayer ?? [];
  // GA4's recommendation: clear the previous ecommerce object so its fields do not leak into this one.
  w.dataLayer.push({ ecommerce: null });
  w.dataLayer.push({ event, ecommerce: { currency: CURRENCY, ...ecommerce } });
  // Issue 28: from the widget, the organiser's page gets them too (the snippet pushes them to its own dataLayer).
  if (isEmbedded()) postToParent({ type: 'marquee:analytics', event, ecommerce: { currency: CURRENCY, ...ecommerce } });
}

export function trackViewCart(eventTitle: string, items: readonly CartItem[]) {
  push('view_cart', { value: dollars(items.reduce((n, i) => n + i.price * i.quantity, 0)), items: ga4Items(items, eventTitle) });
}

export function trackBeginCheckout(eventTitle: string, items: readonly CartItem[], valueCents: number, coupon: string | null) {
  push('begin_checkout', { value: dollars(valueCents), ...(coupon ? { coupon } : {}), items: ga4Items(items, eventTitle) });
}

export function trackRemoveFromCart(eventTitle: string, removed: readonly CartItem[]) {
  if (!removed.length) return;
  push('remove_from_cart', { value: dollars(removed.reduce((n, i) => n + i.price * i.quantity, 0)), items: ga4Items(removed, eventTitle) });
}

export function trackPurchase(p: {
  eventTitle: string;
  transactionId: string;
  valueCents: number;
  taxCents: number;
  coupon: string | null;
  items: readonly Pick<CartItem, 'id' | 'ticketName' | 'price' | 'quantity'>[];
}) {
  push('purchase', {
    transaction_id: p.transactionId,
    value: dollars(p.valueCents),
    tax: dollars(p.taxCents),
    ...(p.coupon ? { coupon: p.coupon } : {}),
    items: ga4Items(p.items, p.eventTitle),
  });
}
