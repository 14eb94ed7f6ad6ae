import type { TCreateTicketTypeRequest, TTicketType, TUpdateTicketTypeRequest } from '@marquee/core';
import { api } from '../../ui/api-client';

export type TicketTypeListQuery = { cursor?: string; limit: number };

const base = (tenantId: string, eventId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/ticket-types`;
const one = (tenantId: string, eventId: string, id: string) => `${base(tenantId, eventId)}/${encodeURIComponent(id)}`;

type TicketTypeList = { result: TTicketType[]; count: number; cursor: string | null };

export const ticketTypesApi = {
  list: (tenantId: string, eventId: string, { cursor, limit }: TicketTypeListQuery, signal?: AbortSignal) =>
    api.get<TicketTypeList>(base(tenantId, eventId), { cursor, limit }, signal),
  create: (tenantId: string, eventId: string, details: TCreateTicketTypeRequest['details']) => api.post<TTicketType>(base(tenantId, eventId), { details }),
  update: (tenantId: string, eventId: string, id: string, details: TUpdateTicketTypeRequest['details']) =>
    api.patch<TTicketType>(one(tenantId, eventId, id), { details }),
  remove: (tenantId: string, eventId: string, id: string) => api.delete<{ success: true }>(one(tenantId, eventId, id)),
};
