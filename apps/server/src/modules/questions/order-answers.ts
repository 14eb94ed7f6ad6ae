import {
  answerText,
  checkOrderAnswers,
  QM,
  type CheckedOrderAnswers,
  type QuestionKind,
  type TAnswerValue,
  type TAnswerView,
  type TAttendeeForm,
  type TOrderAnswers,
  type TOrderAnswersInput,
} from '@marquee/core';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { AppError, DomainError as ServerDomainError, notFound } from '../../platform/errors.js';
import * as events from '../events/repository.js';
import { createBatcher, type Batcher } from '../../platform/batcher.js';
import { effectiveDeadline, loadAttendeeForm, readAttendeeForm } from './attendee-settings.js';
import * as repo from './repository.js';

// An order's attendees and answers (issue 24): checked and written at PLACE ORDER, carried onto the
// tickets when they are issued, shown on the order page and the order link, and edited by the
// organiser (any time) and the buyer (until the event's deadline).

type Lines = ReadonlyArray<{ ticketTypeId: string; quantity: number }>;

function badAnswers(fields: Record<string, string>): AppError {
  return new AppError('VALIDATION', Object.values(fields)[0] ?? QM.unknownQuestion, fields);
}

/** Rows to write for checked answers: once per order (slot '') and per ticket. */
function rowsOf(checked: CheckedOrderAnswers) {
  return {
    attendees: checked.attendees.map((a) => ({ ticketTypeId: a.ticketTypeId, position: a.position, fullName: a.fullName, email: a.email })),
    answers: [
      ...checked.answers.map((a) => ({ ...a, slot: '' })),
      ...checked.attendees.flatMap((t) => t.answers.map((a) => ({ ...a, slot: repo.slotOf(t.ticketTypeId, t.position) }))),
    ],
  };
}

const asksNothing = (form: TAttendeeForm) => form.questions.length === 0 && form.ticketTypes.every((t) => t.askName === 'off' && t.askEmail === 'off');

/**
 * PLACE ORDER's check, before anything is held: the answers against what the event asks now, each
 * failure the field's own message (a 400 with every field). Null when the event asks nothing and
 * nothing was given: nothing to write.
 */
export async function checkNewOrderAnswers(opts: {
  db: Db;
  tenantId: string;
  eventId: string;
  lines: Lines;
  input: { answers?: Record<string, unknown>; attendees?: TOrderAnswersInput['attendees'] };
}): Promise<CheckedOrderAnswers | null> {
  const form = await readAttendeeForm(opts.db, opts.tenantId, opts.eventId);
  const given = Object.keys(opts.input.answers ?? {}).length > 0 || (opts.input.attendees ?? []).length > 0;
  if (!given && asksNothing(form)) return null;
  const checked = checkOrderAnswers(form, opts.lines, { answers: opts.input.answers, attendees: opts.input.attendees ?? [] });
  if (!checked.ok) throw badAnswers(checked.fields);
  return checked.value;
}

type NewOrderAnswers = { tenantId: string; eventId: string; orderId: string; checked: CheckedOrderAnswers };
const answerWriters = new WeakMap<object, Batcher<NewOrderAnswers, null>>();

/**
 * Writes a new draft order's attendees and answers: one statement, shared in a rush by the orders of
 * the same event that wait for it (platform/batcher.ts, as the holds are), so that answers cost no
 * extra commit per order; a batch that fails is written again order by order.
 */
export function recordNewOrderAnswers(db: Db, p: NewOrderAnswers): Promise<null> {
  let writer = answerWriters.get(db);
  if (!writer) {
    answerWriters.set(
      db,
      (writer = createBatcher(async (_key, batch) => {
        await repo.insertNewOrderAnswers(db, { tenantId: batch[0]!.tenantId, eventId: batch[0]!.eventId, orders: batch.map((b) => ({ orderId: b.orderId, ...rowsOf(b.checked) })) });
        return batch.map(() => null);
      })),
    );
  }
  return writer.submit(`${p.tenantId}/${p.eventId}`, p);
}

/**
 * The issued tickets take their attendee's name and e-mail (fulfilment, under the order's lock):
 * `holderOf(ticketTypeId, position)` gives them (null: none given, the buyer's are used), and
 * `tie` records which ticket is whose once they are inserted.
 */
