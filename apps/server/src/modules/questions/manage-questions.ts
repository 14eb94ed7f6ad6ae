import { randomUUID } from 'node:crypto';
import { QM, QUESTION_LIMITS, type QuestionKind, type QuestionScope, type TQuestion, type TQuestionDetails, type TQuestionList } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { AppError, notFound } from '../../platform/errors.js';
import * as events from '../events/repository.js';
import { writableEvent } from '../events/writable.js';
import * as repo from './repository.js';

// The organiser's questions of an event (issue 24): listed in their order, added, edited, removed,
// reordered. An answered question keeps its answers readable: each answer stores the label and the
// kind it was given under, and a removed question is only hidden from new buyers.

export function toQuestion(row: repo.QuestionRow, answerCount = 0): TQuestion {
  return {
    id: row.id,
    details: {
      label: row.label,
      kind: row.kind as QuestionKind,
      helpText: row.helpText,
      required: row.required,
      scope: row.scope as QuestionScope,
      options: row.options,
      ticketTypeIds: row.ticketTypeIds,
      sortOrder: row.sortOrder,
      answerCount,
    },
  };
}

async function readableEvent(deps: Deps, ctx: TenantCtx, eventId: string) {
  const event = await events.findEvent(deps.db, ctx.tenantId, eventId);
  if (!event) throw notFound();
  return event;
}

/** Ticket types must be the event's own (another event's or tenant's ids are refused, nothing written). */
async function checkTicketTypes(deps: Deps, ctx: TenantCtx, eventId: string, ids: string[]) {
  if (ids.length === 0) return;
  const own = new Set((await repo.attendeeFields(deps.db, ctx.tenantId, eventId)).map((t) => t.ticketTypeId));
  if (ids.some((id) => !own.has(id))) throw new AppError('VALIDATION', QM.ticketTypeUnknown, { 'details.ticketTypeIds': QM.ticketTypeUnknown });
}

export async function listQuestions(opts: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TQuestionList> {
  const { deps, ctx, eventId } = opts;
  await readableEvent(deps, ctx, eventId);
  const [rows, counts] = await Promise.all([repo.listQuestions(deps.db, ctx.tenantId, eventId), repo.answerCounts(deps.db, ctx.tenantId, eventId)]);
  return { result: rows.map((r) => toQuestion(r, counts.get(r.id) ?? 0)), count: rows.length };
}

export async function createQuestion(opts: { deps: Deps; ctx: TenantCtx; eventId: string; input: TQuestionDetails }): Promise<TQuestion> {
  const { deps, ctx, eventId, input } = opts;
  await writableEvent(deps.db, ctx.tenantId, eventId);
  await checkTicketTypes(deps, ctx, eventId, input.ticketTypeIds);
  const existing = await repo.listQuestions(deps.db, ctx.tenantId, eventId);
  if (existing.length >= QUESTION_LIMITS.questionsPerEvent) throw new AppError('VALIDATION', QM.tooManyQuestions);
  const row = await repo.insertQuestion(deps.db, {
    tenantId: ctx.tenantId,
    id: randomUUID(),
    eventId,
    ...input,
    sortOrder: existing.reduce((n, q) => Math.max(n, q.sortOrder), 0) + 1,
  });
  return toQuestion(row);
}

/** An edit asks new buyers the new question; answers already given keep the label and kind they were given under. */
export async function updateQuestion(opts: { deps: Deps; ctx: TenantCtx; eventId: string; questionId: string; input: TQuestionDetails }): Promise<TQuestion> {
  const { deps, ctx, eventId, questionId, input } = opts;
  await writableEvent(deps.db, ctx.tenantId, eventId);
  if (!(await repo.findQuestion(deps.db, ctx.tenantId, eventId, questionId))) throw notFound();
  await checkTicketTypes(deps, ctx, eventId, input.ticketTypeIds);
  const row = await repo.updateQuestion(deps.db, ctx.tenantId, questionId, input);
  if (!row) throw notFound();
  const counts = await repo.answerCounts(deps.db, ctx.tenantId, eventId);
  return toQuestion(row, counts.get(row.id) ?? 0);
}

export async function removeQuestion(opts: { deps: Deps; ctx: TenantCtx; eventId: string; questionId: string }): Promise<{ success: true }> {
  const { deps, ctx, eventId, questionId } = opts;
  await writableEvent(deps.db, ctx.tenantId, eventId);
  if (!(await repo.findQuestion(deps.db, ctx.tenantId, eventId, questionId))) throw notFound();
  await repo.updateQuestion(deps.db, ctx.tenantId, questionId, { removedAt: new Date() });
  return { success: true };
}

/** The new order: every question of the event, each once (a list that is not exactly them is refused). */
export async function reorderQuestions(opts: { deps: Deps; ctx: TenantCtx; eventId: string; ids: string[] }): Promise<TQuestionList> {
  const { deps, ctx, eventId, ids } = opts;
  await writableEvent(deps.db, ctx.tenantId, eventId);
  const current = await repo.listQuestions(deps.db, ctx.tenantId, eventId);
  const known = new Set(current.map((q) => q.id));
  if (ids.length !== current.length || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
    throw new AppError('VALIDATION', QM.reorderIncomplete, { ids: QM.reorderIncomplete });
  }
  await repo.setSortOrders(deps.db, ctx.tenantId, eventId, ids);
  return listQuestions({ deps, ctx, eventId });
}
