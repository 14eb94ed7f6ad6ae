import { z } from 'zod';
import { M } from '../messages.js';
import { zListResponse, zResource } from './list.js';

// spec: reports-payouts-checkout §3 (Tenant sales row, Event sales row, Dashboard, Order, Ticket,
// Refund, Subscriber, lists), §7 (downloads answer {downloadUrl}). Amounts are integer cents;
// dates are ISO 8601 strings except the subscriber's timestamp (milliseconds, spec §9). What each
// figure means is defined once in ../reports/figures.ts and docs/reports.md.

const cents = () => z.number().int();
const count = () => z.number().int();

// ---- dashboards --------------------------------------------------------------------------------

/** The eight cards and the two ticket counters every dashboard shares (spec §3 Dashboard sales{…}). */
export const ZReportSales = z.object({
  gross_sales: cents(),
  net_sales: cents(),
  total_service_fees: cents(),
  total_processing_fees: cents(),
  total_taxes: cents(),
  total_donations: cents(),
  total_discounts: cents(),
  refunds: cents(),
  tickets_sold: count(),
  complimentary_tickets: count(),
});
export type TReportSales = z.infer<typeof ZReportSales>;

/**
 * spec §3 Dashboard, for a tenant (GET /api/tenants/{tenantId}/reports/dashboard) and for one event
 * (GET /api/tenants/{tenantId}/events/{eventId}/reports/dashboard, where `events` is 1).
 */
/**
 * The money figures after refunds (issue 21.11, docs/reports.md "After refunds"), beside the cards,
 * which stay before refunds as the spec's dashboard has them. NET REVENUE is after refunds already.
 */
export const ZReportAfterRefunds = z.object({
  /** GROSS SALES less REFUNDS: what customers paid and kept paid. */
  gross_sales: cents(),
  /** The organiser's share of the succeeded refunds (what NET REVENUE already lost to them). */
  tenant_refunds: cents(),
  /** NET REVENUE before refunds: NET REVENUE + tenant_refunds. */
  net_sales_before_refunds: cents(),
  /** The tax the succeeded refunds gave back (core refundedTax per order). */
  taxes_refunded: cents(),
  /** TOTAL TAX less taxes_refunded. */
  total_taxes: cents(),
});
export type TReportAfterRefunds = z.infer<typeof ZReportAfterRefunds>;

/** One payment method's part of a channel's sales (issue 23: the box office's cash, terminal and comps). */
export const ZPaymentMethodSales = z.object({
  /** card | free | cash | card_terminal | complimentary; '' for orders without one */
  payment_method: z.string(),
  orders: count(),
  tickets_sold: count(),
  complimentary_tickets: count(),
  gross_sales: cents(),
});
export type TPaymentMethodSales = z.infer<typeof ZPaymentMethodSales>;

/**
 * Sales by channel (issues 23 and 25, docs/reports.md "Sales by channel"): the dashboard's figures
 * over the paid orders sold ONLINE, at the box office (BACKEND) and through an API key (APP). Always
 * the three channels in that order, zeros included; summed, they are the dashboard's own figures.
 */
export const ZChannelSales = z.object({
  channel: z.enum(['ONLINE', 'BACKEND', 'APP']),
  orders: count(),
  tickets_sold: count(),
  complimentary_tickets: count(),
  gross_sales: cents(),
  net_sales: cents(),
  refunds: cents(),
  /** The channel's split by payment method, largest gross first (empty when it sold nothing). */
  payment_methods: z.array(ZPaymentMethodSales),
});
export type TChannelSales = z.infer<typeof ZChannelSales>;

/** Issue 24: the waiting list on the dashboard, over the events in scope (docs/waiting-list.md). */
export const ZWaitlistFigures = z.object({
  /** Everyone who joined a list (removed people included: they joined). */
  joined: count(),
  /** Entries whose offer was bought: the list's "claimed" state. */
  bought: count(),
});
export type TWaitlistFigures = z.infer<typeof ZWaitlistFigures>;

export const ZReportDashboard = z.object({
  sales: ZReportSales,
  after_refunds: ZReportAfterRefunds,
  events: count(),
  orders: count(),
  subscriptions: count(),
  ticket_used: count(),
  channels: z.array(ZChannelSales),
  waitlist: ZWaitlistFigures,
});
export type TReportDashboard = z.infer<typeof ZReportDashboard>;