export async function attendeesForIssue(tx: Tx, tenantId: string, orderId: string) {
  const rows = await repo.attendeesOf(tx, tenantId, orderId);
  const bySlot = new Map(rows.map((r) => [repo.slotOf(r.ticketTypeId, r.position), r]));
  return {
    holderOf: (ticketTypeId: string, position: number) => {
      const r = bySlot.get(repo.slotOf(ticketTypeId, position));
      return r ? { fullName: r.fullName, email: r.email } : null;
    },
    tie: (ties: Array<{ ticketTypeId: string; position: number; ticketId: string }>) =>
      repo.tieTickets(
        tx,
        tenantId,
        orderId,
        ties.filter((t) => bySlot.has(repo.slotOf(t.ticketTypeId, t.position))),
      ),
  };
}

const parse = (value: string): TAnswerValue => JSON.parse(value) as TAnswerValue;
const view = (a: repo.AnswerRow): TAnswerView => {
  const value = parse(a.value);
  return { questionId: a.questionId, label: a.label, kind: a.kind as QuestionKind, value, text: answerText(a.kind as QuestionKind, value) };
};

type OrderRef = { id: string; eventId: string; status: string };

async function orderView(db: DbOrTx, tenantId: string, order: OrderRef, editable: boolean, deadline: Date | null): Promise<TOrderAnswers> {
  const [form, lines, attendees, answers, tickets] = await Promise.all([
    loadAttendeeForm(db, tenantId, order.eventId),
    repo.linesOf(db, tenantId, order.id),
    repo.attendeesOf(db, tenantId, order.id),
    repo.answersOf(db, tenantId, order.id),
    repo.ticketsOf(db, tenantId, order.id),
  ]);
  // In the order the questions are asked; answers to questions removed since come last.
  const rank = (id: string) => {
    const i = form.questions.findIndex((q) => q.id === id);
    return i < 0 ? form.questions.length : i;
  };
  answers.sort((a, b) => rank(a.questionId) - rank(b.questionId));
  const bySlot = new Map(attendees.map((a) => [repo.slotOf(a.ticketTypeId, a.position), a]));
  const ticketById = new Map(tickets.map((t) => [t.id, t]));
  // Tickets issued without an attendee row (an order placed before questions were asked) are matched by type, in order.
  const untied = new Map<string, typeof tickets>();
  const tiedIds = new Set(attendees.map((a) => a.ticketId).filter(Boolean));
  for (const t of tickets) if (!tiedIds.has(t.id)) untied.set(t.ticketTypeId, [...(untied.get(t.ticketTypeId) ?? []), t]);
  return {
    editable,
    deadline: deadline?.toISOString() ?? null,
    form,
    answers: answers.filter((a) => a.slot === '').map(view),
    attendees: lines.flatMap((l) =>
      Array.from({ length: l.quantity }, (_, position) => {
        const a = bySlot.get(repo.slotOf(l.ticketTypeId, position));
        const ticket = (a?.ticketId ? ticketById.get(a.ticketId) : undefined) ?? (a?.ticketId ? undefined : untied.get(l.ticketTypeId)?.shift());
        const slot = repo.slotOf(l.ticketTypeId, position);
        return {
          ticketTypeId: l.ticketTypeId,
          ticketTypeName: l.ticketName,
          position,
          ticketUid: ticket?.ticketUid ?? null,
          // The ticket is the truth once issued (a transfer or an edit changes it there).
          fullName: ticket?.fullName ?? a?.fullName ?? '',
          email: ticket?.email ?? a?.email ?? '',
          answers: answers.filter((x) => x.slot === slot).map(view),
        };
      }),
    ),
  };
}

/** The organiser's view of an order's answers (order page). Another tenant's or event's order: 404. */
export async function getOrderAnswersForOrganiser(opts: { deps: Deps; tenantId: string; eventId: string; orderUid: string }): Promise<TOrderAnswers> {
  const { deps, tenantId } = opts;
  const order = await repo.findOrder(deps.db, tenantId, { orderUid: opts.orderUid, eventId: opts.eventId });
  if (!order) throw notFound();
  const event = await events.findEvent(deps.db, tenantId, order.eventId);
  return orderView(deps.db, tenantId, order, true, event ? await effectiveDeadline(deps.db, tenantId, event) : null);
}

