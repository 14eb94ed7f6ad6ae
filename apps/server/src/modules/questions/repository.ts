import { answerText, type QuestionKind, type TAnswerValue } from '@marquee/core';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { eventAnswerSettings, eventQuestions, orderAnswers, orderAttendees, ticketTypeAttendeeFields, ticketTypes, tickets } from '../../db/schema/index.js';

// The only SQL of the questions module (issue 24). Every query filters on the tenant.

export type QuestionRow = typeof eventQuestions.$inferSelect;
export type QuestionInsert = typeof eventQuestions.$inferInsert;
export type AttendeeRow = typeof orderAttendees.$inferSelect;
export type AnswerRow = typeof orderAnswers.$inferSelect;

/** The event's questions still asked, in their order. */
export async function listQuestions(db: DbOrTx, tenantId: string, eventId: string): Promise<QuestionRow[]> {
  return db
    .select()
    .from(eventQuestions)
    .where(and(eq(eventQuestions.tenantId, tenantId), eq(eventQuestions.eventId, eventId), isNull(eventQuestions.removedAt)))
    .orderBy(asc(eventQuestions.sortOrder), asc(eventQuestions.createdAt));
}

export async function findQuestion(db: DbOrTx, tenantId: string, eventId: string, id: string): Promise<QuestionRow | undefined> {
  const [row] = await db
    .select()
    .from(eventQuestions)
    .where(and(eq(eventQuestions.tenantId, tenantId), eq(eventQuestions.eventId, eventId), eq(eventQuestions.id, id), isNull(eventQuestions.removedAt)));
  return row;
}

export async function answerCounts(db: DbOrTx, tenantId: string, eventId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ questionId: orderAnswers.questionId, n: sql<number>`count(*)::int` })
    .from(orderAnswers)
    .where(and(eq(orderAnswers.tenantId, tenantId), eq(orderAnswers.eventId, eventId)))
    .groupBy(orderAnswers.questionId);
  return new Map(rows.map((r) => [r.questionId, r.n]));
}

export async function insertQuestion(db: DbOrTx, values: QuestionInsert): Promise<QuestionRow> {
  const [row] = await db.insert(eventQuestions).values(values).returning();
  return row!;
}

export async function updateQuestion(db: DbOrTx, tenantId: string, id: string, set: Partial<QuestionInsert>): Promise<QuestionRow | undefined> {
  const [row] = await db
    .update(eventQuestions)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(eventQuestions.tenantId, tenantId), eq(eventQuestions.id, id), isNull(eventQuestions.removedAt)))
    .returning();
  return row;
}

export async function setSortOrders(db: DbOrTx, tenantId: string, eventId: string, ids: string[]) {
  await db.execute(sql`
    update event_questions q set sort_order = o.n, updated_at = now()
    from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) with ordinality as o(id, n)
    where q.tenant_id = ${tenantId} and q.event_id = ${eventId} and q.id = o.id::uuid and q.removed_at is null`);
}

/** The event's ticket types with their attendee fields (off when never set). */
export async function attendeeFields(db: DbOrTx, tenantId: string, eventId: string) {
  return db
    .select({
      ticketTypeId: ticketTypes.id,
      name: ticketTypes.name,
      askName: sql<string>`coalesce(${ticketTypeAttendeeFields.askName}, 'off')`,
      askEmail: sql<string>`coalesce(${ticketTypeAttendeeFields.askEmail}, 'off')`,
    })
    .from(ticketTypes)
    .leftJoin(ticketTypeAttendeeFields, and(eq(ticketTypeAttendeeFields.tenantId, ticketTypes.tenantId), eq(ticketTypeAttendeeFields.ticketTypeId, ticketTypes.id)))
    .where(and(eq(ticketTypes.tenantId, tenantId), eq(ticketTypes.eventId, eventId)))
    .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.createdAt));
}

export async function upsertAttendeeFields(db: DbOrTx, rows: Array<typeof ticketTypeAttendeeFields.$inferInsert>) {
  if (rows.length === 0) return;
  await db
    .insert(ticketTypeAttendeeFields)
    .values(rows)
    .onConflictDoUpdate({
      target: [ticketTypeAttendeeFields.tenantId, ticketTypeAttendeeFields.ticketTypeId],
      set: { askName: sql`excluded.ask_name`, askEmail: sql`excluded.ask_email` },
    });
}

