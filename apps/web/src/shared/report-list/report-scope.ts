import { useParams } from 'react-router';
import { useSiteContext } from '../site-context';

// spec: reports-payouts-checkout §2: platform mode carries tenant ids in paths, tenant mode does
// not. One scope gives every report page its tenant and the paths of its neighbours in both modes.
export type ReportScope = {
  mode: 'platform' | 'tenant';
  tenantId: string;
  /** /reports/sales/{tenant_id} (platform) or /reports/sales (tenant): the tenant dashboard. */
  base: string;
  event: (eventId: string) => string;
  order: (eventId: string, orderUID: string) => string;
};

export function reportScope(mode: 'platform' | 'tenant', tenantId: string): ReportScope {
  const base = mode === 'platform' ? `/reports/sales/${encodeURIComponent(tenantId)}` : '/reports/sales';
  const event = (eventId: string) => `${base}/event/${encodeURIComponent(eventId)}`;
  return { mode, tenantId, base, event, order: (eventId, orderUID) => `${event(eventId)}/orders/${encodeURIComponent(orderUID)}` };
}

/** The report scope of the page shown: the path's tenant on the platform, the host's tenant otherwise. */
export function useReportScope(): ReportScope {
  const context = useSiteContext();
  const { tenantId } = useParams();
  if (context.mode === 'platform') return reportScope('platform', tenantId ?? '');
  return reportScope('tenant', context.tenant?.id ?? '');
}

/** spec §2: the order page outside reports (tenant console). */
export const consoleOrderPath = (eventId: string, orderUID: string) => `/event/${encodeURIComponent(eventId)}/order/${encodeURIComponent(orderUID)}`;
