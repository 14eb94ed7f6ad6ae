import { Navigate, useParams, useSearchParams } from 'react-router';
import { useSiteContext } from '../../../shared/site-context';

// spec §2: a payout row's order link (/reports/payouts/order-details?tenant_id&event_id&order_id,
// /reports/sales/{tenantId}/payouts/order-details?…) opens the order page of the reports.
export function PayoutOrderRedirect() {
  const context = useSiteContext();
  const { tenantId: tenantParam } = useParams();
  const [params] = useSearchParams();
  const tenantId = tenantParam ?? params.get('tenant_id') ?? '';
  const eventId = params.get('event_id') ?? '';
  const orderId = params.get('order_id') ?? '';
  if (!eventId || !orderId || (context.mode === 'platform' && !tenantId)) return <Navigate to="/reports/payouts/pending" replace />;
  const to =
    context.mode === 'platform'
      ? `/reports/sales/${encodeURIComponent(tenantId)}/event/${encodeURIComponent(eventId)}/orders/${encodeURIComponent(orderId)}`
      : `/reports/sales/event/${encodeURIComponent(eventId)}/orders/${encodeURIComponent(orderId)}`;
  return <Navigate to={to} replace />;
}
