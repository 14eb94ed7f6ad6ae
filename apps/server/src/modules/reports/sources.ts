import {
  COUNTED_REFUND_STATUS,
  ORDER_FIND_FIELD,
  PAID_ORDER_STATUSES,
  refundStatusLabel,
  refundedLabel,
  ticketStatusLabel,
  ticketUsedLabel,
  type TEventSalesRow,
  type TReportOrder,
  type TReportRefund,
  type TReportSubscriber,
  type TReportTicket,
  type TTenantSalesRow,
} from '@marquee/core';
import { type SQL, sql } from 'drizzle-orm';
import type { ListField, ListSpec } from '../../platform/list-query.js';
import { badRequest } from '../../platform/errors.js';
import { fullNameSql, isoSql, labelSql, moneySql, numberSql, refundStatusSql, textSql } from './csv-sql.js';

// Every report as one definition: the rows it reads (tenant-scoped, paid orders only), the fields
// its list can be filtered and sorted on, the wire shape (spec reports-payouts-checkout §3) and the
// CSV columns read from that wire shape, so the list, the export and the dashboard cannot disagree.
// The figures follow packages/core/src/reports/figures.ts (docs/reports.md).

/** Where a report reads: one tenant, optionally one event; platform reports read every tenant. */
export type Scope = { tenantId: string; eventId?: string } | { platform: true };

/**
 * One CSV column: `value` reads the wire shape (csv.ts writes it); `sql` is the same cell computed by
 * PostgreSQL over the report's tables (csv-sql.ts, for the COPY export), equal byte for byte.
 */
export type CsvColumn<Out> = { header: string; value: (row: Out) => string | number; money?: boolean; sql: SQL };

export type ReportSource<Out> = {
  kind: string;
  spec: ListSpec;
  /** `select … from … where <scope>`, without filters, order or limit; exposes the columns `map` reads. */
  base: (scope: Scope) => { select: SQL; from: SQL; where: SQL };
  map: (row: Record<string, unknown>) => Out;
  csv: Array<CsvColumn<Out>>;
  fileName: string;
};

export const PAID = sql.raw(`(${PAID_ORDER_STATUSES.map((s) => `'${s}'`).join(', ')})`);
export const COUNTED = sql.raw(`'${COUNTED_REFUND_STATUS}'`);

const col = (text: string) => sql.raw(text);
const text = (expr: string, extra: Partial<ListField> = {}): ListField => ({ expr: col(expr), type: 'text', match: 'contains', ...extra });
const exact = (expr: string): ListField => ({ expr: col(expr), type: 'text', match: 'exact' });
const number = (expr: string): ListField => ({ expr: col(expr), type: 'number' });
const stamp = (expr: string): ListField => ({ expr: col(expr), type: 'timestamp' });

const like = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const onlyEquals = (field: string, op: string) => {
  if (op !== '=') throw badRequest(`Filtering on ${field} takes '=' only.`);
};

function scopeWhere(scope: Scope, tenantCol: string, eventCol: string): SQL {
  if ('platform' in scope) return sql`true`;
  const tenant = sql`${col(tenantCol)} = ${scope.tenantId}::uuid`;
  return scope.eventId ? sql`${tenant} and ${col(eventCol)} = ${scope.eventId}::uuid` : tenant;
}

export const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const int = (v: unknown): number => Number(v ?? 0);
const bool = (v: unknown): boolean => v === true || v === 't' || v === 'true';
const fullName = (first: unknown, last: unknown) => [str(first), str(last)].filter(Boolean).join(' ');

// ---- order sums, the one place each figure is written in SQL -----------------------------------

/**
 * Per paid order, the order's figures (docs/reports.md); `o` is orders. The ticket counts and the
 * succeeded refunds are the order's own columns, kept by database triggers (migration 0006), and
 * event_sales_totals is the sum of these per event, kept by the same triggers.
 */
export const ORDER_FIGURES = {
  gross: 'o.total_amount',
  net: '(o.tenant_total - o.refunds_succeeded_tenant)',
  serviceFees: 'o.surcharge',
  processingFees: 'o.processing_fee',
  tax: 'o.vat',
  donations: 'o.donation',
  donationFees: 'o.donation_fee',
  discounts: 'o.discount',
  refunds: 'o.refunds_succeeded',
  ticketsSold: 'o.tickets_sold',
  complimentary: 'o.tickets_complimentary',
  used: 'o.tickets_used',
} as const;

