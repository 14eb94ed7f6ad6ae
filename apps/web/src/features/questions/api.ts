import type {
  TAnswersReport,
  TAttendeeSettings,
  TCreateQuestionRequest,
  TOrderAnswers,
  TOrderAnswersInput,
  TQuestion,
  TQuestionList,
  TUpdateAttendeeSettingsRequest,
} from '@marquee/core';
import { api } from '../../ui/api-client';

const ev = (tenantId: string, eventId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}`;

/** Issue 24: an event's questions, its attendee settings, the answers report and an order's answers. */
export const questionsApi = {
  list: (tenantId: string, eventId: string, signal?: AbortSignal) => api.get<TQuestionList>(`${ev(tenantId, eventId)}/questions`, undefined, signal),
  create: (tenantId: string, eventId: string, details: TCreateQuestionRequest['details']) => api.post<TQuestion>(`${ev(tenantId, eventId)}/questions`, { details }),
  update: (tenantId: string, eventId: string, id: string, details: TCreateQuestionRequest['details']) =>
    api.put<TQuestion>(`${ev(tenantId, eventId)}/questions/${encodeURIComponent(id)}`, { details }),
  remove: (tenantId: string, eventId: string, id: string) => api.delete<{ success: true }>(`${ev(tenantId, eventId)}/questions/${encodeURIComponent(id)}`),
  reorder: (tenantId: string, eventId: string, ids: string[]) => api.post<TQuestionList>(`${ev(tenantId, eventId)}/questions/reorder`, { ids }),
  settings: (tenantId: string, eventId: string, signal?: AbortSignal) => api.get<TAttendeeSettings>(`${ev(tenantId, eventId)}/attendee-settings`, undefined, signal),
  saveSettings: (tenantId: string, eventId: string, body: TUpdateAttendeeSettingsRequest) => api.put<TAttendeeSettings>(`${ev(tenantId, eventId)}/attendee-settings`, body),
  report: (tenantId: string, eventId: string, signal?: AbortSignal) => api.get<TAnswersReport>(`${ev(tenantId, eventId)}/answers-report`, undefined, signal),
  orderAnswers: (tenantId: string, eventId: string, orderUID: string, signal?: AbortSignal) =>
    api.get<TOrderAnswers>(`${ev(tenantId, eventId)}/orders/${encodeURIComponent(orderUID)}/answers`, undefined, signal),
  saveOrderAnswers: (tenantId: string, eventId: string, orderUID: string, body: TOrderAnswersInput) =>
    api.put<TOrderAnswers>(`${ev(tenantId, eventId)}/orders/${encodeURIComponent(orderUID)}/answers`, body),
};
