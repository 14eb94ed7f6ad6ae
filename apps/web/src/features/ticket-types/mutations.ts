import type { TCreateTicketTypeRequest, TUpdateTicketTypeRequest } from '@marquee/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { eventKeys } from '../../shared/query-keys';
import { useTenantId } from '../../shared/tenant';
import { ticketTypesApi } from './api';
import { ticketTypeKeys } from './queries';

/** A ticket type change also moves the event's remaining capacity and what it may publish. */
function useRefresh(eventId: string) {
  const client = useQueryClient();
  const tenantId = useTenantId();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ticketTypeKeys.event(tenantId, eventId) }),
      client.invalidateQueries({ queryKey: eventKeys.one(tenantId, eventId) }),
    ]);
}

export function useCreateTicketType(eventId: string) {
  const tenantId = useTenantId();
  const refresh = useRefresh(eventId);
  return useMutation({ mutationFn: (details: TCreateTicketTypeRequest['details']) => ticketTypesApi.create(tenantId, eventId, details), onSuccess: refresh });
}

export function useUpdateTicketType(eventId: string) {
  const tenantId = useTenantId();
  const refresh = useRefresh(eventId);
  return useMutation({
    mutationFn: ({ id, details }: { id: string; details: TUpdateTicketTypeRequest['details'] }) => ticketTypesApi.update(tenantId, eventId, id, details),
    onSuccess: refresh,
  });
}

export function useDeleteTicketType(eventId: string) {
  const tenantId = useTenantId();
  const refresh = useRefresh(eventId);
  return useMutation({ mutationFn: (id: string) => ticketTypesApi.remove(tenantId, eventId, id), onSuccess: refresh });
}