// ---- charts (beyond the spec: issue 8) ----------------------------------------------------------

/** One day of sales, in the tenant's reporting day (UTC). Days without sales are present with zeros. */
export const ZSalesDay = z.object({
  /** YYYY-MM-DD */
  date: z.string(),
  orders: count(),
  ticketsSold: count(),
  grossSales: cents(),
  netSales: cents(),
});
export type TSalesDay = z.infer<typeof ZSalesDay>;

/**
 * GET …/reports/charts/sales-over-time?from=YYYY-MM-DD&to=YYYY-MM-DD (tenant or event route).
 * Without from/to: the 30 days ending today, or from the first sale when there were sales before.
 */
export const ZSalesOverTime = z.object({ from: z.string(), to: z.string(), result: z.array(ZSalesDay) });
export type TSalesOverTime = z.infer<typeof ZSalesOverTime>;

/**
 * A calendar day that exists (no 0000-00-00, no February 31st): what PostgreSQL's date accepts. The
 * one check of a report day: the reports service relies on it.
 */
const isRealDay = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1 && d.toISOString().slice(0, 10) === v;
};
const zDay = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be YYYY-MM-DD`)
    .refine(isRealDay, `${name} must be YYYY-MM-DD`);

export const ZSalesOverTimeQuery = z.object({
  from: zDay('from').optional(),
  to: zDay('to').optional(),
});
export type TSalesOverTimeQuery = z.input<typeof ZSalesOverTimeQuery>;

/** Sales by ticket type (GET …/reports/charts/ticket-types): valid tickets of paid orders. */
export const ZTicketTypeSales = z.object({
  ticketTypeId: z.string(),
  ticketTypeName: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  ticketsSold: count(),
  complimentaryTickets: count(),
  /** The face value of those tickets (ticket price x tickets), before discounts and fees. */
  ticketRevenue: cents(),
});
export type TTicketTypeSales = z.infer<typeof ZTicketTypeSales>;
export const ZTicketTypeSalesList = z.object({ result: z.array(ZTicketTypeSales) });
export type TTicketTypeSalesList = z.infer<typeof ZTicketTypeSalesList>;

// ---- sales rows -------------------------------------------------------------------------------

/**
 * spec §3 Tenant sales row: one row of Platform Sales, Platform Taxes and Platform Donations
 * (GET /api/platform/reports/tenant-list). id is the tenant id.
 */
export const ZTenantSalesDetails = z.object({
  tenantURL: z.string(),
  tenantName: z.string(),
  ticketsSold: count(),
  grossSales: cents(),
  netSales: cents(),
  totalTax: cents(),
  totalDonation: cents(),
  totalDonationFee: cents(),
  /** Issue 23: tickets priced 0 (comps), never in the gross. */
  complimentaryTickets: count(),
  /** Issue 23: the gross sales by channel; the three sum to grossSales. */
  grossSalesByChannel: z.object({ ONLINE: cents(), BACKEND: cents(), APP: cents() }),
});
export const ZTenantSalesRow = zResource(ZTenantSalesDetails);
export type TTenantSalesRow = z.infer<typeof ZTenantSalesRow>;
export const ZTenantSalesList = zListResponse(ZTenantSalesRow);
export type TTenantSalesList = z.infer<typeof ZTenantSalesList>;

/** spec §3 Event sales row (GET /api/tenants/{tenantId}/reports/event-list). id is the event id. */
export const ZEventSalesDetails = z.object({
  eventName: z.string(),
  grossSales: cents(),
  netSales: cents(),
  ticketsSold: count(),
  /** draft | published | cancelled */
  status: z.string(),
  startDateTime: z.string().nullable(),
  /** Issue 23: tickets priced 0 (comps), never in the gross. */
  complimentaryTickets: count(),
  /** Issue 23: the gross sales by channel; the three sum to grossSales. */
  grossSalesByChannel: z.object({ ONLINE: cents(), BACKEND: cents(), APP: cents() }),
});
export const ZEventSalesRow = zResource(ZEventSalesDetails);
export type TEventSalesRow = z.infer<typeof ZEventSalesRow>;
export const ZEventSalesList = zListResponse(ZEventSalesRow);
export type TEventSalesList = z.infer<typeof ZEventSalesList>;

// ---- orders, tickets, refunds, subscribers ------------------------------------------------------

/** spec §3 Order. id is the order's uuid; Order ID on screen is details.orderUID. */
export const ZReportOrderDetails = z.object({
  orderUID: z.string(),
  dateCreated: z.string(),
  fullName: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  ticketCount: count(),
  /** Lower-case (card, cash, …); '' when unknown. Searched lowercased (spec §5). */
  paymentMethod: z.string(),
  /** online | backend | app */
  paymentSource: z.string(),
  /** Issue 23: where it was sold (ONLINE on the site, BACKEND at the box office, APP by API key). */
  channel: z.string(),
  grossAmount: cents(),
  /** Whether any refund of the order succeeded (Refunded Yes/No). */
  refunded: z.boolean(),
  /** Succeeded refunds of the order, in cents (our addition). */
  refundedAmount: cents(),
  /** The signed-in attendee's user id, or null. */
  user: z.string().nullable(),
  tenantId: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  chargeId: z.string().nullable(),
  /** processing | completed (paid orders only appear in reports) */
  status: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  country: z.string().nullable(),
  subtotal: cents(),
  surcharge: cents(),
  processingFee: cents(),
  gatewayProcessingFee: cents(),
  discount: cents(),
  discountCode: z.string().nullable(),
  vat: cents(),
  /** Percent x 100 (basis points). */
  taxRate: z.number().int(),
  donation: cents(),
  donationFee: cents(),
  totalAmount: cents(),
});
export const ZReportOrder = zResource(ZReportOrderDetails);
export type TReportOrder = z.infer<typeof ZReportOrder>;
export const ZReportOrderList = zListResponse(ZReportOrder);
export type TReportOrderList = z.infer<typeof ZReportOrderList>;

/** spec §3 Ticket, as the Ticket List shows it (the void flag is spelt `vioded` there). id is the ticket's uuid. */
export const ZReportTicketDetails = z.object({
  /** The Ticket ID printed on the ticket. */
  ticketId: z.string(),
  /** The order's orderUID (Order ID on screen). */
  orderId: z.string(),
  fullName: z.string(),
  email: z.string(),
  contactNumber: z.string().nullable(),
  ticketTypeName: z.string(),
  ticketPrice: cents(),
  used: z.boolean(),
  vioded: z.boolean(),
  dateCreated: z.string(),
  ticketUID: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  /** Issue 23: its order's channel (ONLINE, BACKEND, APP) and payment method (card, cash, card_terminal, complimentary). */
  channel: z.string(),
  paymentMethod: z.string(),
  /** Issue 27: the reserved seat ('Section · Row · Seat'); null: general admission. */
  seat: z.string().nullable(),
});
export const ZReportTicket = zResource(ZReportTicketDetails);
export type TReportTicket = z.infer<typeof ZReportTicket>;
export const ZReportTicketList = zListResponse(ZReportTicket);
export type TReportTicketList = z.infer<typeof ZReportTicketList>;

/** spec §3 Refund. id is the refund's uuid. Payment ID on screen is chargeId; Email is userId. */
export const ZReportRefundDetails = z.object({
  orderUID: z.string(),
  chargeId: z.string().nullable(),
  eventId: z.string(),
  eventName: z.string(),
  fullName: z.string(),
  /** The buyer's e-mail (the spec's name for it). */
  userId: z.string(),
  phone: z.string().nullable(),
  /** The printed Ticket IDs the refund voided. */
  ticketIds: z.array(z.string()),
  /** pending | succeeded | failed; shown through refundStatusLabel. */
  status: z.string(),
  refundAmount: cents(),
  refundReason: z.string(),
  transactionDate: z.string(),
});
export const ZReportRefund = zResource(ZReportRefundDetails);
export type TReportRefund = z.infer<typeof ZReportRefund>;
export const ZReportRefundList = zListResponse(ZReportRefund);
export type TReportRefundList = z.infer<typeof ZReportRefundList>;

/** spec §3 Subscriber. id is the subscription's uuid; sk is the same id (the spec's sort key). */
export const ZReportSubscriberDetails = z.object({
  sk: z.string(),
  email: z.string(),
  /** Milliseconds since the epoch (spec §9). */
  timestamp: z.number().int(),
  eventName: z.string(),
  eventId: z.string(),
  /** Issue 21: what the buyer opted in to at checkout, and the mobile number texts go to (null without the text opt-in). */
  optInEmail: z.boolean(),
  optInText: z.boolean(),
  phone: z.string().nullable(),
});
export const ZReportSubscriber = zResource(ZReportSubscriberDetails);
export type TReportSubscriber = z.infer<typeof ZReportSubscriber>;
export const ZReportSubscriberList = zListResponse(ZReportSubscriber);
export type TReportSubscriberList = z.infer<typeof ZReportSubscriberList>;

// ---- list filters (spec §5): the fields each list accepts in `filters` --------------------------

/**
 * What each report list can be searched and filtered on. Text fields marked `contains` match
 * case-insensitively anywhere in the value; the others must match exactly (ids, payment method,
 * status). Dates take a `>=` and `<=` pair (ISO dates or milliseconds).
 */
export const REPORT_LIST_FIELDS = {
  tenantSales: { contains: ['details.tenantURL', 'details.tenantName'], exact: [], dates: [] },
  eventSales: { contains: ['details.eventName'], exact: ['details.status'], dates: ['details.startDateTime'] },
  orders: {
    contains: ['details.fullName', 'details.email', 'details.phone', 'details.eventName'],
    exact: ['details.orderUID', 'details.ticketId', 'details.paymentMethod', 'details.status', 'details.refunded', 'details.eventId'],
    dates: ['details.dateCreated'],
  },
  tickets: {
    contains: ['details.fullName', 'details.email', 'details.contactNumber', 'details.ticketTypeName', 'details.eventName'],
    exact: ['details.ticketId', 'details.orderId', 'details.used', 'details.vioded', 'details.eventId'],
    dates: ['details.dateCreated'],
  },
  refunds: {
    contains: ['details.fullName', 'details.userId', 'details.phone', 'details.eventName'],
    exact: ['details.orderUID', 'details.chargeId', 'details.ticketId', 'details.status', 'details.eventId'],
    dates: ['details.transactionDate'],
  },
  subscribers: { contains: ['details.email', 'details.eventName'], exact: ['details.eventId'], dates: ['details.timestamp'] },
} as const;

/**
 * The tenant-wide "find an order" box (beyond the spec, issue 8): `filters=details.search=<text>` on
 * GET /api/tenants/{tenantId}/reports/order-list matches an order id or ticket id exactly, the start
 * of an e-mail, full name or last name (case-insensitive), or a phone number by its digits.
 */
export const ORDER_FIND_FIELD = 'details.search';

// ---- exports (spec §7, §8) ----------------------------------------------------------------------

export const EXPORT_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/**
 * The answer of every report `…/download` call: spec §7's downloadUrl (signed, short-lived), plus
 * the export's id and status so that the UI can show progress. The URL answers 202 with this same
 * status while the file is being written, the CSV once it is done, and 409 with the §8 message if
 * it failed (410 once the link expired). The status route (REPORT_PATHS.*Export) answers the same
 * object with a fresh downloadUrl: poll it, then open the URL when status is 'done'.
 */
export const ZExportStatus = z.object({
  downloadUrl: z.string(),
  exportId: z.string(),
  status: z.enum(EXPORT_STATUSES),
  /** Rows written so far. */
  rowCount: count(),
  /** Rows expected (counted when the export starts); null while unknown. */
  totalRows: count().nullable(),
  fileName: z.string(),
  /** The §8 message when failed, else null. */
  error: z.string().nullable(),
});
export type TExportStatus = z.infer<typeof ZExportStatus>;

/** The filters a `…/download` call takes: the same `filters` and `sort` as its list (no cursor/limit). */
export const ZExportQuery = z.object({
  sort: z.string().max(100).optional(),
  filters: z.union([z.string(), z.array(z.string())]).optional(),
});
export type TExportQuery = z.input<typeof ZExportQuery>;

export const EXPORT_KINDS = [
  'tenant-list',
  'taxes',
  'donations',
  'event-list',
  'orders',
  'tickets',
  'refunds',
  'subscribers',
] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

// ---- paths (spec §7 where it names them; ours where it says "paths not shown") -------------------

const t = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}`;
const e = (tenantId: string, eventId: string) => `${t(tenantId)}/events/${encodeURIComponent(eventId)}`;

