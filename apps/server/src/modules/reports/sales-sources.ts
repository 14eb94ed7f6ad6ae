import type { TEventSalesRow, TTenantSalesRow } from '@marquee/core';
import { type SQL, sql } from 'drizzle-orm';
import type { ListSpec } from '../../platform/list-query.js';
import { moneySql, numberSql, textSql } from './csv-sql.js';
import { type Scope, type CsvColumn, type ReportSource, col, text, exact, number, stamp, scopeWhere, iso, str, int } from './report-source.js';

// Issue 23: the gross sales by channel beside each row's gross, from the per-channel rollup
// (event_channel_totals, kept by the same trigger as event_sales_totals, so the three sum to the gross).
const channelGrossBy = (keys: SQL) =>
  sql`select ${keys}, sum(gross) filter (where channel = 'ONLINE') as online, sum(gross) filter (where channel = 'BACKEND') as backend,
    sum(gross) filter (where channel = 'APP') as app from event_channel_totals group by ${keys}`;
const channelGrossColumns = (alias: string) =>
  sql.raw(`coalesce(${alias}.online, 0)::bigint as gross_online, coalesce(${alias}.backend, 0)::bigint as gross_backend, coalesce(${alias}.app, 0)::bigint as gross_app`);
const grossByChannelOf = (r: Record<string, unknown>) => ({ ONLINE: int(r.gross_online), BACKEND: int(r.gross_backend), APP: int(r.gross_app) });

/** Per event of a tenant: every event that was ever public, with its paid orders' figures (the rollup). */
function eventSalesTable(scope: Scope): SQL {
  return sql`(select e.id, e.name, e.status, e.start_date_time, e.created_at,
      coalesce(st.gross, 0)::bigint as gross_sales, coalesce(st.net, 0)::bigint as net_sales, coalesce(st.tickets_sold, 0)::bigint as tickets_sold,
      coalesce(st.complimentary, 0)::bigint as complimentary, ${channelGrossColumns('ct')}
    from events e left join event_sales_totals st on st.tenant_id = e.tenant_id and st.event_id = e.id
      left join (${channelGrossBy(sql`tenant_id, event_id`)}) ct on ct.tenant_id = e.tenant_id and ct.event_id = e.id
    where ${scopeWhere(scope, 'e.tenant_id', 'e.id')} and e.published_at is not null) es`;
}

export const EVENT_SALES: ReportSource<TEventSalesRow> = {
  kind: 'event-list',
  fileName: 'event-sales',
  spec: {
    fields: {
      'details.eventName': text('es.name'),
      'details.status': exact('es.status'),
      'details.grossSales': number('es.gross_sales'),
      'details.netSales': number('es.net_sales'),
      'details.ticketsSold': number('es.tickets_sold'),
      'details.startDateTime': { expr: sql`coalesce(es.start_date_time, 'infinity'::timestamptz)`, type: 'timestamp' },
      'details.dateCreated': stamp('es.created_at'),
    },
    id: col('es.id'),
    defaultSort: '-details.dateCreated',
  },
  base: (scope) => ({ select: sql`es.*`, from: eventSalesTable(scope), where: sql`true` }),
  map: (r) => ({
    id: str(r.id),
    details: {
      eventName: str(r.name),
      grossSales: int(r.gross_sales),
      netSales: int(r.net_sales),
      ticketsSold: int(r.tickets_sold),
      status: str(r.status),
      startDateTime: r.start_date_time ? iso(r.start_date_time) : null,
      complimentaryTickets: int(r.complimentary),
      grossSalesByChannel: grossByChannelOf(r),
    },
  }),
  csv: [
    { header: 'Event Name', value: (e) => e.details.eventName, sql: textSql('es.name') },
    { header: 'Gross Sales', value: (e) => e.details.grossSales, money: true, sql: moneySql('es.gross_sales') },
    { header: 'Net Revenue', value: (e) => e.details.netSales, money: true, sql: moneySql('es.net_sales') },
    { header: '# Tickets Sold', value: (e) => e.details.ticketsSold, sql: numberSql('es.tickets_sold') },
    ...channelCsvColumns<TEventSalesRow>('es'),
  ],
};

/** Per live tenant: its paid orders' figures (Platform Sales, Taxes and Donations), from the rollup. */
function tenantSalesTable(): SQL {
  return sql`(select tn.id, tn.url, tn.name, tn.created_at,
      coalesce(st.gross, 0)::bigint as gross_sales, coalesce(st.net, 0)::bigint as net_sales, coalesce(st.tax, 0)::bigint as total_tax,
      coalesce(st.donations, 0)::bigint as total_donation, coalesce(st.donation_fees, 0)::bigint as total_donation_fee,
      coalesce(st.tickets_sold, 0)::bigint as tickets_sold, coalesce(st.complimentary, 0)::bigint as complimentary, ${channelGrossColumns('ct')}
    from tenants tn
    left join (select tenant_id, sum(gross) as gross, sum(net) as net, sum(tax) as tax, sum(donations) as donations,
        sum(donation_fees) as donation_fees, sum(tickets_sold) as tickets_sold, sum(complimentary) as complimentary
      from event_sales_totals group by tenant_id) st on st.tenant_id = tn.id
    left join (${channelGrossBy(sql`tenant_id`)}) ct on ct.tenant_id = tn.id
    where tn.deleted_at is null) ts`;
}

