import type { TAddSeriesDateRequest, TCreateSeriesRequest, TMoveSeriesDateRequest, TSeries, TSeriesList, TSeriesTicketTypeUpdate, TUpdateSeriesTicketTypeRequest } from '@marquee/core';
import { api } from '../../ui/api-client';

// Issue 28: event series in the tenant console.

const base = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/series`;
const one = (tenantId: string, seriesId: string) => `${base(tenantId)}/${encodeURIComponent(seriesId)}`;

export const listSeries = (tenantId: string) => api.get<TSeriesList>(base(tenantId));
export const getSeries = (tenantId: string, seriesId: string) => api.get<TSeries>(one(tenantId, seriesId));
export const createSeries = (tenantId: string, body: TCreateSeriesRequest) => api.post<TSeries>(base(tenantId), body);
export const addSeriesDate = (tenantId: string, seriesId: string, body: TAddSeriesDateRequest) => api.post<TSeries>(`${one(tenantId, seriesId)}/dates`, body);
export const moveSeriesDate = (tenantId: string, seriesId: string, eventId: string, body: TMoveSeriesDateRequest) =>
  api.post<TSeries>(`${one(tenantId, seriesId)}/dates/${encodeURIComponent(eventId)}/move`, body);
export const cancelSeriesDate = (tenantId: string, seriesId: string, eventId: string, message?: string) =>
  api.post<TSeries>(`${one(tenantId, seriesId)}/dates/${encodeURIComponent(eventId)}/cancel`, message ? { message } : {});
export const updateSeriesTicketType = (tenantId: string, seriesId: string, ticketTypeId: string, body: TUpdateSeriesTicketTypeRequest) =>
  api.patch<TSeriesTicketTypeUpdate>(`${one(tenantId, seriesId)}/ticket-types/${encodeURIComponent(ticketTypeId)}`, body);
/** The whole series' orders or tickets as one CSV (a download: the browser follows the link with its session). */
export const seriesExportUrl = (tenantId: string, seriesId: string, kind: 'orders' | 'tickets') => `${one(tenantId, seriesId)}/export/${kind}`;