/** The buyer's view (order link): editable until the deadline. `orderId` comes from the link the caller resolved. */
export async function getOrderAnswersForBuyer(opts: { deps: Deps; tenantId: string; orderId: string; eventId: string; status: string }): Promise<TOrderAnswers> {
  const { deps, tenantId } = opts;
  const event = await events.findEvent(deps.db, tenantId, opts.eventId);
  const deadline = event ? await effectiveDeadline(deps.db, tenantId, event) : null;
  const open = (deadline === null || deadline.getTime() > Date.now()) && event?.status !== 'cancelled';
  return orderView(deps.db, tenantId, { id: opts.orderId, eventId: opts.eventId, status: opts.status }, open, deadline);
}

/**
 * Replaces an order's attendees and answers, checked as at checkout against what the event asks
 * now (answers to questions removed since stay as they were). Locks the order first, then writes
 * its attendees, answers and tickets (lock order 1 then 2). The buyer is refused after the deadline
 * (ANSWERS_LOCKED, 409); nothing is written on any refusal.
 */
export async function editOrderAnswers(opts: {
  deps: Deps;
  tenantId: string;
  by: 'organiser' | 'buyer';
  order: { id?: string; orderUid?: string; eventId: string };
  input: TOrderAnswersInput;
}): Promise<TOrderAnswers> {
  const { deps, tenantId } = opts;
  const result = await deps.db.transaction(async (tx) => {
    const order = await repo.lockOrder(tx, tenantId, { orderId: opts.order.id, orderUid: opts.order.orderUid, eventId: opts.order.eventId });
    if (!order) throw notFound();
    const event = await events.findEvent(tx, tenantId, order.eventId);
    if (!event) throw notFound();
    const deadline = await effectiveDeadline(tx, tenantId, event);
    if (opts.by === 'buyer' && ((deadline !== null && deadline.getTime() <= Date.now()) || event.status === 'cancelled')) {
      throw new ServerDomainError('ANSWERS_LOCKED', QM.answersLocked);
    }
    const [form, lines] = await Promise.all([loadAttendeeForm(tx, tenantId, order.eventId), repo.linesOf(tx, tenantId, order.id)]);
    const checked = checkOrderAnswers(form, lines, opts.input);
    if (!checked.ok) throw badAnswers(checked.fields);
    await repo.replaceOrderAnswers(tx, { tenantId, eventId: order.eventId, orderId: order.id, askedIds: form.questions.map((q) => q.id), ...rowsOf(checked.value) });
    // Issued tickets carry the new name and e-mail (the PDF, the door, the exports read them there).
    const attendees = await repo.attendeesOf(tx, tenantId, order.id);
    const tickets = await repo.ticketsOf(tx, tenantId, order.id);
    // Tickets issued before the order had attendees (placed before the event asked) are tied now, by type in order.
    const tied = new Set(attendees.map((a) => a.ticketId).filter(Boolean));
    const ties: Array<{ ticketTypeId: string; position: number; ticketId: string }> = [];
    for (const a of attendees.filter((r) => !r.ticketId)) {
      const free = tickets.find((t) => t.ticketTypeId === a.ticketTypeId && !tied.has(t.id));
      if (!free) continue;
      tied.add(free.id);
      a.ticketId = free.id;
      ties.push({ ticketTypeId: a.ticketTypeId, position: a.position, ticketId: free.id });
    }
    await repo.tieTickets(tx, tenantId, order.id, ties);
    const fields = new Map(form.ticketTypes.map((t) => [t.ticketTypeId, t]));
    for (const a of checked.value.attendees) {
      const row = attendees.find((r) => r.ticketTypeId === a.ticketTypeId && r.position === a.position);
      const ticket = row?.ticketId ? tickets.find((t) => t.id === row.ticketId) : undefined;
      if (!ticket) continue;
      const f = fields.get(a.ticketTypeId);
      await repo.setTicketHolder(tx, {
        tenantId,
        ticketId: ticket.id,
        fullName: f?.askName !== 'off' && a.fullName ? a.fullName : ticket.fullName,
        email: f?.askEmail !== 'off' && a.email ? a.email : ticket.email,
      });
    }
    return { order, deadline };
  });
  return orderView(deps.db, tenantId, result.order, opts.by === 'organiser' || result.deadline === null || result.deadline.getTime() > Date.now(), result.deadline);
}
