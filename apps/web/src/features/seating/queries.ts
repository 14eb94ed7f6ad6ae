import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TEventSeatingInput, TVenueLayoutInput } from '@marquee/core';
import * as seatingApi from './api';

export const seatingKeys = {
  layouts: (tenantId: string) => ['venue-layouts', tenantId] as const,
  eventSeating: (tenantId: string, eventId: string) => ['event-seating', tenantId, eventId] as const,
};

export const useLayouts = (tenantId: string) => useQuery({ queryKey: seatingKeys.layouts(tenantId), queryFn: () => seatingApi.listLayouts(tenantId) });

export function useSaveLayout(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: TVenueLayoutInput }) => (id ? seatingApi.saveLayout(tenantId, id, body) : seatingApi.createLayout(tenantId, body)),
    onSuccess: () => client.invalidateQueries({ queryKey: seatingKeys.layouts(tenantId) }),
  });
}

export function useDeleteLayout(tenantId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: string) => seatingApi.deleteLayout(tenantId, id), onSuccess: () => client.invalidateQueries({ queryKey: seatingKeys.layouts(tenantId) }) });
}

export const useEventSeating = (tenantId: string, eventId: string) =>
  useQuery({ queryKey: seatingKeys.eventSeating(tenantId, eventId), queryFn: () => seatingApi.getEventSeating(tenantId, eventId) });

export function useSetEventSeating(tenantId: string, eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TEventSeatingInput | null) => (body ? seatingApi.setEventSeating(tenantId, eventId, body) : seatingApi.clearEventSeating(tenantId, eventId)),
    onSuccess: () => client.invalidateQueries({ queryKey: seatingKeys.eventSeating(tenantId, eventId) }),
  });
}
