import { ticketStatusLabel, ticketUsedLabel, type TReportTicket } from '@marquee/core';
import { sql } from 'drizzle-orm';
import { isoSql, labelSql, moneySql, textSql } from './csv-sql.js';
import { type ReportSource, PAID, col, text, exact, number, stamp, onlyEquals, scopeWhere, iso, str, strOrNull, int, bool } from './report-source.js';

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
      t.created_at, t.event_id, t.seat_label, o.order_uid, o.channel, o.payment_method, e.name as event_name`,
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
      seat: strOrNull(r.seat_label),
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
    // Issue 27: last, so that the spec's columns keep their places.
    { header: 'Seat', value: (t) => t.details.seat ?? '', sql: textSql('t.seat_label') },
  ],
};