export async function findDeadline(db: DbOrTx, tenantId: string, eventId: string): Promise<Date | null> {
  const [row] = await db
    .select({ d: eventAnswerSettings.answersDeadline })
    .from(eventAnswerSettings)
    .where(and(eq(eventAnswerSettings.tenantId, tenantId), eq(eventAnswerSettings.eventId, eventId)));
  return row?.d ?? null;
}

export async function setDeadline(db: DbOrTx, tenantId: string, eventId: string, deadline: Date | null) {
  await db
    .insert(eventAnswerSettings)
    .values({ tenantId, eventId, answersDeadline: deadline })
    .onConflictDoUpdate({ target: [eventAnswerSettings.tenantId, eventAnswerSettings.eventId], set: { answersDeadline: deadline } });
}

export const slotOf = (ticketTypeId: string, position: number) => `${ticketTypeId}:${position}`;

/** Replaces an order's attendees and answers (PLACE ORDER, an edit), keeping each attendee's ticket. */
export async function replaceOrderAnswers(
  db: DbOrTx,
  p: {
    tenantId: string;
    eventId: string;
    orderId: string;
    attendees: Array<{ ticketTypeId: string; position: number; fullName: string; email: string }>;
    answers: Array<{ questionId: string; slot: string; label: string; kind: string; value: unknown }>;
    /** The questions asked now: their earlier answers are replaced; answers to questions removed since stay. */
    askedIds: string[];
  },
) {
  await deleteAnswersOf(db, p.tenantId, p.orderId, p.askedIds);
  if (p.answers.length) {
    await db.insert(orderAnswers).values(
      p.answers.map((a) => ({
        tenantId: p.tenantId,
        orderId: p.orderId,
        eventId: p.eventId,
        questionId: a.questionId,
        slot: a.slot,
        label: a.label,
        kind: a.kind,
        value: JSON.stringify(a.value),
        text: answerText(a.kind as QuestionKind, a.value as TAnswerValue),
      })),
    );
  }
  if (p.attendees.length) {
    await db
      .insert(orderAttendees)
      .values(p.attendees.map((a) => ({ tenantId: p.tenantId, orderId: p.orderId, eventId: p.eventId, ...a })))
      .onConflictDoUpdate({
        target: [orderAttendees.tenantId, orderAttendees.orderId, orderAttendees.ticketTypeId, orderAttendees.position],
        set: { fullName: sql`excluded.full_name`, email: sql`excluded.email`, updatedAt: sql`now()` },
      });
  }
}

/**
 * PLACE ORDER's write, one statement: the attendees and the answers of draft orders just held (one
 * order, or a rush's batch of one event: order-answers.ts recordNewOrderAnswers). Kept to one round
 * trip so that asking questions costs the sale next to nothing (bench/flash-sale.ts).
 */
export async function insertNewOrderAnswers(
  db: DbOrTx,
  p: {
    tenantId: string;
    eventId: string;
    orders: Array<{
      orderId: string;
      attendees: Array<{ ticketTypeId: string; position: number; fullName: string; email: string }>;
      answers: Array<{ questionId: string; slot: string; label: string; kind: string; value: unknown }>;
    }>;
  },
) {
  const attendees = JSON.stringify(p.orders.flatMap((o) => o.attendees.map((a) => ({ ...a, orderId: o.orderId }))));
  const answers = JSON.stringify(
    p.orders.flatMap((o) => o.answers.map((a) => ({ ...a, orderId: o.orderId, value: JSON.stringify(a.value), text: answerText(a.kind as QuestionKind, a.value as TAnswerValue) }))),
  );
  await db.execute(sql`
    with a as (
      insert into order_attendees (tenant_id, order_id, event_id, ticket_type_id, position, full_name, email)
      select ${p.tenantId}::uuid, x."orderId", ${p.eventId}::uuid, x."ticketTypeId", x.position, x."fullName", x.email
      from jsonb_to_recordset(${attendees}::jsonb) as x("orderId" uuid, "ticketTypeId" uuid, position int, "fullName" text, email text)
      returning 1
    )
    insert into order_answers (tenant_id, order_id, event_id, question_id, slot, label, kind, value, text)
    select ${p.tenantId}::uuid, x."orderId", ${p.eventId}::uuid, x."questionId", x.slot, x.label, x.kind, x.value, x.text
    from jsonb_to_recordset(${answers}::jsonb) as x("orderId" uuid, "questionId" uuid, slot text, label text, kind text, value text, text text)`);
}

