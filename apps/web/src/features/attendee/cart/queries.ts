import { keepPreviousData, useQuery } from '../site/site-query';
import { priceCart } from './api';
import { cartLines, type CartItem } from './cart-store';

// The unit prices are in the key so that a price the organiser changed is priced again at once.
export const priceQueryKey = (eventName: string, items: readonly CartItem[], discountCode: string | null, donation = 0) =>
  ['site', 'price', eventName.toLowerCase(), cartLines(items), items.map((i) => i.price), discountCode, donation] as const;

/**
 * The breakdown shown in 'Item Summary' and 'Order Summary'. The server runs the one pricing engine
 * with the tenant's fee settings (which the browser never sees) and knows the discount's terms and
 * the donation fee; the previous answer stays on screen while a changed cart is repriced.
 */
export function usePrice(eventName: string, items: readonly CartItem[], discountCode: string | null, enabled = true, donation = 0) {
  return useQuery({
    queryKey: priceQueryKey(eventName, items, discountCode, donation),
    queryFn: () => priceCart(eventName, { lines: cartLines(items), discountCode, ...(donation > 0 ? { donation } : {}) }),
    enabled: enabled && items.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
    retry: false,
  });
}
