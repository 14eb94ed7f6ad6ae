import type { FormQuestion } from '@marquee/core';
import { useId } from 'react';
import kit from '../../event-site/kit/kit.module.css';
import type { AnswerInput } from '../attendee-values';
import css from './attendee-details.module.css';

export type AnswerFieldProps = {
  question: Pick<FormQuestion, 'id' | 'label' | 'kind' | 'helpText' | 'required' | 'options'>;
  value: AnswerInput | undefined;
  error?: string;
  onValue: (value: AnswerInput) => void;
  onBlur?: () => void;
  testId: string;
};

/**
 * One question, as a labelled control for its kind. The help text and the error are tied to the
 * control with aria-describedby; a choice list is a fieldset with a legend, so a screen reader reads
 * the question with each option. Shared by the checkout, the order link and the console.
 */
export function AnswerField({ question: q, value, error, onValue, onBlur, testId }: AnswerFieldProps) {
  const id = useId();
  const helpId = q.helpText ? `${id}-help` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [helpId, errorId].filter(Boolean).join(' ') || undefined;
  const label = (
    <>
      {q.label}
      {!q.required && <span className={kit.optional}>(optional)</span>}
    </>
  );
  const help = q.helpText ? (
    <span className={kit.hint} id={helpId}>
      {q.helpText}
    </span>
  ) : null;
  const err = error ? (
    <span className={kit.error} id={errorId} role="alert">
      {error}
    </span>
  ) : null;
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': q.required || undefined,
    onBlur,
    'data-testid': testId,
  } as const;
  const text = typeof value === 'string' ? value : '';

  if (q.kind === 'checkbox') {
    return (
      <div className={kit.field}>
        <label className={kit.check}>
          <input type="checkbox" checked={value === true} onChange={(e) => onValue(e.target.checked)} {...common} />
          <span>
            {q.label}
            {!q.required && <span className={kit.optional}>(optional)</span>}
          </span>
        </label>
        {help}
        {err}
      </div>
    );
  }
  if (q.kind === 'singleChoice' || q.kind === 'multipleChoice') {
    const multi = q.kind === 'multipleChoice';
    const chosen = Array.isArray(value) ? value : typeof value === 'string' && value ? [value] : [];
    return (
      <fieldset className={css.choices} aria-describedby={describedBy} data-testid={testId}>
        <legend className={kit.label}>{label}</legend>
        {help}
        <div className={css.options}>
          {q.options.map((o) => (
            <label key={o} className={css.option}>
              <input
                type={multi ? 'checkbox' : 'radio'}
                name={id}
                value={o}
                checked={chosen.includes(o)}
                aria-invalid={error ? true : undefined}
                onBlur={onBlur}
                onChange={(e) => {
                  if (!multi) onValue(o);
                  else onValue(e.target.checked ? q.options.filter((x) => x === o || chosen.includes(x)) : chosen.filter((x) => x !== o));
                }}
              />
              <span>{o}</span>
            </label>
          ))}
        </div>
        {err}
      </fieldset>
    );
  }
  return (
    <div className={kit.field}>
      <label className={kit.label} htmlFor={id}>
        {label}
      </label>
      {q.kind === 'longText' ? (
        <textarea className={`${kit.input} ${css.textarea}`} rows={3} maxLength={2000} value={text} onChange={(e) => onValue(e.target.value)} {...common} />
      ) : (
        <input
          className={kit.input}
          value={text}
          onChange={(e) => onValue(e.target.value)}
          type={q.kind === 'date' ? 'date' : q.kind === 'number' ? 'text' : q.kind === 'phone' ? 'tel' : 'text'}
          inputMode={q.kind === 'number' ? 'decimal' : q.kind === 'phone' ? 'tel' : undefined}
          autoComplete={q.kind === 'phone' ? 'tel' : undefined}
          maxLength={q.kind === 'shortText' ? 200 : undefined}
          {...common}
        />
      )}
      {help}
      {err}
    </div>
  );
}
