import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { eventsApi, type EventListQuery } from './api';
import { eventKeys } from '../../shared/query-keys';
import { useTenantId } from '../../shared/tenant';

export { eventKeys };

/** What cancelling the event would do now (the cancel dialog's preview), read when the dialog opens. */
export function useCancellationPreview(eventId: string, enabled: boolean) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: eventKeys.cancellation(tenantId, eventId),
    queryFn: ({ signal }) => eventsApi.cancellation(tenantId, eventId, signal),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useEvents(q: EventListQuery) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: eventKeys.list(tenantId, q),
    queryFn: ({ signal }) => eventsApi.list(tenantId, q, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

export function useEvent(eventId: string | undefined) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: eventKeys.one(tenantId, eventId ?? ''),
    queryFn: ({ signal }) => eventsApi.get(tenantId, eventId!, signal),
    enabled: !!eventId,
  });
}

/** The tenant's active surcharge rules; an event may pick one instead of the tenant's default. */
export function useSurchargeRules() {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: eventKeys.rules(tenantId),
    queryFn: ({ signal }) => eventsApi.surchargeRules(tenantId, signal),
    select: (list) => list.result.map((item) => item.rule).filter((rule) => rule.active),
    staleTime: 60_000,
    retry: false,
  });
}
