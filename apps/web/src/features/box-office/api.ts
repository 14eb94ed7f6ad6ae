import type { TBoxOfficeMenu, TBoxOfficeQuoteRequest, TBoxOfficeSaleRequest, TBoxOfficeSaleResponse, TBreakdown, TGuestListRequest, TGuestListResponse, TSeatHold, TSeatHoldRequest } from '@marquee/core';
import { api } from '../../ui/api-client';

// The box office API (issue 23): the menu, a quote, a sale; and the console's guest list.
const base = (tenantId: string, eventId: string) => `/api/tenants/${tenantId}/events/${eventId}/box-office`;

export const boxOfficeApi = {
  menu: (tenantId: string, eventId: string) => api.get<TBoxOfficeMenu>(base(tenantId, eventId)),
  quote: (tenantId: string, eventId: string, body: TBoxOfficeQuoteRequest) => api.post<TBreakdown>(`${base(tenantId, eventId)}/quote`, body),
  /** Issue 27: seats for a seated ticket type, held through the same seat holds as online (best available N together). */
  holdSeats: (tenantId: string, eventId: string, body: TSeatHoldRequest) => api.post<TSeatHold>(`${base(tenantId, eventId)}/seat-holds`, body),
  sell: (tenantId: string, eventId: string, body: TBoxOfficeSaleRequest) => api.post<TBoxOfficeSaleResponse>(`${base(tenantId, eventId)}/sales`, body),
  guestList: (tenantId: string, eventId: string, body: TGuestListRequest) => api.post<TGuestListResponse>(`/api/tenants/${tenantId}/events/${eventId}/guest-list`, body),
};

export const boxOfficeMenuKey = (tenantId: string, eventId: string) => ['box-office', tenantId, eventId, 'menu'] as const;
