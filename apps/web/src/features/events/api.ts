import {
  encodeFilters,
  type EventStatus,
  type Filter,
  type ListResponse,
  type TCancelEventRequest,
  type TCancellationProgress,
  type TCreateEventRequest,
  type TEvent,
  type TSurchargeRuleList,
  type TUpdateEventRequest,
} from '@marquee/core';
import { api } from '../../ui/api-client';

/** grouped (issue 28): one row per series (its next date with the whole series' sums), plain events as they are. */
export type EventListQuery = { cursor?: string; limit: number; name?: string; status?: EventStatus; grouped?: boolean };
export type EventAction = 'publish' | 'unpublish';

const base = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/events`;
const one = (tenantId: string, eventId: string) => `${base(tenantId)}/${encodeURIComponent(eventId)}`;

export const eventsApi = {
  list: (tenantId: string, { cursor, limit, name, status, grouped }: EventListQuery, signal?: AbortSignal) => {
    const filters: Filter[] = [];
    if (name) filters.push({ field: 'details.name', op: '=', value: name });
    if (status) filters.push({ field: 'details.status', op: '=', value: status });
    if (grouped) filters.push({ field: 'details.seriesGrouped', op: '=', value: status ?? 'all' });
    return api.get<ListResponse<TEvent>>(base(tenantId), { cursor, limit, filters: filters.length ? encodeFilters(filters) : undefined }, signal);
  },
  get: (tenantId: string, eventId: string, signal?: AbortSignal) => api.get<TEvent>(one(tenantId, eventId), undefined, signal),
  create: (tenantId: string, details: TCreateEventRequest['details']) => api.post<TEvent>(base(tenantId), { details }),
  update: (tenantId: string, eventId: string, details: TUpdateEventRequest['details']) => api.patch<TEvent>(one(tenantId, eventId), { details }),
  remove: (tenantId: string, eventId: string) => api.delete<{ success: true }>(one(tenantId, eventId)),
  act: (tenantId: string, eventId: string, action: EventAction) => api.post<TEvent>(`${one(tenantId, eventId)}/${action}`),
  /** Cancels the event: its paid orders are refunded what is left of them, its buyers told (with the message). */
  cancel: (tenantId: string, eventId: string, body: NonNullable<TCancelEventRequest>) => api.post<TEvent>(`${one(tenantId, eventId)}/cancel`, body),
  /** What cancelling would do now (not cancelled yet), or how the cancellation's refunds are going. */
  cancellation: (tenantId: string, eventId: string, signal?: AbortSignal) => api.get<TCancellationProgress>(`${one(tenantId, eventId)}/cancellation`, undefined, signal),
  uploadSeatMap: (tenantId: string, eventId: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.upload<TEvent>(`${one(tenantId, eventId)}/seatmap`, form);
  },
  deleteSeatMap: (tenantId: string, eventId: string) => api.delete<TEvent>(`${one(tenantId, eventId)}/seatmap`),
  uploadCover: (tenantId: string, eventId: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.upload<TEvent>(`${one(tenantId, eventId)}/cover`, form);
  },
  deleteCover: (tenantId: string, eventId: string) => api.delete<TEvent>(`${one(tenantId, eventId)}/cover`),
  /** The tenant's surcharge rules, for the event's fee rule. */
  surchargeRules: (tenantId: string, signal?: AbortSignal) =>
    api.get<TSurchargeRuleList>(`/api/tenants/${encodeURIComponent(tenantId)}/rules`, { limit: 100 }, signal),
};
