import { IconMinus, IconPlus } from './icons';
import css from './kit.module.css';

export type StepperProps = {
  value: number;
  onIncrement: () => void;
  onDecrement: () => void;
  canIncrement: boolean;
  canDecrement: boolean;
  label: string;
  testId?: string;
};

/** A +/- quantity control; the caller decides what a step means (per-order minimums jump). */
export function Stepper({ value, onIncrement, onDecrement, canIncrement, canDecrement, label, testId }: StepperProps) {
  return (
    <div className={css.stepper} role="group" aria-label={`${label} quantity`} data-testid={testId}>
      <button type="button" className={css.stepButton} onClick={onDecrement} disabled={!canDecrement} aria-label={`Remove one ${label}`}>
        <IconMinus size={18} />
      </button>
      <output className={css.stepValue} aria-live="polite" data-testid={testId && `${testId}-value`}>
        {value}
      </output>
      <button type="button" className={css.stepButton} onClick={onIncrement} disabled={!canIncrement} aria-label={`Add one ${label}`}>
        <IconPlus size={18} />
      </button>
    </div>
  );
}
