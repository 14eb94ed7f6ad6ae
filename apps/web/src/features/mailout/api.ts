import type { ListResponse, TAttendeeAudience, TAttendeeAudienceRequest, TAttendeeMessage, TCreateAttendeeMessageRequest } from '@marquee/core';
import { api } from '../../ui/api-client';

export type MessageListQuery = { cursor?: string; limit: number };

const base = (tenantId: string, eventId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/messages`;

/** Issue 15: messages to an event's attendees. */
export const mailoutApi = {
  list: (tenantId: string, eventId: string, { cursor, limit }: MessageListQuery, signal?: AbortSignal) =>
    api.get<ListResponse<TAttendeeMessage>>(base(tenantId, eventId), { cursor, limit }, signal),
  audience: (tenantId: string, eventId: string, details: TAttendeeAudienceRequest['details']) => api.post<TAttendeeAudience>(`${base(tenantId, eventId)}/audience`, { details }),
  send: (tenantId: string, eventId: string, details: TCreateAttendeeMessageRequest['details']) => api.post<TAttendeeMessage>(base(tenantId, eventId), { details }),
};
