import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TEmbedSettingsRequest } from '@marquee/core';
import { embedApi } from './api';

export const embedKeys = {
  settings: (tenantId: string) => ['embed', tenantId, 'settings'] as const,
  events: (tenantId: string) => ['embed', tenantId, 'events'] as const,
};

export function useEmbedSettings(tenantId: string) {
  return useQuery({ queryKey: embedKeys.settings(tenantId), queryFn: ({ signal }) => embedApi.settings(tenantId, signal) });
}

export function useEmbedEvents(tenantId: string) {
  return useQuery({ queryKey: embedKeys.events(tenantId), queryFn: ({ signal }) => embedApi.events(tenantId, signal) });
}

export function useSaveEmbedSettings(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TEmbedSettingsRequest) => embedApi.save(tenantId, body),
    onSuccess: (answer) => client.setQueryData(embedKeys.settings(tenantId), answer.settings),
  });
}
