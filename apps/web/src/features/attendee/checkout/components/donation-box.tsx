import { DONATION_PRESETS, MAX_DONATION_CENTS } from '@marquee/core';
import { useEffect, useId, useRef } from 'react';
import { money } from '../../event-site/format';
import { Card } from '../../event-site/kit/card';
import { IconHeart } from '../../event-site/kit/icons';
import kit from '../../event-site/kit/kit.module.css';
import type { Donation, DonationChoice } from '../use-donation';
import css from './checkout.module.css';

export type DonationBoxProps = {
  charityName: string;
  donation: Donation;
  disabled?: boolean;
};

const wholeDollars = (cents: number) => `$${cents / 100}`;

/**
 * The optional donation to the event's charity (docs/decisions.md "Donations at checkout"): None,
 * a preset amount or another amount. The Order Summary shows the donation and its fee once priced.
 */
export function DonationBox({ charityName, donation, disabled }: DonationBoxProps) {
  const titleId = useId();
  const amountId = useId();
  const amountRef = useRef<HTMLInputElement>(null);
  const options: Array<{ value: DonationChoice; label: string; testId: string }> = [
    { value: 'none', label: 'None', testId: 'donation-none' },
    ...DONATION_PRESETS.map((cents) => ({ value: cents, label: wholeDollars(cents), testId: `donation-${cents}` })),
    { value: 'custom', label: 'Other', testId: 'donation-custom' },
  ];
  const custom = donation.choice === 'custom';

  // Choosing Other puts the cursor in the amount; a wrong amount at PLACE ORDER is shown there too.
  const wasCustom = useRef(custom);
  useEffect(() => {
    if (custom && !wasCustom.current) amountRef.current?.focus();
    wasCustom.current = custom;
  }, [custom]);

  const thanked = donation.cents !== null && donation.cents > 0 ? donation.cents : 0;

  return (
    <Card data-testid="donation" aria-labelledby={titleId}>
      <div className={css.sectionHead}>
        <span className={`${css.step} ${css.stepHeart}`} aria-hidden="true">
          <IconHeart size={16} />
        </span>
        <h2 className={css.sectionTitle} id={titleId}>
          Add a donation to {charityName}{' '}
          <span className={css.sectionOptional}>(optional)</span>
        </h2>
      </div>
      <p className={css.donationNote}>Support {charityName} with your order. Your donation and its donation fee show in the Order Summary before you pay.</p>
      <div className={css.donationOptions} role="radiogroup" aria-labelledby={titleId}>
        {options.map((o) => {
          const checked = donation.choice === o.value;
          return (
            <label key={String(o.value)} className={css.donationOption} data-checked={checked || undefined} data-disabled={disabled || undefined}>
              <input
                type="radio"
                name="donation"
                checked={checked}
                disabled={disabled}
                onChange={() => donation.select(o.value)}
                data-testid={o.testId}
              />
              <span>{o.label}</span>
            </label>
          );
        })}
      </div>
      {custom && (
        <div className={`${kit.field} ${css.donationAmount}`}>
          <label className={kit.label} htmlFor={amountId}>
            Donation amount
          </label>
          <div className={css.amountWrap}>
            <span className={css.currency} aria-hidden="true">
              $
            </span>
            <input
              id={amountId}
              ref={amountRef}
              className={`${kit.input} ${css.amountInput}`}
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              maxLength={12}
              value={donation.text}
              disabled={disabled}
              onChange={(e) => donation.type(e.target.value)}
              onBlur={() => {
                if (donation.text.trim()) donation.check();
              }}
              aria-invalid={donation.error ? true : undefined}
              aria-describedby={donation.error ? `${amountId}-error` : undefined}
              data-testid="donation-amount"
            />
          </div>
          {donation.error ? (
            <span className={kit.error} id={`${amountId}-error`} role="alert">
              {donation.error}
            </span>
          ) : (
            <span className={kit.hint}>In US dollars, up to {money(MAX_DONATION_CENTS)}.</span>
          )}
        </div>
      )}
      {thanked > 0 && (
        <p className={css.donationThanks} data-testid="donation-thanks">
          <IconHeart size={16} /> Thank you! You are giving {money(thanked)} to {charityName}.
        </p>
      )}
    </Card>
  );
}
