import type { TRefundRequest, TSettleRefundRequest, TVoidTicketRequest } from '@marquee/core';
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

/**
 * Settles a refund owed at the box office (issue 23), from the order page or the cancelled event's
 * page: the order's cached answer is replaced, the report lists and the event (its cancellation
 * progress) read again.
 */
export function useSettleRefund(tenantId: string, eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { orderUID: string; refundId: string; body: TSettleRefundRequest }) => orderAdminApi.settle({ tenantId, eventId, orderUID: v.orderUID }, v.refundId, v.body),
    onSuccess: (answer, v) => {
      client.setQueryData(orderKey({ tenantId, eventId, orderUID: v.orderUID }), answer.order);
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
