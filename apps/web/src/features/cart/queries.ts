import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { priceCart } from './api';
import { cartLines, type CartItem } from './cart-store';

export const priceQueryKey = (eventName: string, items: readonly CartItem[], discountCode: string | null) =>
  ['site', 'price', eventName.toLowerCase(), cartLines(items), discountCode] as const;

/**
 * The breakdown shown in 'Item Summary' and 'Order Summary'. The server runs the one pricing engine
 * with the tenant's fee settings (which the browser never sees) and knows the discount's terms; the
 * previous answer stays on screen while a changed cart is repriced.
 */
export function usePrice(eventName: string, items: readonly CartItem[], discountCode: string | null, enabled = true) {
  return useQuery({
    queryKey: priceQueryKey(eventName, items, discountCode),
    queryFn: () => priceCart(eventName, { lines: cartLines(items), discountCode }),
    enabled: enabled && items.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
    retry: false,
  });
}
