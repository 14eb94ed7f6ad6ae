import type { TRefundRequest, TVoidTicketRequest } from '@marquee/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { orderAdminApi, type OrderRef } from './api';
import { orderKey } from './queries';

// Report lists hold the order's refunded flag and the tickets' void state: refresh them too.
const REPORT_KEY = ['reports'] as const;

export function useVoidTicket(ref: OrderRef) {
  return useMutation({ mutationFn: (body: TVoidTicketRequest) => orderAdminApi.voidTicket(ref.tenantId, ref.eventId, body) });
}

export function useResendTickets(ref: OrderRef) {
  return useMutation({ mutationFn: (email?: string) => orderAdminApi.resend(ref, email) });
}

export function useDownloadTickets(ref: OrderRef) {
  return useMutation({ mutationFn: () => orderAdminApi.download(ref) });
}

export function useRefundOrder(ref: OrderRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TRefundRequest) => orderAdminApi.refund(ref, body),
    onSuccess: (answer) => {
      client.setQueryData(orderKey(ref), answer.order);
      void client.invalidateQueries({ queryKey: REPORT_KEY });
    },
  });
}

/** Reloads the order and the report lists (after a void, spec §4: about 1.5 s later). */
export function useReloadOrder(ref: OrderRef) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: orderKey(ref) });
    void client.invalidateQueries({ queryKey: REPORT_KEY });
  };
}