/**
 * Every report route. Lists take cursor, limit, sort and filters; each `…/download` takes the same
 * filters and sort and answers ZExportStatus. Tenant routes serve both consoles (the tenant console
 * passes its own tenant id); platform roles may call any tenant's.
 */
export const REPORT_PATHS = {
  // platform only
  tenantList: () => '/api/platform/reports/tenant-list',
  tenantListDownload: () => '/api/platform/reports/tenant-list/download',
  taxesDownload: () => '/api/platform/reports/taxes/download',
  donationsDownload: () => '/api/platform/reports/donations/download',
  platformEventListDownload: (tenantId: string) => `/api/platform/reports/tenants/${encodeURIComponent(tenantId)}/event-list/download`,
  platformExport: (exportId: string) => `/api/platform/reports/exports/${encodeURIComponent(exportId)}`,
  // tenant level
  tenantDashboard: (tenantId: string) => `${t(tenantId)}/reports/dashboard`,
  eventList: (tenantId: string) => `${t(tenantId)}/reports/event-list`,
  eventListDownload: (tenantId: string) => `${t(tenantId)}/reports/event-list/download`,
  tenantOrders: (tenantId: string) => `${t(tenantId)}/reports/order-list`,
  tenantOrdersDownload: (tenantId: string) => `${t(tenantId)}/reports/order-list/download`,
  tenantRefunds: (tenantId: string) => `${t(tenantId)}/reports/refunds-list`,
  tenantRefundsDownload: (tenantId: string) => `${t(tenantId)}/reports/refunds-list/download`,
  tenantSubscribers: (tenantId: string) => `${t(tenantId)}/newsletter/subscriber-list`,
  tenantSubscribersDownload: (tenantId: string) => `${t(tenantId)}/newsletter/subscriber-list/download`,
  tenantSalesOverTime: (tenantId: string) => `${t(tenantId)}/reports/charts/sales-over-time`,
  tenantTicketTypes: (tenantId: string) => `${t(tenantId)}/reports/charts/ticket-types`,
  tenantExport: (tenantId: string, exportId: string) => `${t(tenantId)}/reports/exports/${encodeURIComponent(exportId)}`,
  // event level
  /** spec §7: GET /tenants/{tenant_id}/events/{event_id}, the event basics (its name for report titles). */
  eventBasics: (tenantId: string, eventId: string) => e(tenantId, eventId),
  eventDashboard: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/reports/dashboard`,
  eventOrders: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/reports/order-list`,
  eventOrdersDownload: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/reports/order-list/download`,
  eventTickets: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/reports/tickets`,
  eventTicketsDownload: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/reports/tickets/download`,
  eventRefunds: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/reports/refunds-list`,
  eventRefundsDownload: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/reports/refunds-list/download`,
  eventSubscribers: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/newsletter/subscriber-list`,
  eventSubscribersDownload: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/newsletter/subscriber-list/download`,
  eventSalesOverTime: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/reports/charts/sales-over-time`,
  eventTicketTypes: (tenantId: string, eventId: string) => `${e(tenantId, eventId)}/reports/charts/ticket-types`,
  eventExport: (tenantId: string, eventId: string, exportId: string) => `${e(tenantId, eventId)}/reports/exports/${encodeURIComponent(exportId)}`,
} as const;

