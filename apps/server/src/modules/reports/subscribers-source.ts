import type { TReportSubscriber } from '@marquee/core';
import { sql } from 'drizzle-orm';
import { isoSql, textSql } from './csv-sql.js';
import { type ReportSource, col, text, exact, stamp, onlyEquals, scopeWhere, iso, str, strOrNull, bool } from './report-source.js';

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
