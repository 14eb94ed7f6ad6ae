import {
  M,
  reportRangeTooLong,
  type ListResponse,
  type TReportDashboard,
  type TSalesOverTime,
  type TSalesOverTimeQuery,
  type TTicketTypeSalesList,
} from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { channelSalesOf } from './channel-sales.js';
import * as repo from './repository.js';
import type { Scope } from './report-source.js';
import { SOURCES, type SourceKind } from './sources.js';

type ReadDeps = Pick<Deps, 'db'>;

/** The tenant (and event) a report reads, after checking that the event is the tenant's (else 404). */
export async function reportScope({ deps, ctx, eventId }: { deps: ReadDeps; ctx: TenantCtx; eventId?: string }): Promise<{ tenantId: string; eventId?: string }> {
  if (eventId && !(await repo.eventExists(deps.db, ctx.tenantId, eventId))) throw notFound();
  return eventId ? { tenantId: ctx.tenantId, eventId } : { tenantId: ctx.tenantId };
}

/**
 * spec: reports-payouts-checkout §2 tenant and event dashboards (§3 Dashboard). Every figure is the
 * one of docs/reports.md; `events` is the tenant's published events (1 on an event dashboard).
 */
export async function getReportDashboard({ deps, ctx, eventId }: { deps: ReadDeps; ctx: TenantCtx; eventId?: string }): Promise<TReportDashboard> {
  const scope = await reportScope({ deps, ctx, eventId });
  const [f, r, channels, waitlist] = await Promise.all([
    repo.dashboardFigures(deps.db, scope),
    repo.refundFigures(deps.db, scope),
    repo.channelFigures(deps.db, scope),
    repo.waitlistFigures(deps.db, scope),
  ]);
  return {
    sales: {
      gross_sales: f.gross,
      net_sales: f.net,
      total_service_fees: f.serviceFees,
      total_processing_fees: f.processingFees,
      total_taxes: f.tax,
      total_donations: f.donations,
      total_discounts: f.discounts,
      refunds: f.refunds,
      tickets_sold: f.sold,
      complimentary_tickets: f.complimentary,
    },
    after_refunds: {
      gross_sales: f.gross - f.refunds,
      tenant_refunds: r.tenantRefunds,
      net_sales_before_refunds: f.net + r.tenantRefunds,
      taxes_refunded: r.taxesRefunded,
      total_taxes: f.tax - r.taxesRefunded,
    },
    events: eventId ? 1 : f.events,
    orders: f.orders,
    subscriptions: f.subscriptions,
    ticket_used: f.used,
    channels: channelSalesOf(channels),
    waitlist,
  };
}

/** One report list of a tenant or event (orders, tickets, refunds, subscribers, event sales). */
export async function listTenantReport({
  deps,
  ctx,
  kind,
  eventId,
  query,
}: {
  deps: ReadDeps;
  ctx: TenantCtx;
  kind: Exclude<SourceKind, 'tenant-list' | 'taxes' | 'donations'>;
  eventId?: string;
  query: unknown;
}): Promise<ListResponse<unknown>> {
  const scope = await reportScope({ deps, ctx, eventId });
  return repo.listReport(deps.db, SOURCES[kind] as (typeof SOURCES)['orders'], scope, query) as Promise<ListResponse<unknown>>;
}

/** Platform Sales, Taxes and Donations: one row per live tenant (spec §3 Tenant sales row). */
export async function listTenantSales({ deps, query }: { deps: ReadDeps; query: unknown }) {
  return repo.listReport(deps.db, SOURCES['tenant-list'], { platform: true }, query);
}

const MAX_CHART_DAYS = 731;

/** Sales per day for the chart (beyond the spec, issue 8): every day of the range, zeros included. */
export async function getSalesOverTime({
  deps,
  ctx,
  eventId,
  query,
  today = new Date(),
}: {
  deps: ReadDeps;
  ctx: TenantCtx;
  eventId?: string;
  query: TSalesOverTimeQuery;
  today?: Date;
}): Promise<TSalesOverTime> {
  const scope = await reportScope({ deps, ctx, eventId });
  const todayText = today.toISOString().slice(0, 10);
  let to = query.to ?? todayText;
  let from = query.from;
  if (!from) {
    const first = await repo.firstSaleDay(deps.db, scope);
    const monthAgo = new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    from = first && first < monthAgo ? first : monthAgo;
  }
  if (from > to) throw badRequest(M.reportRangeReversed);
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  if (days > MAX_CHART_DAYS) {
    if (query.from) throw badRequest(reportRangeTooLong(MAX_CHART_DAYS));
    from = new Date(Date.parse(to) - (MAX_CHART_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  }
  to = to.slice(0, 10);
  const rows = await repo.salesByDay(deps.db, scope, from, to);
  return {
    from,
    to,
    result: rows.map((r) => ({
      date: String(r.day),
      orders: Number(r.orders),
      ticketsSold: Number(r.sold),
      grossSales: Number(r.gross),
      netSales: Number(r.net),
    })),
  };
}

/** Valid tickets of paid orders by ticket type (beyond the spec, issue 8). */
export async function getSalesByTicketType({ deps, ctx, eventId }: { deps: ReadDeps; ctx: TenantCtx; eventId?: string }): Promise<TTicketTypeSalesList> {
  const scope = await reportScope({ deps, ctx, eventId });
  const rows = await repo.salesByTicketType(deps.db, scope);
  return {
    result: rows.map((r) => ({
      ticketTypeId: String(r.ticket_type_id),
      ticketTypeName: String(r.ticket_type_name),
      eventId: String(r.event_id),
      eventName: String(r.event_name),
      ticketsSold: Number(r.sold),
      complimentaryTickets: Number(r.complimentary),
      ticketRevenue: Number(r.revenue),
    })),
  };
}

export type { Scope };