const tenantSalesMap = (r: Record<string, unknown>): TTenantSalesRow => ({
  id: str(r.id),
  details: {
    tenantURL: str(r.url),
    tenantName: str(r.name),
    ticketsSold: int(r.tickets_sold),
    grossSales: int(r.gross_sales),
    netSales: int(r.net_sales),
    totalTax: int(r.total_tax),
    totalDonation: int(r.total_donation),
    totalDonationFee: int(r.total_donation_fee),
    complimentaryTickets: int(r.complimentary),
    grossSalesByChannel: grossByChannelOf(r),
  },
});

const tenantSalesSpec: ListSpec = {
  fields: {
    'details.tenantURL': text('ts.url'),
    'details.tenantName': text('ts.name'),
    'details.ticketsSold': number('ts.tickets_sold'),
    'details.grossSales': number('ts.gross_sales'),
    'details.netSales': number('ts.net_sales'),
    'details.totalTax': number('ts.total_tax'),
    'details.totalDonation': number('ts.total_donation'),
    'details.totalDonationFee': number('ts.total_donation_fee'),
    'details.dateCreated': stamp('ts.created_at'),
  },
  id: col('ts.id'),
  defaultSort: '-details.grossSales',
};

const tenantSales = (kind: string, fileName: string, csv: Array<CsvColumn<TTenantSalesRow>>): ReportSource<TTenantSalesRow> => ({
  kind,
  fileName,
  spec: tenantSalesSpec,
  base: () => ({ select: sql`ts.*`, from: tenantSalesTable(), where: sql`true` }),
  map: tenantSalesMap,
  csv,
});

const tenantUrlColumn: CsvColumn<TTenantSalesRow> = { header: 'Tenant URL', value: (t) => t.details.tenantURL, sql: textSql('ts.url') };

export const TENANT_SALES = tenantSales('tenant-list', 'tenant-sales', [
  tenantUrlColumn,
  { header: '# Tickets Sold', value: (t) => t.details.ticketsSold, sql: numberSql('ts.tickets_sold') },
  { header: 'Gross Sales', value: (t) => t.details.grossSales, money: true, sql: moneySql('ts.gross_sales') },
  { header: 'Net Revenue', value: (t) => t.details.netSales, money: true, sql: moneySql('ts.net_sales') },
  ...channelCsvColumns<TTenantSalesRow>('ts'),
]);
export const TENANT_TAXES = tenantSales('taxes', 'taxes', [
  tenantUrlColumn,
  { header: 'Ticket Sold', value: (t) => t.details.ticketsSold, sql: numberSql('ts.tickets_sold') },
  { header: 'Gross sales', value: (t) => t.details.grossSales, money: true, sql: moneySql('ts.gross_sales') },
  { header: 'Net Revenue', value: (t) => t.details.netSales, money: true, sql: moneySql('ts.net_sales') },
  { header: 'Total Tax', value: (t) => t.details.totalTax, money: true, sql: moneySql('ts.total_tax') },
]);
export const TENANT_DONATIONS = tenantSales('donations', 'donations', [
  tenantUrlColumn,
  { header: 'Ticket Sold', value: (t) => t.details.ticketsSold, sql: numberSql('ts.tickets_sold') },
  { header: 'Gross sales', value: (t) => t.details.grossSales, money: true, sql: moneySql('ts.gross_sales') },
  { header: 'Net Revenue', value: (t) => t.details.netSales, money: true, sql: moneySql('ts.net_sales') },
  { header: 'Total Donation', value: (t) => t.details.totalDonation, money: true, sql: moneySql('ts.total_donation') },
  { header: 'Total Donation Fee', value: (t) => t.details.totalDonationFee, money: true, sql: moneySql('ts.total_donation_fee') },
]);

/**
 * Issue 23 "in every export": the gross by channel (the three sum to Gross Sales) and the comps,
 * which are never in the gross, after a sales export's own columns.
 */
function channelCsvColumns<Row extends { details: { complimentaryTickets: number; grossSalesByChannel: Record<'ONLINE' | 'BACKEND' | 'APP', number> } }>(
  alias: string,
): Array<CsvColumn<Row>> {
  return [
    { header: 'Online Gross Sales', value: (r) => r.details.grossSalesByChannel.ONLINE, money: true, sql: moneySql(`${alias}.gross_online`) },
    { header: 'Box Office Gross Sales', value: (r) => r.details.grossSalesByChannel.BACKEND, money: true, sql: moneySql(`${alias}.gross_backend`) },
    { header: 'App Gross Sales', value: (r) => r.details.grossSalesByChannel.APP, money: true, sql: moneySql(`${alias}.gross_app`) },
    { header: '# Complimentary Tickets', value: (r) => r.details.complimentaryTickets, sql: numberSql(`${alias}.complimentary`) },
  ];
}