// ---- orders ------------------------------------------------------------------------------------

/**
 * The "find an order" box (issue 8): an order id or ticket id exactly, the start of an e-mail, of the
 * full name or of the last name, or a phone number (its digits, with or without the +1). Each branch
 * is an indexed lookup (migration 0006_reports), so it stays fast on a tenant with 200,000 orders.
 */
const ORDER_SEARCH = (value: string) => {
  const v = value.trim();
  const prefix = `${v.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const digits = v.replace(/\D/g, '');
  const phones = digits.length >= 7 ? [`+${digits}`, `+1${digits}`] : [];
  return sql`(o.order_uid = ${v.toUpperCase()}
    or o.id = any(array(select t.order_id from tickets t where t.ticket_uid = ${v}))
    or lower(o.email) like ${prefix}
    or lower(o.first_name || ' ' || o.last_name) like ${prefix}
    or lower(o.last_name) like ${prefix}
    or o.phone = any(${`{${phones.join(',')}}`}::text[]))`;
};

export const ORDERS: ReportSource<TReportOrder> = {
  kind: 'orders',
  fileName: 'orders',
  spec: {
    fields: {
      'details.dateCreated': stamp('o.created_at'),
      'details.orderUID': text('o.order_uid'),
      'details.fullName': text(`(o.first_name || ' ' || o.last_name)`),
      'details.email': text('o.email'),
      'details.phone': text(`coalesce(o.phone, '')`),
      'details.ticketId': {
        ...text('o.id'),
        sortable: false,
        where: (v) => sql`exists (select 1 from tickets t where t.tenant_id = o.tenant_id and t.order_id = o.id and t.ticket_uid ilike ${like(v)})`,
      },
      'details.paymentMethod': {
        ...exact(`coalesce(o.payment_method, '')`),
        // spec §5: the payment-method search is lowercased; stored methods are lower-case too.
        where: (v, op) => (onlyEquals('details.paymentMethod', op), sql`lower(coalesce(o.payment_method, '')) = ${v.toLowerCase()}`),
      },
      'details.status': exact('o.status'),
      // Issue 23: where it was sold (ONLINE, BACKEND, APP).
      'details.channel': { ...exact('o.channel'), where: (v, op) => (onlyEquals('details.channel', op), sql`o.channel = ${v.toUpperCase()}`) },
      'details.eventId': { ...exact('o.event_id::text'), where: (v, op) => (onlyEquals('details.eventId', op), sql`o.event_id::text = ${v.toLowerCase()}`) },
      'details.eventName': text('e.name'),
      'details.refunded': { expr: sql`(o.refunds_succeeded > 0)`, type: 'boolean' },
      'details.ticketCount': number('o.ticket_count'),
      'details.totalAmount': number('o.total_amount'),
      [ORDER_FIND_FIELD]: { ...text('o.id'), sortable: false, where: (v, op) => (onlyEquals(ORDER_FIND_FIELD, op), ORDER_SEARCH(v)) },
    },
    id: col('o.id'),
    defaultSort: '-details.dateCreated',
  },
  base: (scope) => ({
    select: sql`o.id, o.order_uid, o.created_at, o.first_name, o.last_name, o.email, o.phone, o.ticket_count, o.payment_method,
      o.source, o.channel, o.total_amount, o.user_id, o.tenant_id, o.event_id, o.charge_id, o.status, o.address1, o.address2, o.city, o.state,
      o.zip_code, o.country, o.subtotal, o.surcharge, o.processing_fee, o.gateway_processing_fee, o.discount, o.discount_code, o.vat,
      o.tax_rate, o.donation, o.donation_fee, e.name as event_name, o.refunds_succeeded as refunded_amount`,
    from: sql`orders o join events e on e.tenant_id = o.tenant_id and e.id = o.event_id`,
    where: sql`${scopeWhere(scope, 'o.tenant_id', 'o.event_id')} and o.status in ${PAID}`,
  }),
  map: (r) => {
    const refundedAmount = int(r.refunded_amount);
    const name = fullName(r.first_name, r.last_name);
    return {
      id: str(r.id),
      details: {
        orderUID: str(r.order_uid),
        dateCreated: iso(r.created_at),
        fullName: name,
        name,
        email: str(r.email),
        phone: strOrNull(r.phone),
        ticketCount: int(r.ticket_count),
        paymentMethod: str(r.payment_method).toLowerCase(),
        paymentSource: str(r.source),
        channel: str(r.channel),
        grossAmount: int(r.total_amount),
        refunded: refundedAmount > 0,
        refundedAmount,
        user: strOrNull(r.user_id),
        tenantId: str(r.tenant_id),
        eventId: str(r.event_id),
        eventName: str(r.event_name),
        chargeId: strOrNull(r.charge_id),
        status: str(r.status),
        firstName: str(r.first_name),
        lastName: str(r.last_name),
        address1: strOrNull(r.address1),
        address2: strOrNull(r.address2),
        city: strOrNull(r.city),
        state: strOrNull(r.state),
        zipCode: strOrNull(r.zip_code),
        country: strOrNull(r.country),
        subtotal: int(r.subtotal),
        surcharge: int(r.surcharge),
        processingFee: int(r.processing_fee),
        gatewayProcessingFee: int(r.gateway_processing_fee),
        discount: int(r.discount),
        discountCode: strOrNull(r.discount_code),
        vat: int(r.vat),
        taxRate: int(r.tax_rate),
        donation: int(r.donation),
        donationFee: int(r.donation_fee),
        totalAmount: int(r.total_amount),
      },
    };
  },
  // spec §2 Orders list columns, then the order's money so that every dashboard card is a column sum.
  csv: [
    { header: 'Date', value: (o) => o.details.dateCreated, sql: isoSql('o.created_at') },
    { header: 'Order ID', value: (o) => o.details.orderUID, sql: textSql('o.order_uid') },
    { header: 'Event Name', value: (o) => o.details.eventName, sql: textSql('e.name') },
    { header: 'Name', value: (o) => o.details.fullName, sql: textSql(fullNameSql('o.first_name', 'o.last_name')) },
    { header: 'Email', value: (o) => o.details.email, sql: textSql('o.email') },
    { header: 'Phone number', value: (o) => o.details.phone ?? '', sql: textSql('o.phone') },
    { header: '# Tickets', value: (o) => o.details.ticketCount, sql: numberSql('o.ticket_count') },
    { header: 'Payment Method', value: (o) => o.details.paymentMethod, sql: textSql('lower(o.payment_method)') },
    { header: 'Channel', value: (o) => o.details.channel, sql: textSql('o.channel') },
    { header: 'Total', value: (o) => o.details.totalAmount, money: true, sql: moneySql('o.total_amount') },
    { header: 'Refunded', value: (o) => refundedLabel(o.details.refunded), sql: labelSql('o.refunds_succeeded > 0', refundedLabel(true), refundedLabel(false)) },
    { header: 'Refunded Amount', value: (o) => o.details.refundedAmount, money: true, sql: moneySql('o.refunds_succeeded') },
    { header: 'Subtotal', value: (o) => o.details.subtotal, money: true, sql: moneySql('o.subtotal') },
    { header: 'Discount', value: (o) => o.details.discount, money: true, sql: moneySql('o.discount') },
    { header: 'Discount Code', value: (o) => o.details.discountCode ?? '', sql: textSql('o.discount_code') },
    { header: 'Service Fee', value: (o) => o.details.surcharge, money: true, sql: moneySql('o.surcharge') },
    { header: 'Processing Fee', value: (o) => o.details.processingFee, money: true, sql: moneySql('o.processing_fee') },
    { header: 'Tax', value: (o) => o.details.vat, money: true, sql: moneySql('o.vat') },
    { header: 'Donation', value: (o) => o.details.donation, money: true, sql: moneySql('o.donation') },
    { header: 'Donation Fee', value: (o) => o.details.donationFee, money: true, sql: moneySql('o.donation_fee') },
    { header: 'Status', value: (o) => o.details.status, sql: textSql('o.status') },
  ],
};

// ---- tickets -----------------------------------------------------------------------------------

export const TICKETS: ReportSource<TReportTicket> = {
  kind: 'tickets',
  fileName: 'tickets',
  spec: {
    fields: {
      'details.dateCreated': stamp('t.created_at'),
      'details.ticketId': text('t.ticket_uid'),
      'details.orderId': text('o.order_uid'),
      'details.fullName': text('t.full_name'),
      'details.email': text('t.email'),
      'details.contactNumber': text(`coalesce(t.contact_number, '')`),
      'details.ticketTypeName': text('t.ticket_type_name'),
      'details.ticketPrice': number('t.price'),
      'details.used': { expr: col('t.used'), type: 'boolean' },
      'details.vioded': { expr: col('t.voided'), type: 'boolean' },
      'details.eventId': { ...exact('t.event_id::text'), where: (v, op) => (onlyEquals('details.eventId', op), sql`t.event_id::text = ${v.toLowerCase()}`) },
      'details.eventName': text('e.name'),
      // Issue 23: the order's channel and payment method.
      'details.channel': { ...exact('o.channel'), where: (v, op) => (onlyEquals('details.channel', op), sql`o.channel = ${v.toUpperCase()}`) },
      'details.paymentMethod': {
        ...exact(`coalesce(o.payment_method, '')`),
        where: (v, op) => (onlyEquals('details.paymentMethod', op), sql`lower(coalesce(o.payment_method, '')) = ${v.toLowerCase()}`),
      },
    },
    id: col('t.id'),
    defaultSort: '-details.dateCreated',
  },
  base: (scope) => ({
    select: sql`t.id, t.ticket_uid, t.full_name, t.email, t.contact_number, t.ticket_type_name, t.price, t.used, t.voided,
      t.created_at, t.event_id, o.order_uid, o.channel, o.payment_method, e.name as event_name`,
    from: sql`tickets t join orders o on o.tenant_id = t.tenant_id and o.id = t.order_id join events e on e.tenant_id = t.tenant_id and e.id = t.event_id`,
    // The order's scope repeated, so that the planner reads the event's orders, not the tenant's.
    where: sql`${scopeWhere(scope, 't.tenant_id', 't.event_id')} and ${scopeWhere(scope, 'o.tenant_id', 'o.event_id')} and o.status in ${PAID}`,
  }),
  map: (r) => ({
    id: str(r.id),
    details: {
      ticketId: str(r.ticket_uid),
      orderId: str(r.order_uid),
      fullName: str(r.full_name),
      email: str(r.email),
      contactNumber: strOrNull(r.contact_number),
      ticketTypeName: str(r.ticket_type_name),
      ticketPrice: int(r.price),
      used: bool(r.used),
      vioded: bool(r.voided),
      dateCreated: iso(r.created_at),
      ticketUID: str(r.ticket_uid),
      eventId: str(r.event_id),
      eventName: str(r.event_name),
      channel: str(r.channel),
      paymentMethod: str(r.payment_method).toLowerCase(),
    },
  }),
  csv: [
    { header: 'Date', value: (t) => t.details.dateCreated, sql: isoSql('t.created_at') },
    { header: 'Ticket ID', value: (t) => t.details.ticketId, sql: textSql('t.ticket_uid') },
    { header: 'Order ID', value: (t) => t.details.orderId, sql: textSql('o.order_uid') },
    { header: 'Name', value: (t) => t.details.fullName, sql: textSql('t.full_name') },
    { header: 'Email', value: (t) => t.details.email, sql: textSql('t.email') },
    { header: 'Phone number', value: (t) => t.details.contactNumber ?? '', sql: textSql('t.contact_number') },
    { header: 'Ticket Type', value: (t) => t.details.ticketTypeName, sql: textSql('t.ticket_type_name') },
    { header: 'Ticket Price', value: (t) => t.details.ticketPrice, money: true, sql: moneySql('t.price') },
    { header: 'Ticket Used', value: (t) => ticketUsedLabel(t.details.used), sql: labelSql('t.used', ticketUsedLabel(true), ticketUsedLabel(false)) },
    { header: 'Status', value: (t) => ticketStatusLabel(t.details.vioded), sql: labelSql('t.voided', ticketStatusLabel(true), ticketStatusLabel(false)) },
    { header: 'Channel', value: (t) => t.details.channel, sql: textSql('o.channel') },
    { header: 'Payment Method', value: (t) => t.details.paymentMethod, sql: textSql('lower(o.payment_method)') },
  ],
};

// ---- refunds -----------------------------------------------------------------------------------

const REFUND_TICKET_UIDS = 'array(select t.ticket_uid from tickets t where t.tenant_id = r.tenant_id and t.id = any(r.ticket_ids) order by t.ticket_uid)';

export const REFUNDS: ReportSource<TReportRefund> = {
  kind: 'refunds',
  fileName: 'refunds',
  spec: {
    fields: {
      'details.transactionDate': stamp('r.created_at'),
      'details.orderUID': text('o.order_uid'),
      'details.chargeId': text(`coalesce(r.charge_id, o.charge_id, '')`),
      'details.eventName': text('e.name'),
      'details.fullName': text(`(o.first_name || ' ' || o.last_name)`),
      'details.userId': text('o.email'),
      'details.phone': text(`coalesce(o.phone, '')`),
      'details.ticketId': {
        ...text('r.id'),
        sortable: false,
        where: (v) =>
          sql`exists (select 1 from tickets t where t.tenant_id = r.tenant_id and t.id = any(r.ticket_ids) and t.ticket_uid ilike ${like(v)})`,
      },
      // spec §5: the status search arrives lowercased with its first space as '_' (refundStatusSearchValue).
      'details.status': { ...exact('r.status'), where: (v, op) => (onlyEquals('details.status', op), sql`r.status = ${v.toLowerCase()}`) },
      'details.refundAmount': number('r.amount'),
      'details.eventId': { ...exact('r.event_id::text'), where: (v, op) => (onlyEquals('details.eventId', op), sql`r.event_id::text = ${v.toLowerCase()}`) },
    },
    id: col('r.id'),
    defaultSort: '-details.transactionDate',
  },
  base: (scope) => ({
    select: sql`r.id, r.amount, r.status, r.reason, r.created_at, r.event_id, coalesce(r.charge_id, o.charge_id) as charge_id,
      o.order_uid, o.first_name, o.last_name, o.email, o.phone, e.name as event_name,
      ${sql.raw(REFUND_TICKET_UIDS)} as ticket_uids`,
    from: sql`refunds r join orders o on o.tenant_id = r.tenant_id and o.id = r.order_id join events e on e.tenant_id = r.tenant_id and e.id = r.event_id`,
    where: sql`${scopeWhere(scope, 'r.tenant_id', 'r.event_id')} and ${scopeWhere(scope, 'o.tenant_id', 'o.event_id')} and o.status in ${PAID}`,
  }),
  map: (r) => ({
    id: str(r.id),
    details: {
      orderUID: str(r.order_uid),
      chargeId: strOrNull(r.charge_id),
      eventId: str(r.event_id),
      eventName: str(r.event_name),
      fullName: fullName(r.first_name, r.last_name),
      userId: str(r.email),
      phone: strOrNull(r.phone),
      ticketIds: pgArray(r.ticket_uids),
      status: str(r.status),
      refundAmount: int(r.amount),
      refundReason: str(r.reason),
      transactionDate: iso(r.created_at),
    },
  }),
  csv: [
    { header: 'Refund Date', value: (r) => r.details.transactionDate, sql: isoSql('r.created_at') },
    { header: 'Order ID', value: (r) => r.details.orderUID, sql: textSql('o.order_uid') },
    { header: 'Payment ID', value: (r) => r.details.chargeId ?? '', sql: textSql('coalesce(r.charge_id, o.charge_id)') },
    { header: 'Event Name', value: (r) => r.details.eventName, sql: textSql('e.name') },
    { header: 'Name', value: (r) => r.details.fullName, sql: textSql(fullNameSql('o.first_name', 'o.last_name')) },
    { header: 'Email', value: (r) => r.details.userId, sql: textSql('o.email') },
    { header: 'Phone Number', value: (r) => r.details.phone ?? '', sql: textSql('o.phone') },
    { header: 'Status', value: (r) => refundStatusLabel(r.details.status), sql: textSql(refundStatusSql('r.status')) },
    { header: 'Refund Amount', value: (r) => r.details.refundAmount, money: true, sql: moneySql('r.amount') },
    { header: 'Reason', value: (r) => r.details.refundReason, sql: textSql('r.reason') },
    { header: 'Ticket IDs', value: (r) => r.details.ticketIds.join(' '), sql: textSql(`array_to_string(${REFUND_TICKET_UIDS}, ' ')`) },
  ],
};

/** A text[] as the driver gives it: an array (pg, PGlite) or its literal. */
function pgArray(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string' && v.startsWith('{')) return v.slice(1, -1).split(',').filter(Boolean);
  return [];
}

// ---- subscribers -------------------------------------------------------------------------------

export const SUBSCRIBERS: ReportSource<TReportSubscriber> = {
  kind: 'subscribers',
  fileName: 'subscribers',
  spec: {
    fields: {
      'details.timestamp': stamp('s.created_at'),
      'details.email': text('s.email'),
      'details.eventName': text('e.name'),
      'details.eventId': { ...exact('s.event_id::text'), where: (v, op) => (onlyEquals('details.eventId', op), sql`s.event_id::text = ${v.toLowerCase()}`) },
    },
    id: col('s.id'),
    defaultSort: '-details.timestamp',
  },
  base: (scope) => ({
    select: sql`s.id, s.email, s.created_at, s.event_id, e.name as event_name, s.opt_in_email, s.opt_in_text, s.phone`,
    from: sql`subscribers s join events e on e.tenant_id = s.tenant_id and e.id = s.event_id`,
    where: scopeWhere(scope, 's.tenant_id', 's.event_id'),
  }),
  map: (r) => ({
    id: str(r.id),
    details: {
      sk: str(r.id),
      email: str(r.email),
      timestamp: new Date(iso(r.created_at)).getTime(),
      eventName: str(r.event_name),
      eventId: str(r.event_id),
      optInEmail: bool(r.opt_in_email),
      optInText: bool(r.opt_in_text),
      phone: bool(r.opt_in_text) ? strOrNull(r.phone) : null,
    },
  }),
  csv: [
    { header: 'Subscription Date', value: (s) => new Date(s.details.timestamp).toISOString(), sql: isoSql('s.created_at') },
    { header: 'Subscription Email', value: (s) => s.details.email, sql: textSql('s.email') },
    { header: 'Event Name', value: (s) => s.details.eventName, sql: textSql('e.name') },
    // Issue 21: the checkout's two opt-ins.
    { header: 'Email Updates', value: (s) => (s.details.optInEmail ? 'Yes' : 'No'), sql: textSql(`case when s.opt_in_email then 'Yes' else 'No' end`) },
    { header: 'Text Messages', value: (s) => (s.details.optInText ? 'Yes' : 'No'), sql: textSql(`case when s.opt_in_text then 'Yes' else 'No' end`) },
    { header: 'Mobile Number', value: (s) => s.details.phone ?? '', sql: textSql(`case when s.opt_in_text then coalesce(s.phone, '') else '' end`) },
  ],
};

// ---- sales rows (aggregates) ---------------------------------------------------------------------

/** Per event of a tenant: every event that was ever public, with its paid orders' figures (the rollup). */
function eventSalesTable(scope: Scope): SQL {
  return sql`(select e.id, e.name, e.status, e.start_date_time, e.created_at,
      coalesce(st.gross, 0)::bigint as gross_sales, coalesce(st.net, 0)::bigint as net_sales, coalesce(st.tickets_sold, 0)::bigint as tickets_sold
    from events e left join event_sales_totals st on st.tenant_id = e.tenant_id and st.event_id = e.id
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
    },
  }),
  csv: [
    { header: 'Event Name', value: (e) => e.details.eventName, sql: textSql('es.name') },
    { header: 'Gross Sales', value: (e) => e.details.grossSales, money: true, sql: moneySql('es.gross_sales') },
    { header: 'Net Revenue', value: (e) => e.details.netSales, money: true, sql: moneySql('es.net_sales') },
    { header: '# Tickets Sold', value: (e) => e.details.ticketsSold, sql: numberSql('es.tickets_sold') },
  ],
};

/** Per live tenant: its paid orders' figures (Platform Sales, Taxes and Donations), from the rollup. */
function tenantSalesTable(): SQL {
  return sql`(select tn.id, tn.url, tn.name, tn.created_at,
      coalesce(st.gross, 0)::bigint as gross_sales, coalesce(st.net, 0)::bigint as net_sales, coalesce(st.tax, 0)::bigint as total_tax,
      coalesce(st.donations, 0)::bigint as total_donation, coalesce(st.donation_fees, 0)::bigint as total_donation_fee,
      coalesce(st.tickets_sold, 0)::bigint as tickets_sold
    from tenants tn
    left join (select tenant_id, sum(gross) as gross, sum(net) as net, sum(tax) as tax, sum(donations) as donations,
        sum(donation_fees) as donation_fees, sum(tickets_sold) as tickets_sold
      from event_sales_totals group by tenant_id) st on st.tenant_id = tn.id
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