/**
 * spec §8: the message an export failure shows, by the export's kind. Taxes and donations show it
 * under the title 'Error Downloading Report' (M.errorDownloadingReport); refunds under their own.
 */
export function exportFailureMessage(kind: ExportKind): string {
  switch (kind) {
    case 'tenant-list':
    case 'event-list':
      return M.exportTenantReportsFailed;
    case 'refunds':
      return M.exportRefundListFailed;
    default:
      return M.exportDownloadFailed;
  }
}

/** Issue 23: where orders are sold (orders.channel) and how the box office takes payment, for the list filters and labels. */
export const SALE_CHANNELS = ['ONLINE', 'BACKEND', 'APP'] as const;
export const SALE_CHANNEL_LABELS: Record<(typeof SALE_CHANNELS)[number], string> = { ONLINE: 'Online', BACKEND: 'Box office', APP: 'App' };
export const PAYMENT_METHOD_LABELS: Record<string, string> = { card: 'Card', cash: 'Cash', card_terminal: 'Card terminal', complimentary: 'Complimentary', free: 'Free' };
export const paymentMethodLabelOf = (method: string | null | undefined) => (method ? (PAYMENT_METHOD_LABELS[method] ?? method) : '');
export const saleChannelLabelOf = (channel: string) => SALE_CHANNEL_LABELS[channel as (typeof SALE_CHANNELS)[number]] ?? channel;