export async function attendeesOf(db: DbOrTx, tenantId: string, orderId: string): Promise<AttendeeRow[]> {
  return db
    .select()
    .from(orderAttendees)
    .where(and(eq(orderAttendees.tenantId, tenantId), eq(orderAttendees.orderId, orderId)))
    .orderBy(asc(orderAttendees.ticketTypeId), asc(orderAttendees.position));
}

export async function answersOf(db: DbOrTx, tenantId: string, orderId: string): Promise<AnswerRow[]> {
  return db.select().from(orderAnswers).where(and(eq(orderAnswers.tenantId, tenantId), eq(orderAnswers.orderId, orderId)));
}

/** The order's tickets (to tie attendees to them, and to carry edited names onto them). */
export async function ticketsOf(db: DbOrTx, tenantId: string, orderId: string) {
  return db
    .select({ id: tickets.id, ticketUid: tickets.ticketUid, ticketTypeId: tickets.ticketTypeId, ticketTypeName: tickets.ticketTypeName, fullName: tickets.fullName, email: tickets.email, createdAt: tickets.createdAt })
    .from(tickets)
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId)))
    .orderBy(asc(tickets.createdAt), asc(tickets.id));
}

export async function setAttendeeTicket(db: DbOrTx, p: { tenantId: string; orderId: string; ticketTypeId: string; position: number; ticketId: string }) {
  await db
    .update(orderAttendees)
    .set({ ticketId: p.ticketId })
    .where(
      and(
        eq(orderAttendees.tenantId, p.tenantId),
        eq(orderAttendees.orderId, p.orderId),
        eq(orderAttendees.ticketTypeId, p.ticketTypeId),
        eq(orderAttendees.position, p.position),
      ),
    );
}

export async function setTicketHolder(db: DbOrTx, p: { tenantId: string; ticketId: string; fullName: string; email: string }) {
  await db.update(tickets).set({ fullName: p.fullName, email: p.email }).where(and(eq(tickets.tenantId, p.tenantId), eq(tickets.id, p.ticketId)));
}

/** Per question of the event (removed ones too, when answered): the answers of paid orders. */
export async function answersForReport(db: DbOrTx, tenantId: string, eventId: string) {
  const rows = await db.execute(sql`
    select a.question_id, a.kind, a.value, count(*)::int as n
    from order_answers a
    join orders o on o.tenant_id = a.tenant_id and o.id = a.order_id
    where a.tenant_id = ${tenantId} and a.event_id = ${eventId} and o.paid_at is not null and o.status in ('processing', 'completed')
    group by a.question_id, a.kind, a.value`);
  return (rows as unknown as { rows: Array<{ question_id: string; kind: string; value: string; n: number }> }).rows;
}

export async function allQuestions(db: DbOrTx, tenantId: string, eventId: string, ids: string[]): Promise<QuestionRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(eventQuestions)
    .where(and(eq(eventQuestions.tenantId, tenantId), eq(eventQuestions.eventId, eventId), inArray(eventQuestions.id, ids)));
}

/** The order, locked first (docs/architecture.md lock order 1); its attendees and answers are written under it. */
export async function lockOrder(db: DbOrTx, tenantId: string, p: { orderId?: string; orderUid?: string; eventId?: string }) {
  const res = (await db.execute(sql`
    select id, order_uid as "orderUid", event_id as "eventId", status, email, first_name as "firstName", last_name as "lastName"
    from orders
    where tenant_id = ${tenantId}
      and ${p.orderId ? sql`id = ${p.orderId}` : sql`order_uid = ${p.orderUid ?? ''}`}
      ${p.eventId ? sql`and event_id = ${p.eventId}` : sql``}
    for update`)) as unknown as { rows: Array<{ id: string; orderUid: string; eventId: string; status: string; email: string; firstName: string; lastName: string }> };
  return res.rows[0];
}

