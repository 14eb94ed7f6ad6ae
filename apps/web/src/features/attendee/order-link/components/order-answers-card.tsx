import { checkOrderAnswers, orderQuestions, ticketQuestions, type TOrderAnswers } from '@marquee/core';
import { useState } from 'react';
import { errorMessage, isApiError, isBadInput } from '../../../../ui/api-client';
import { AnswerField } from '../../checkout/components/answer-field';
import type { AnswerInput, AttendeeValues } from '../../checkout/attendee-values';
import { toRequest } from '../../checkout/attendee-values';
import { Button } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { TextField } from '../../event-site/kit/fields';
import { toast } from '../../event-site/kit/toast';
import { useMutation, useQuery } from '../../site/site-query';
import { orderAnswersApi } from '../api';
import css from './order-link.module.css';

// Issue 24: the attendees' names and the answers behind the order link, changed by the buyer until
// the organiser's deadline (the event's start unless set). Loaded after the order itself.

const lines = (a: TOrderAnswers) => {
  const out: Array<{ ticketTypeId: string; quantity: number }> = [];
  for (const t of a.attendees) {
    const last = out[out.length - 1];
    if (last?.ticketTypeId === t.ticketTypeId) last.quantity += 1;
    else out.push({ ticketTypeId: t.ticketTypeId, quantity: 1 });
  }
  return out;
};
const toValues = (a: TOrderAnswers): AttendeeValues => ({
  answers: Object.fromEntries(a.answers.map((x) => [x.questionId, x.value as AnswerInput])),
  attendees: a.attendees.map((t) => ({ ticketTypeId: t.ticketTypeId, fullName: t.fullName, email: t.email, answers: Object.fromEntries(t.answers.map((x) => [x.questionId, x.value as AnswerInput])) })),
});
const deadlineText = (iso: string) => new Date(iso).toLocaleString('en-US', { month: 'long', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

export default function OrderAnswersCard({ token }: { token: string }) {
  const query = useQuery({ queryKey: ['site', 'order-answers', token], queryFn: ({ signal }) => orderAnswersApi.get(token, signal) });
  const [editing, setEditing] = useState<AttendeeValues | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (values: AttendeeValues) => orderAnswersApi.save(token, toRequest(values)),
    onSuccess: () => {
      setEditing(null);
      setErrors({});
      toast.success('Your answers were saved');
      void query.refetch();
    },
    onError: (e) => {
      if (isApiError(e) && e.domainCode === 'ANSWERS_LOCKED') {
        setEditing(null);
        toast.error('Your answers could not be saved', e.message);
        void query.refetch();
      } else if (isApiError(e) && isBadInput(e)) setErrors(e.fields);
      else toast.error('Your answers could not be saved', errorMessage(e));
    },
  });
  const a = query.data;
  if (!a) return null;
  const typeIds = lines(a).map((l) => l.ticketTypeId);
  const asks = a.form.questions.length > 0 || a.form.ticketTypes.some((t) => t.askName !== 'off' || t.askEmail !== 'off');
  if (!asks && a.answers.length === 0) return null;

  const submit = () => {
    if (!editing) return;
    const checked = checkOrderAnswers(a.form, lines(a), toRequest(editing));
    if (!checked.ok) {
      setErrors(checked.fields);
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="order-answers-card"] [aria-invalid="true"]')?.focus());
      return;
    }
    save.mutate(editing);
  };

  return (
    <Card title="Attendees and answers" data-testid="order-answers-card">
      {a.deadline && (
        <p className={css.note}>
          {a.editable ? `You can change these until ${deadlineText(a.deadline)}.` : `Answers could be changed until ${deadlineText(a.deadline)}.`}
        </p>
      )}
      {!editing ? (
        <>
          {a.answers.length > 0 && (
            <dl className={css.answers}>
              {a.answers.map((x) => (
                <div key={x.questionId}>
                  <dt>{x.label}</dt>
                  <dd>{x.text}</dd>
                </div>
              ))}
            </dl>
          )}
          <ul className={css.attendees} aria-label="Attendees">
            {a.attendees.map((t) => (
              <li key={`${t.ticketTypeId}:${t.position}`} data-testid="order-attendee">
                <strong>{t.fullName || 'Attendee'}</strong> <span className={css.zone}>{t.ticketTypeName}</span>
                {t.answers.length > 0 && (
                  <dl className={css.answers}>
                    {t.answers.map((x) => (
                      <div key={x.questionId}>
                        <dt>{x.label}</dt>
                        <dd>{x.text}</dd>
                      </div>
                    ))}
                  </dl>
                )}
              </li>
            ))}
          </ul>
          {a.editable && (
            <div className={css.actions}>
              <Button variant="secondary" onClick={() => setEditing(toValues(a))} data-testid="change-answers">
                Change names and answers
              </Button>
            </div>
          )}
        </>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
          className={css.answerForm}
        >
          {orderQuestions(a.form.questions, typeIds).map((q) => (
            <AnswerField
              key={q.id}
              question={q}
              value={editing.answers[q.id]}
              error={errors[`answers.${q.id}`]}
              onValue={(v) => setEditing({ ...editing, answers: { ...editing.answers, [q.id]: v } })}
              testId={`edit-order-q-${q.label}`}
            />
          ))}
          {editing.attendees.map((t, i) => {
            const f = a.form.ticketTypes.find((x) => x.ticketTypeId === t.ticketTypeId);
            const set = (patch: Partial<AttendeeValues['attendees'][number]>) =>
              setEditing({ ...editing, attendees: editing.attendees.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
            return (
              <fieldset key={i} className={css.attendeeFieldset}>
                <legend>{a.attendees[i]?.ticketTypeName}</legend>
                {f && f.askName !== 'off' && (
                  <TextField label="Attendee Name" optional={f.askName === 'optional'} value={t.fullName} error={errors[`attendees.${i}.fullName`]} onValue={(v) => set({ fullName: v })} />
                )}
                {f && f.askEmail !== 'off' && (
                  <TextField label="Attendee Email" type="email" optional={f.askEmail === 'optional'} value={t.email} error={errors[`attendees.${i}.email`]} onValue={(v) => set({ email: v })} />
                )}
                {ticketQuestions(a.form.questions, t.ticketTypeId).map((q) => (
                  <AnswerField
                    key={q.id}
                    question={q}
                    value={t.answers[q.id]}
                    error={errors[`attendees.${i}.answers.${q.id}`]}
                    onValue={(v) => set({ answers: { ...t.answers, [q.id]: v } })}
                    testId={`edit-attendee-${i}-q-${q.label}`}
                  />
                ))}
              </fieldset>
            );
          })}
          <div className={css.actions}>
            <Button type="submit" disabled={save.isPending} data-testid="save-answers">
              {save.isPending ? 'Saving…' : 'Save'}
            </Button>
            <Button variant="secondary" type="button" onClick={() => (setEditing(null), setErrors({}))}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
