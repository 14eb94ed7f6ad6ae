import { type SQL, sql } from 'drizzle-orm';
import { escapeCell } from './csv.js';
import { textSql } from './csv-sql.js';
import type { ReportSource } from './report-source.js';

// Issue 24: an event's tickets and orders exports carry one column per question (the event's
// questions in their order, then removed ones that have answers), headed by the question. The cell
// is the answer as people read it (order_answers.text, written with the answer); a ticket's row has
// its own answer to a per-ticket question and its order's to a per-order one; an order's row has
// its answer to a per-order question and its tickets' answers to a per-ticket one, joined by ' | '.
// The same SQL expression feeds the list path and COPY, so both writers give the same bytes.

export type ExportQuestion = { id: string; label: string; scope: string };

function cellOf(kind: 'tickets' | 'orders', q: ExportQuestion): SQL {
  const id = sql`${q.id}::uuid`;
  if (kind === 'tickets') {
    return q.scope === 'ticket'
      ? sql`(select a.text from order_answers a join order_attendees oa on oa.tenant_id = a.tenant_id and oa.order_id = a.order_id
          and a.slot = oa.ticket_type_id::text || ':' || oa.position
          where oa.tenant_id = t.tenant_id and oa.order_id = t.order_id and oa.ticket_id = t.id and a.question_id = ${id})`
      : sql`(select a.text from order_answers a where a.tenant_id = t.tenant_id and a.order_id = t.order_id and a.slot = '' and a.question_id = ${id})`;
  }
  return q.scope === 'ticket'
    ? sql`(select string_agg(nullif(a.text, ''), ' | ' order by a.slot) from order_answers a
        where a.tenant_id = o.tenant_id and a.order_id = o.id and a.slot <> '' and a.question_id = ${id})`
    : sql`(select a.text from order_answers a where a.tenant_id = o.tenant_id and a.order_id = o.id and a.slot = '' and a.question_id = ${id})`;
}

type WithAnswers = { answers: string[] };

export function withAnswerColumns<Out>(source: ReportSource<Out>, kind: 'tickets' | 'orders', questions: ExportQuestion[]): ReportSource<Out & WithAnswers> {
  if (questions.length === 0) return source as ReportSource<Out & WithAnswers>;
  const cells = questions.map((q) => cellOf(kind, q));
  return {
    ...source,
    base: (scope) => {
      const b = source.base(scope);
      return { ...b, select: sql`${b.select}, ${sql.join(cells.map((c, i) => sql`${c} as ${sql.raw(`answer_${i}`)}`), sql`, `)}` };
    },
    map: (r) => ({ ...source.map(r), answers: cells.map((_, i) => (r[`answer_${i}`] === null || r[`answer_${i}`] === undefined ? '' : String(r[`answer_${i}`]))) }),
    csv: [
      ...(source.csv as ReportSource<Out & WithAnswers>['csv']),
      ...questions.map((q, i) => ({ header: escapeCell(q.label), value: (row: Out & WithAnswers) => row.answers[i] ?? '', sql: textSql(sql`coalesce(${cells[i]!}, '')`) })),
    ],
  };
}