export async function findOrder(db: DbOrTx, tenantId: string, p: { orderUid: string; eventId: string }) {
  const res = (await db.execute(sql`
    select id, order_uid as "orderUid", event_id as "eventId", status, email, first_name as "firstName", last_name as "lastName"
    from orders where tenant_id = ${tenantId} and order_uid = ${p.orderUid} and event_id = ${p.eventId}`)) as unknown as {
    rows: Array<{ id: string; orderUid: string; eventId: string; status: string; email: string; firstName: string; lastName: string }>;
  };
  return res.rows[0];
}

/** The order's lines (ticket type and quantity), in the order the cart had them. */
export async function linesOf(db: DbOrTx, tenantId: string, orderId: string) {
  const res = (await db.execute(sql`
    select ticket_type_id as "ticketTypeId", ticket_name as "ticketName", quantity from order_lines
    where tenant_id = ${tenantId} and order_id = ${orderId} order by ticket_name, ticket_type_id`)) as unknown as {
    rows: Array<{ ticketTypeId: string; ticketName: string; quantity: number }>;
  };
  return res.rows;
}

/** Ties issued tickets to their attendees (one statement). */
export async function tieTickets(db: DbOrTx, tenantId: string, orderId: string, ties: Array<{ ticketTypeId: string; position: number; ticketId: string }>) {
  if (ties.length === 0) return;
  await db.execute(sql`
    update order_attendees a set ticket_id = x."ticketId"
    from jsonb_to_recordset(${JSON.stringify(ties)}::jsonb) as x("ticketTypeId" uuid, position int, "ticketId" uuid)
    where a.tenant_id = ${tenantId} and a.order_id = ${orderId} and a.ticket_type_id = x."ticketTypeId" and a.position = x.position`);
}

export async function deleteAnswersOf(db: DbOrTx, tenantId: string, orderId: string, questionIds: string[]) {
  if (questionIds.length === 0) return;
  await db.delete(orderAnswers).where(and(eq(orderAnswers.tenantId, tenantId), eq(orderAnswers.orderId, orderId), inArray(orderAnswers.questionId, questionIds)));
}

/** What the checkout asks, in one round trip (PLACE ORDER reads it with every order): the questions still asked, in order, and each ticket type's attendee fields. */
export async function formOf(db: DbOrTx, tenantId: string, eventId: string) {
  const res = (await db.execute(sql`
    select
      (select coalesce(json_agg(json_build_object('id', q.id, 'label', q.label, 'kind', q.kind, 'helpText', q.help_text, 'required', q.required,
          'scope', q.scope, 'options', q.options, 'ticketTypeIds', q.ticket_type_ids) order by q.sort_order, q.created_at), '[]'::json)
        from event_questions q where q.tenant_id = ${tenantId} and q.event_id = ${eventId} and q.removed_at is null) as questions,
      (select coalesce(json_agg(json_build_object('ticketTypeId', t.id, 'askName', coalesce(f.ask_name, 'off'), 'askEmail', coalesce(f.ask_email, 'off'))
          order by t.sort_order, t.created_at), '[]'::json)
        from ticket_types t left join ticket_type_attendee_fields f on f.tenant_id = t.tenant_id and f.ticket_type_id = t.id
        where t.tenant_id = ${tenantId} and t.event_id = ${eventId}) as types`)) as unknown as {
    rows: Array<{ questions: unknown; types: unknown }>;
  };
  const row = res.rows[0]!;
  // PGlite hands json back parsed, node-postgres too; a driver that gives text is parsed here.
  const parse = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
  return {
    questions: parse<Array<{ id: string; label: string; kind: string; helpText: string; required: boolean; scope: string; options: string[]; ticketTypeIds: string[] }>>(row.questions),
    types: parse<Array<{ ticketTypeId: string; askName: string; askEmail: string }>>(row.types),
  };
}
