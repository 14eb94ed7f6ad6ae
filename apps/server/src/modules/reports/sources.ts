import { ORDERS } from './orders-source.js';
import { REFUNDS } from './refunds-source.js';
import { EVENT_SALES, TENANT_DONATIONS, TENANT_SALES, TENANT_TAXES } from './sales-sources.js';
import { SUBSCRIBERS } from './subscribers-source.js';
import { TICKETS } from './tickets-source.js';

// Every report as one definition: the rows it reads (tenant-scoped, paid orders only), the fields
// its list can be filtered and sorted on, the wire shape (spec reports-payouts-checkout §3) and the
// CSV columns read from that wire shape, so the list, the export and the dashboard cannot disagree.
// The figures follow packages/core/src/reports/figures.ts (docs/reports.md).
// Each report's definition lives in its own file (*-source.ts); the kit they share is report-source.ts.

export const SOURCES = {
  orders: ORDERS,
  tickets: TICKETS,
  refunds: REFUNDS,
  subscribers: SUBSCRIBERS,
  'event-list': EVENT_SALES,
  'tenant-list': TENANT_SALES,
  taxes: TENANT_TAXES,
  donations: TENANT_DONATIONS,
} as const;
export type SourceKind = keyof typeof SOURCES;
