import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';
import css from './kit.module.css';

type Common = { label: ReactNode; error?: string | null; hint?: ReactNode; optional?: boolean };

function Frame({ id, label, error, hint, optional, children }: Common & { id: string; children: ReactNode }) {
  return (
    <div className={css.field}>
      <label className={css.label} htmlFor={id}>
        {label}
        {optional && <span className={css.optional}>(optional)</span>}
      </label>
      {children}
      {error ? (
        <span className={css.error} id={`${id}-error`} role="alert">
          {error}
        </span>
      ) : (
        hint && <span className={css.hint}>{hint}</span>
      )}
    </div>
  );
}

export type TextFieldProps = Common & Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  onValue: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
};

export function TextField({ label, error, hint, optional, onValue, inputRef, className, id: given, ...input }: TextFieldProps) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Frame id={id} label={label} error={error} hint={hint} optional={optional}>
      <input
        id={id}
        ref={inputRef}
        className={[css.input, className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onValue(e.target.value)}
        {...input}
      />
    </Frame>
  );
}

export type SelectFieldProps = Common & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange'> & {
  onValue: (value: string) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  placeholder?: string;
  selectRef?: Ref<HTMLSelectElement>;
};

export function SelectField({ label, error, hint, optional, onValue, options, placeholder, selectRef, id: given, ...select }: SelectFieldProps) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Frame id={id} label={label} error={error} hint={hint} optional={optional}>
      <select
        id={id}
        ref={selectRef}
        className={`${css.input} ${css.select}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onValue(e.target.value)}
        {...select}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export type CheckboxProps = { label: ReactNode; checked: boolean; onValue: (checked: boolean) => void; name?: string; 'data-testid'?: string };

export function Checkbox({ label, checked, onValue, ...rest }: CheckboxProps) {
  return (
    <label className={css.check}>
      <input type="checkbox" checked={checked} onChange={(e) => onValue(e.target.checked)} {...rest} />
      <span>{label}</span>
    </label>
  );
}
