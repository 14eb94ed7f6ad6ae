import { useQuery } from '@tanstack/react-query';
import { isApiError, isNetworkError } from '../../ui/api-client';
import { orderAdminApi, type OrderRef } from './api';

export const orderAdminKey = ['order-admin'] as const;
export const orderKey = (ref: OrderRef) => [...orderAdminKey, 'order', ref.tenantId, ref.eventId, ref.orderUID] as const;

export function useOrderDetail(ref: OrderRef) {
  return useQuery({
    queryKey: orderKey(ref),
    queryFn: ({ signal }) => orderAdminApi.get(ref, signal),
    enabled: !!ref.tenantId && !!ref.eventId && !!ref.orderUID,
    retry: (n, err) => n < 2 && (!isApiError(err) || isNetworkError(err)),
  });
}

