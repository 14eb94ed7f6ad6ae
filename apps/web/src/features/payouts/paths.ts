// spec: reports-payouts-checkout §2 Payouts: the console paths of the payout pages and their links.
const q = (params: Record<string, string | undefined>) => {
  const s = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1])).toString();
  return s ? `?${s}` : '';
};

export const payoutPaths = {
  pending: '/reports/payouts/pending',
  tenantPending: (tenantId: string) => `/reports/sales/${tenantId}/payouts/pending`,
  completed: '/reports/payouts/completed',
  tenantCompleted: (tenantId: string) => `/reports/sales/${tenantId}/payouts/completed`,
  /** From the all-tenants list (platform) and in the tenant console. */
  payout: (payoutId: string, tenantId?: string) => `/reports/payouts/completed/${payoutId}${q({ tenant_id: tenantId })}`,
  tenantPayout: (tenantId: string, payoutId: string) => `/reports/sales/${tenantId}/payouts/completed/${payoutId}`,
  eventSales: (tenantId: string, eventId: string) => `/reports/sales/${tenantId}/event/${eventId}`,
  orderDetails: (p: { tenantId?: string; eventId: string; orderId: string; payoutId?: string }) =>
    `/reports/payouts/order-details${q({ tenant_id: p.tenantId, event_id: p.eventId, payout_id: p.payoutId, order_id: p.orderId })}`,
  tenantOrderDetails: (tenantId: string, p: { eventId: string; orderId: string; payoutId?: string }) =>
    `/reports/sales/${tenantId}/payouts/order-details${q({ event_id: p.eventId, payout_id: p.payoutId, order_id: p.orderId })}`,
};
