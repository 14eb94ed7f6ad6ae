import { z } from 'zod';
import { ZChannelSales } from './reports.js';

// spec: accounts-admin-fees §3 Platform dashboard report. Amounts are integer cents.
export const ZPlatformDashboard = z.object({
  sales: z.object({
    net_sales: z.number().int(),
    gross_sales: z.number().int(),
    total_service_fees: z.number().int(),
    total_processing_fees: z.number().int(),
    total_taxes: z.number().int(),
    total_donations: z.number().int(),
    total_discounts: z.number().int(),
    refunds: z.number().int(),
    tickets_sold: z.number().int(),
    complimentary_tickets: z.number().int(),
  }),
  events: z.number().int(),
  tenants: z.number().int(),
  attendees: z.number().int(),
  /** Issues 23 and 25: sales by channel across every tenant (the same rollup as the tenant dashboards). */
  channels: z.array(ZChannelSales),
});
export type TPlatformDashboard = z.infer<typeof ZPlatformDashboard>;

/** The dashboard's New Active Tenants card: GET /api/tenants with this query. */
export const NEW_ACTIVE_TENANTS_QUERY = { filters: 'details.status=active', sort: '-details.dateCreated', limit: 5 } as const;
