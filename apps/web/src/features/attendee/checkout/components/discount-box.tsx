import { M_SITE as M } from '@marquee/core';
import { useState } from 'react';
import { Button } from '../../event-site/kit/button';
import { TextField } from '../../event-site/kit/fields';
import css from './checkout.module.css';

export type DiscountBoxProps = {
  applied: string | null;
  onApply: (code: string) => Promise<boolean>;
  onRemove: () => void;
  disabled?: boolean;
};

/**
 * spec §4 Checkout: applying a discount locks the field and shows Remove; removing clears it.
 * §5: 'Discount is required.' for an empty code; the code is shown upper-case.
 */
export function DiscountBox({ applied, onApply, onRemove, disabled }: DiscountBoxProps) {
  const [code, setCode] = useState(applied ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const locked = applied !== null;

  const apply = async () => {
    const value = code.trim().toUpperCase();
    if (!value) {
      setError(M.discountRequired);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const ok = await onApply(value);
      setCode(ok ? value : '');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={css.discount}>
      <TextField
        label="Discount code"
        value={locked ? applied : code}
        onValue={(v) => {
          setCode(v.toUpperCase());
          if (error) setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            if (!locked) void apply();
          }
        }}
        readOnly={locked}
        error={error}
        placeholder="Enter code"
        autoComplete="off"
        spellCheck={false}
        maxLength={40}
        className={css.discountInput}
        name="discountCode"
        data-testid="discount-input"
      />
      {locked ? (
        <Button
          variant="secondary"
          className={css.discountButton}
          onClick={() => {
            setCode('');
            onRemove();
          }}
          disabled={disabled}
          data-testid="discount-remove"
        >
          Remove
        </Button>
      ) : (
        <Button variant="secondary" className={css.discountButton} onClick={() => void apply()} disabled={busy || disabled} data-testid="discount-apply">
          Apply
        </Button>
      )}
    </div>
  );
}
