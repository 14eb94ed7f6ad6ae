import type { TWaitlist, TWaitlistSettings } from '@marquee/core';
import { api } from '../../ui/api-client';

export const waitlistPath = (tenantId: string, eventId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/waitlist`;

export const fetchWaitlist = (tenantId: string, eventId: string) => api.get<TWaitlist>(waitlistPath(tenantId, eventId));
export const saveWaitlistSettings = (tenantId: string, eventId: string, body: TWaitlistSettings) => api.put<TWaitlist>(`${waitlistPath(tenantId, eventId)}/settings`, body);
export const offerToEntry = (tenantId: string, eventId: string, entryId: string) =>
  api.post<{ success: true; message: string }>(`${waitlistPath(tenantId, eventId)}/entries/${encodeURIComponent(entryId)}/offer`);
export const removeEntry = (tenantId: string, eventId: string, entryId: string) =>
  api.delete<{ success: true; message: string }>(`${waitlistPath(tenantId, eventId)}/entries/${encodeURIComponent(entryId)}`);
export const waitlistExportUrl = (tenantId: string, eventId: string) => `${waitlistPath(tenantId, eventId)}/export`;
