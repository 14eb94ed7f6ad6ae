import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTenantId } from '../../shared/tenant';
import { ticketTypesApi, type TicketTypeListQuery } from './api';

export const ticketTypeKeys = {
  event: (tenantId: string, eventId: string) => ['ticket-types', tenantId, eventId] as const,
  list: (tenantId: string, eventId: string, q: TicketTypeListQuery) => ['ticket-types', tenantId, eventId, 'list', q] as const,
  all: (tenantId: string, eventId: string) => ['ticket-types', tenantId, eventId, 'all'] as const,
};

export function useTicketTypes(eventId: string, q: TicketTypeListQuery) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: ticketTypeKeys.list(tenantId, eventId, q),
    queryFn: ({ signal }) => ticketTypesApi.list(tenantId, eventId, q, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

/** Every ticket type of the event (an event has a handful), for pickers: linked type, discount scope. */
export function useAllTicketTypes(eventId: string) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: ticketTypeKeys.all(tenantId, eventId),
    queryFn: async ({ signal }) => {
      const all = [];
      let cursor: string | undefined;
      do {
        const page = await ticketTypesApi.list(tenantId, eventId, { cursor, limit: 100 }, signal);
        all.push(...page.result);
        cursor = page.cursor ?? undefined;
      } while (cursor);
      return all;
    },
    staleTime: 5_000,
  });
}
