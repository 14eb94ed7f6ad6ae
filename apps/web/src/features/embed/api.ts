import { encodeFilters, type ListResponse, type TEmbedSettings, type TEmbedSettingsRequest } from '@marquee/core';
import { api } from '../../ui/api-client';

export type EventChoice = { id: string; details: { name: string; urlName: string; status: string; startDateTime: string | null; endDateTime: string | null; timeZone: string; dateCreated: string } };

export const embedApi = {
  settings: (tenantId: string, signal?: AbortSignal) => api.get<TEmbedSettings>(`/api/tenants/${tenantId}/embed-settings`, undefined, signal),
  save: (tenantId: string, body: TEmbedSettingsRequest) => api.put<{ success: true; message: string; settings: TEmbedSettings }>(`/api/tenants/${tenantId}/embed-settings`, body),
  /** The tenant's published events, which the snippet can sell (the first 100). */
  events: (tenantId: string, signal?: AbortSignal) =>
    api.get<ListResponse<EventChoice>>(`/api/tenants/${tenantId}/events`, { limit: 100, filters: encodeFilters([{ field: 'details.status', op: '=', value: 'published' }]) }, signal),
};
