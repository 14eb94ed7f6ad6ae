import { ORDER_FIND_FIELD, refundedLabel, type TReportOrder } from '@marquee/core';
import { sql } from 'drizzle-orm';
import { fullNameSql, isoSql, labelSql, moneySql, numberSql, textSql } from './csv-sql.js';
import { type ReportSource, PAID, col, text, exact, number, stamp, like, onlyEquals, scopeWhere, iso, str, strOrNull, int, fullName } from './report-source.js';

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
