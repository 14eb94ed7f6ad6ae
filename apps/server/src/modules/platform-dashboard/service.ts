import type { TPlatformDashboard } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { channelSalesOf } from '../reports/channel-sales.js';
import * as repo from './repository.js';

/**
 * spec: accounts §3 Platform dashboard report, from real data (zeros until there are sales).
 * Amounts in cents. Every sales figure is the one of docs/reports.md, as on the tenant and event
 * dashboards; attendees are distinct buyer e-mail addresses. See docs/decisions.md.
 */
export async function getPlatformDashboard({ deps }: { deps: Pick<Deps, 'db'> }): Promise<TPlatformDashboard> {
  const [sales, tenants, events, channels] = await Promise.all([
    repo.salesTotals(deps.db),
    repo.liveTenantCount(deps.db),
    repo.publishedEventCount(deps.db),
    repo.channelTotals(deps.db),
  ]);
  return {
    sales: {
      net_sales: sales.net,
      gross_sales: sales.gross,
      total_service_fees: sales.serviceFees,
      total_processing_fees: sales.processingFees,
      total_taxes: sales.tax,
      total_donations: sales.donations,
      total_discounts: sales.discounts,
      refunds: sales.refunds,
      tickets_sold: sales.sold,
      complimentary_tickets: sales.complimentary,
    },
    events,
    tenants,
    attendees: sales.attendees,
    channels: channelSalesOf(channels),
  };
}
