import { checkOrderAnswers, orderQuestions, ticketQuestions, type TAttendeeForm } from '@marquee/core';
import { Card } from '../../event-site/kit/card';
import { TextField } from '../../event-site/kit/fields';
import type { AnswerInput, AttendeeErrors, AttendeeValues } from '../attendee-values';
import { AnswerField } from './answer-field';
import css from './attendee-details.module.css';
import checkout from './checkout.module.css';

// Issue 24: the attendees' names and the organiser's questions at checkout, loaded with the
// questions (never in the checkout's first load). The check is core's checkOrderAnswers, the one the
// server runs on PLACE ORDER, so the buyer sees the server's message before sending.

/** The whole form's errors (empty: none), named as the server names them. */
export function checkAttendees(form: TAttendeeForm, lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>, values: AttendeeValues): AttendeeErrors {
  const r = checkOrderAnswers(form, lines, values);
  return r.ok ? {} : r.fields;
}

export type AttendeeDetailsProps = {
  step: number;
  form: TAttendeeForm;
  lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>;
  ticketNames: Record<string, string>;
  values: AttendeeValues;
  errors: AttendeeErrors;
  onChange: (values: AttendeeValues) => void;
  disabled?: boolean;
};

export default function AttendeeDetails({ step, form, lines, ticketNames, values, errors, onChange }: AttendeeDetailsProps) {
  const typeIds = lines.map((l) => l.ticketTypeId);
  const once = orderQuestions(form.questions, typeIds);
  const setOrderAnswer = (id: string, v: AnswerInput) => onChange({ ...values, answers: { ...values.answers, [id]: v } });
  const setAttendee = (i: number, patch: Partial<AttendeeValues['attendees'][number]>) =>
    onChange({ ...values, attendees: values.attendees.map((a, j) => (j === i ? { ...a, ...patch } : a)) });

  const perType = new Map<string, number>();
  const tickets = values.attendees.map((a, i) => {
    const n = (perType.get(a.ticketTypeId) ?? 0) + 1;
    perType.set(a.ticketTypeId, n);
    const fields = form.ticketTypes.find((t) => t.ticketTypeId === a.ticketTypeId);
    const qs = ticketQuestions(form.questions, a.ticketTypeId);
    const askName = fields?.askName ?? 'off';
    const askEmail = fields?.askEmail ?? 'off';
    if (askName === 'off' && askEmail === 'off' && qs.length === 0) return null;
    const count = lines.find((l) => l.ticketTypeId === a.ticketTypeId)?.quantity ?? 1;
    const title = `${ticketNames[a.ticketTypeId] ?? 'Ticket'}${count > 1 ? ` · ticket ${n} of ${count}` : ''}`;
    return (
      <section key={`${a.ticketTypeId}:${n}`} className={css.attendee} aria-label={title} data-testid={`attendee-${i}`}>
        <h3 className={css.attendeeTitle}>{title}</h3>
        <div className={css.fields}>
          {askName !== 'off' && (
            <TextField
              label="Attendee Name"
              optional={askName === 'optional'}
              value={a.fullName}
              error={errors[`attendees.${i}.fullName`]}
              onValue={(v) => setAttendee(i, { fullName: v })}
              autoComplete={i === 0 ? 'name' : 'off'}
              maxLength={200}
              aria-required={askName === 'required' || undefined}
              data-testid={`attendee-${i}-name`}
            />
          )}
          {askEmail !== 'off' && (
            <TextField
              label="Attendee Email"
              optional={askEmail === 'optional'}
              type="email"
              value={a.email}
              error={errors[`attendees.${i}.email`]}
              onValue={(v) => setAttendee(i, { email: v })}
              autoComplete="off"
              aria-required={askEmail === 'required' || undefined}
              data-testid={`attendee-${i}-email`}
            />
          )}
          {qs.map((q) => (
            <div key={q.id} className={css.full}>
              <AnswerField
                question={q}
                value={a.answers[q.id]}
                error={errors[`attendees.${i}.answers.${q.id}`]}
                onValue={(v) => setAttendee(i, { answers: { ...a.answers, [q.id]: v } })}
                testId={`attendee-${i}-q-${q.label}`}
              />
            </div>
          ))}
        </div>
      </section>
    );
  });

  if (once.length === 0 && tickets.every((t) => t === null)) return null;
  return (
    <Card data-testid="attendee-details">
      <div className={checkout.sectionHead}>
        <span className={checkout.step}>{step}</span>
        <h2 className={checkout.sectionTitle}>Attendee Details</h2>
      </div>
      {once.length > 0 && (
        <div className={css.orderQuestions}>
          {once.map((q) => (
            <AnswerField
              key={q.id}
              question={q}
              value={values.answers[q.id]}
              error={errors[`answers.${q.id}`]}
              onValue={(v) => setOrderAnswer(q.id, v)}
              testId={`order-q-${q.label}`}
            />
          ))}
        </div>
      )}
      {tickets}
    </Card>
  );
}
