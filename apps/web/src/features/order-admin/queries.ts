import { useQuery } from '@tanstack/react-query';
import { orderAdminApi, type OrderRef } from './api';

export const orderAdminKey = ['order-admin'] as const;
export const orderKey = (ref: OrderRef) => [...orderAdminKey, 'order', ref.tenantId, ref.eventId, ref.orderUID] as const;
export const cancellationKey = (tenantId: string, eventId: string) => [...orderAdminKey, 'cancellation', tenantId, eventId] as const;

export function useOrderDetail(ref: OrderRef) {
  return useQuery({
    queryKey: orderKey(ref),
    queryFn: ({ signal }) => orderAdminApi.get(ref, signal),
    enabled: !!ref.tenantId && !!ref.eventId && !!ref.orderUID,
    retry: (n, err) => n < 2 && !(err as { status?: number }).status,
  });
}

/** The refunds an event's cancellation started; polled while they run. */
export function useCancellationProgress(tenantId: string | undefined, eventId: string | undefined, enabled = true) {
  return useQuery({
    queryKey: cancellationKey(tenantId ?? '', eventId ?? ''),
    queryFn: ({ signal }) => orderAdminApi.cancellation(tenantId!, eventId!, signal),
    enabled: !!tenantId && !!eventId && enabled,
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 2000 : false),
  });
}
