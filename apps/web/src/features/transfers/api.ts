import { TRANSFER_PATHS, type TTicketHistory, type TTransferSettings } from '@marquee/core';
import { api } from '../../ui/api-client';

const e = encodeURIComponent;

/** Issue 24, the console's side of ticket transfers: the event's setting and each ticket's history. */
export const transfersApi = {
  settings: (tenantId: string, eventId: string) => api.get<TTransferSettings>(TRANSFER_PATHS.settings(e(tenantId), e(eventId))),
  saveSettings: (tenantId: string, eventId: string, body: TTransferSettings) => api.put<TTransferSettings>(TRANSFER_PATHS.settings(e(tenantId), e(eventId)), body),
  history: (tenantId: string, eventId: string, orderUID: string) => api.get<TTicketHistory>(TRANSFER_PATHS.history(e(tenantId), e(eventId), e(orderUID))),
};
