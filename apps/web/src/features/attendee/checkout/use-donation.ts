import { DONATION_PRESETS, parseDonationInput } from '@marquee/core';
import { useCallback, useEffect, useState } from 'react';

// The optional donation to the event's charity (docs/decisions.md "Donations at checkout"): none,
// one of the preset amounts, or an amount the buyer types. Amounts are cents; the server prices the
// donation and its fee, so the Order Summary shows them before paying.

export type DonationChoice = 'none' | 'custom' | number;

/** How long typing must pause before a custom amount is priced. */
const TYPING_PAUSE_MS = 400;

/** The choice that shows a donation already made (a held order after a declined card). */
export function choiceFor(cents: number): { choice: DonationChoice; text: string } {
  if (cents <= 0) return { choice: 'none', text: '' };
  if (DONATION_PRESETS.includes(cents)) return { choice: cents, text: '' };
  return { choice: 'custom', text: (cents / 100).toFixed(2) };
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function useDonation(initialCents: number) {
  const [initial] = useState(() => choiceFor(initialCents));
  const [choice, setChoice] = useState<DonationChoice>(initial.choice);
  const [text, setText] = useState(initial.text);
  const [showError, setShowError] = useState(false);

  const typed = parseDonationInput(text);
  const typedCents = 'cents' in typed ? typed.cents : null;
  /** The donation PLACE ORDER sends; null while a custom amount is not a valid one. */
  const cents = choice === 'none' ? 0 : choice === 'custom' ? typedCents : choice;
  const settledTyped = useDebounced(typedCents ?? 0, TYPING_PAUSE_MS);
  /** The donation the Order Summary is priced with: a custom amount once typing pauses. */
  const priced = choice === 'custom' ? (typedCents === null ? 0 : settledTyped) : (cents ?? 0);
  const error = choice === 'custom' && showError && 'error' in typed ? typed.error : null;

  const select = useCallback((next: DonationChoice) => {
    setChoice(next);
    setShowError(false);
  }, []);
  const type = useCallback((value: string) => {
    setText(value);
    setShowError(false);
  }, []);
  /** Shows the custom amount's message (on blur, and when PLACE ORDER finds it wrong). */
  const check = useCallback(() => setShowError(true), []);
  const reset = useCallback(() => {
    setChoice('none');
    setText('');
    setShowError(false);
  }, []);

  return { choice, text, cents, priced, error, select, type, check, reset };
}

export type Donation = ReturnType<typeof useDonation>;
