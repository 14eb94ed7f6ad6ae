import { answerText, type QuestionKind, type QuestionScope, type TAnswersReport, type TAnswerValue } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import * as events from '../events/repository.js';
import * as repo from './repository.js';

/**
 * The per-event answers report (issue 24): each question (removed ones too, while they have
 * answers), how many paid orders' attendees answered it, and for a choice or a checkbox how many
 * chose each option (an option removed since still counts, under its own name).
 */
export async function answersReport(opts: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TAnswersReport> {
  const { deps, ctx, eventId } = opts;
  if (!(await events.findEvent(deps.db, ctx.tenantId, eventId))) throw notFound();
  const [asked, grouped] = await Promise.all([repo.listQuestions(deps.db, ctx.tenantId, eventId), repo.answersForReport(deps.db, ctx.tenantId, eventId)]);
  const answeredIds = [...new Set(grouped.map((g) => g.question_id))];
  const removed = (await repo.allQuestions(deps.db, ctx.tenantId, eventId, answeredIds.filter((id) => !asked.some((q) => q.id === id)))).sort(
    (a, b) => a.sortOrder - b.sortOrder,
  );
  return {
    questions: [...asked, ...removed].map((q) => {
      const mine = grouped.filter((g) => g.question_id === q.id);
      const counts = new Map<string, number>();
      const options = q.kind === 'checkbox' ? ['Yes', 'No'] : q.options;
      for (const o of options) counts.set(o, 0);
      let answered = 0;
      for (const g of mine) {
        answered += g.n;
        const value = JSON.parse(g.value) as TAnswerValue;
        const chosen = Array.isArray(value) ? value : q.kind === 'singleChoice' || q.kind === 'checkbox' ? [answerText(g.kind as QuestionKind, value)] : [];
        for (const c of chosen) counts.set(c, (counts.get(c) ?? 0) + g.n);
      }
      const choice = q.kind === 'singleChoice' || q.kind === 'multipleChoice' || q.kind === 'checkbox';
      return {
        questionId: q.id,
        label: q.label,
        kind: q.kind as QuestionKind,
        scope: q.scope as QuestionScope,
        removed: q.removedAt !== null,
        answered,
        choices: choice ? [...counts].map(([option, count]) => ({ option, count })) : [],
      };
    }),
  };
}
