import { TRANSFER_PATHS, type TOrderAnswers, type TOrderAnswersInput, type TOrderPage, type TResendTicketsResponse, type TTicketLinkPage, type TTransferTicketRequest, type TTransferTicketResponse } from '@marquee/core';
import { api } from '../../../ui/api-client';

const base = (token: string) => `/api/p/order-links/${encodeURIComponent(token)}`;

/** Issue 15: the private order page behind /orders/{token}, its Download and Resend; Find my tickets. */
export const orderLinkApi = {
  get: (token: string, signal?: AbortSignal) => api.get<TOrderPage>(base(token), undefined, signal),
  download: (token: string) => api.postForBlob(`${base(token)}/download`),
  resend: (token: string) => api.post<TResendTicketsResponse>(`${base(token)}/resend`),
  findTickets: (email: string) => api.post<TResendTicketsResponse>('/api/p/find-tickets', { email }),
  /** Issue 24: passes one ticket on to another person. */
  transfer: (token: string, body: TTransferTicketRequest) => api.post<TTransferTicketResponse>(TRANSFER_PATHS.transfer(encodeURIComponent(token)), body),
};

/** Issue 24: the new holder's page behind /tickets/{token}. */
export const ticketLinkApi = {
  get: (token: string, signal?: AbortSignal) => api.get<TTicketLinkPage>(TRANSFER_PATHS.ticketLink(encodeURIComponent(token)), undefined, signal),
  download: (token: string) => api.postForBlob(TRANSFER_PATHS.ticketLinkDownload(encodeURIComponent(token))),
};

/** Issue 24: the order's attendees and answers; the buyer changes them until the event's deadline. */
export const orderAnswersApi = {
  get: (token: string, signal?: AbortSignal) => api.get<TOrderAnswers>(`${base(token)}/answers`, undefined, signal),
  save: (token: string, body: TOrderAnswersInput) => api.put<TOrderAnswers>(`${base(token)}/answers`, body),
};
