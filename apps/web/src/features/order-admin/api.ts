import type {
  TOrderDetail,
  TRefundRequest,
  TRefundResponse,
  TResendTicketsResponse,
  TSettleRefundRequest,
  TVoidTicketRequest,
  TVoidTicketResponse,
} from '@marquee/core';
import { api } from '../../ui/api-client';

const e = encodeURIComponent;
const eventPath = (tenantId: string, eventId: string) => `/api/tenants/${e(tenantId)}/events/${e(eventId)}`;

export type OrderRef = { tenantId: string; eventId: string; orderUID: string };

export const orderAdminApi = {
  get: ({ tenantId, eventId, orderUID }: OrderRef, signal?: AbortSignal) =>
    api.get<TOrderDetail>(`${eventPath(tenantId, eventId)}/orders/${e(orderUID)}`, undefined, signal),
  voidTicket: (tenantId: string, eventId: string, body: TVoidTicketRequest) => api.post<TVoidTicketResponse>(`${eventPath(tenantId, eventId)}/tickets/void`, body),
  resend: ({ tenantId, eventId, orderUID }: OrderRef, email?: string) =>
    api.post<TResendTicketsResponse>(`${eventPath(tenantId, eventId)}/resend`, { orderUID, email: email || undefined }),
  download: ({ tenantId, eventId, orderUID }: OrderRef) => api.postForBlob(`${eventPath(tenantId, eventId)}/download`, { orderUID }),
  refund: ({ tenantId, eventId, orderUID }: OrderRef, body: TRefundRequest) =>
    api.post<TRefundResponse>(`${eventPath(tenantId, eventId)}/orders/${e(orderUID)}/refunds`, body),
  /** Issue 23: a refund owed at the box office, paid back in cash from the settler's drawer or on the terminal. */
  settle: ({ tenantId, eventId, orderUID }: OrderRef, refundId: string, body: TSettleRefundRequest) =>
    api.post<TRefundResponse>(`${eventPath(tenantId, eventId)}/orders/${e(orderUID)}/refunds/${e(refundId)}/settle`, body),
};
