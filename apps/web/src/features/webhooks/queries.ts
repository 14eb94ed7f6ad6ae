import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TWebhookEndpointRequest, TWebhookEndpointUpdate } from '@marquee/core';
import { webhooksApi } from './api';

export const webhookKeys = {
  endpoints: (base: string) => ['webhooks', base, 'endpoints'] as const,
  deliveries: (base: string, id: string, q: { cursor?: string; limit: number }) => ['webhooks', base, 'deliveries', id, q] as const,
};

export function useEndpoints(base: string) {
  return useQuery({ queryKey: webhookKeys.endpoints(base), queryFn: ({ signal }) => webhooksApi.list(base, signal) });
}

/** The delivery log; refreshed every few seconds while a delivery is still on its way. */
export function useDeliveries(base: string, id: string | null, q: { cursor?: string; limit: number }) {
  return useQuery({
    queryKey: webhookKeys.deliveries(base, id ?? '', q),
    queryFn: ({ signal }) => webhooksApi.deliveries(base, id!, q, signal),
    enabled: !!id,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.result.some((d) => d.details.status === 'pending') ? 3000 : false),
  });
}

function useInvalidate(base: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['webhooks', base] });
}

export function useCreateEndpoint(base: string) {
  const invalidate = useInvalidate(base);
  return useMutation({ mutationFn: (body: TWebhookEndpointRequest) => webhooksApi.create(base, body), onSuccess: invalidate });
}
export function useUpdateEndpoint(base: string) {
  const invalidate = useInvalidate(base);
  return useMutation({ mutationFn: ({ id, body }: { id: string; body: TWebhookEndpointUpdate }) => webhooksApi.update(base, id, body), onSuccess: invalidate });
}
export function useDeleteEndpoint(base: string) {
  const invalidate = useInvalidate(base);
  return useMutation({ mutationFn: (id: string) => webhooksApi.remove(base, id), onSuccess: invalidate });
}
export function useRotateSecret(base: string) {
  const invalidate = useInvalidate(base);
  return useMutation({ mutationFn: (id: string) => webhooksApi.rotate(base, id), onSuccess: invalidate });
}
export function useRedeliver(base: string) {
  const invalidate = useInvalidate(base);
  return useMutation({ mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) => webhooksApi.redeliver(base, id, deliveryId), onSuccess: invalidate });
}
