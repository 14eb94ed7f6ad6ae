import { refundStatusLabel, type TReportRefund } from '@marquee/core';
import { sql } from 'drizzle-orm';
import { fullNameSql, isoSql, moneySql, refundStatusSql, textSql } from './csv-sql.js';
import { type ReportSource, PAID, col, text, exact, number, stamp, like, onlyEquals, scopeWhere, iso, str, strOrNull, int, fullName } from './report-source.js';

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
