import type { TCreateEventRequest, TEvent, TUpdateEventRequest } from '@marquee/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { eventsApi, type EventAction } from './api';
import { eventKeys } from './queries';
import { useTenantId } from '../../shared/tenant';

/** Stores the saved event for its editor and refreshes every event list. */
function useEventSaved() {
  const client = useQueryClient();
  const tenantId = useTenantId();
  return (event: TEvent) => {
    client.setQueryData(eventKeys.one(tenantId, event.id), event);
    return client.invalidateQueries({ queryKey: ['events', tenantId, 'list'] });
  };
}

export function useCreateEvent() {
  const tenantId = useTenantId();
  const saved = useEventSaved();
  return useMutation({ mutationFn: (details: TCreateEventRequest['details']) => eventsApi.create(tenantId, details), onSuccess: saved });
}

export function useUpdateEvent(eventId: string) {
  const tenantId = useTenantId();
  const saved = useEventSaved();
  return useMutation({ mutationFn: (details: TUpdateEventRequest['details']) => eventsApi.update(tenantId, eventId, details), onSuccess: saved });
}

export function useEventAction(eventId: string) {
  const tenantId = useTenantId();
  const saved = useEventSaved();
  return useMutation({ mutationFn: (action: EventAction) => eventsApi.act(tenantId, eventId, action), onSuccess: saved });
}

export function useCancelEvent(eventId: string) {
  const tenantId = useTenantId();
  const saved = useEventSaved();
  return useMutation({ mutationFn: (message: string) => eventsApi.cancel(tenantId, eventId, message.trim() ? { message: message.trim() } : {}), onSuccess: saved });
}

export function useDeleteEvent(eventId: string) {
  const tenantId = useTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => eventsApi.remove(tenantId, eventId),
    onSuccess: () => {
      client.removeQueries({ queryKey: eventKeys.one(tenantId, eventId) });
      return client.invalidateQueries({ queryKey: ['events', tenantId, 'list'] });
    },
  });
}

export function useUploadSeatMap(eventId: string) {
  const tenantId = useTenantId();
  const saved = useEventSaved();
  return useMutation({ mutationFn: (file: File) => eventsApi.uploadSeatMap(tenantId, eventId, file), onSuccess: saved });
}

export function useDeleteSeatMap(eventId: string) {
  const tenantId = useTenantId();
  const saved = useEventSaved();
  return useMutation({ mutationFn: () => eventsApi.deleteSeatMap(tenantId, eventId), onSuccess: saved });
}

export function useUploadCover(eventId: string) {
  const tenantId = useTenantId();
  const saved = useEventSaved();
  return useMutation({ mutationFn: (file: File) => eventsApi.uploadCover(tenantId, eventId, file), onSuccess: saved });
}

export function useDeleteCover(eventId: string) {
  const tenantId = useTenantId();
  const saved = useEventSaved();
  return useMutation({ mutationFn: () => eventsApi.deleteCover(tenantId, eventId), onSuccess: saved });
}
