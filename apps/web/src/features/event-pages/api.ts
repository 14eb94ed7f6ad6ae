import type { ListResponse, TEventPage, TEventPageDraft, TSiteTemplate } from '@marquee/core';
import { api } from '../../ui/api-client';

// The event page builder's calls (issue 10).
const base = (tenantId: string, eventId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/page`;

export const eventPagesApi = {
  get: (tenantId: string, eventId: string, signal?: AbortSignal) => api.get<TEventPage>(base(tenantId, eventId), undefined, signal),
  templates: (tenantId: string, signal?: AbortSignal) => api.get<ListResponse<TSiteTemplate>>(`/api/tenants/${encodeURIComponent(tenantId)}/site-templates`, { limit: 100 }, signal),
  start: (tenantId: string, eventId: string, templateId: string) => api.post<TEventPage>(`${base(tenantId, eventId)}/start`, { templateId }),
  saveDraft: (tenantId: string, eventId: string, draft: TEventPageDraft) => api.put<{ draftSavedAt: string }>(`${base(tenantId, eventId)}/draft`, draft),
  publish: (tenantId: string, eventId: string) => api.post<TEventPage>(`${base(tenantId, eventId)}/publish`),
  unpublish: (tenantId: string, eventId: string) => api.post<TEventPage>(`${base(tenantId, eventId)}/unpublish`),
  rollback: (tenantId: string, eventId: string, version: number) => api.post<TEventPage>(`${base(tenantId, eventId)}/rollback`, { version }),
};
