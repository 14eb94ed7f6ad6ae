import type { TPlatformDashboard } from '@marquee/core';
import type { Deps } from '../../deps.js';
import * as repo from './repository.js';

/**
 * spec: accounts §3 Platform dashboard report, from real data (zeros until there are sales).
 * Amounts in cents. net_sales is what organisers keep (their share of each order) less refunds;
 * tickets_sold counts paid tickets, complimentary_tickets free ones, voided tickets neither;
 * attendees are distinct buyer e-mail addresses. See docs/decisions.md.
 */
export async function getPlatformDashboard({ deps }: { deps: Pick<Deps, 'db'> }): Promise<TPlatformDashboard> {
  const [sales, tenants, events] = await Promise.all([repo.salesTotals(deps.db), repo.liveTenantCount(deps.db), repo.publishedEventCount(deps.db)]);
  const n = (v: unknown) => Number(v ?? 0);
  const refunds = n(sales.refunds);
  return {
    sales: {
      net_sales: n(sales.tenantTotal) - refunds,
      gross_sales: n(sales.gross),
      total_service_fees: n(sales.serviceFees),
      total_processing_fees: n(sales.processingFees),
      total_taxes: n(sales.taxes),
      total_donations: n(sales.donations),
      total_discounts: n(sales.discounts),
      refunds,
      tickets_sold: n(sales.sold),
      complimentary_tickets: n(sales.complimentary),
    },
    events,
    tenants,
    attendees: n(sales.attendees),
  };
}
