import { M_SITE as M, WAITLIST_JOIN_ERRORS, assertNever, domainCodeAmong, type TPublicTicketType } from '@marquee/core';
import { useState, type FormEvent } from 'react';
import { errorCode, isApiError, isNotFound } from '../../../../ui/api-client';
import { Button } from '../../event-site/kit/button';
import { SelectField, TextField } from '../../event-site/kit/fields';
import { Notice } from '../../event-site/kit/notice';
import { joinWaitlist } from '../api';
import css from './waitlist.module.css';

/**
 * Issue 24: under a sold-out ticket type, "Join the waiting list": an e-mail address and how many
 * (up to the type's per-order maximum). Folded into one button until asked for, so the sold-out
 * menu stays short on a phone.
 */
export function JoinWaitlist({ tenantId, eventId, ticketType }: { tenantId: string; eventId: string; ticketType: TPublicTicketType }) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [errors, setErrors] = useState<{ email?: string; quantity?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const [joined, setJoined] = useState<number | null>(null);
  const max = Math.max(1, ticketType.details.maxTicketPerOrder);
  const name = ticketType.details.name;

  if (joined !== null)
    return (
      <div className={css.joined} data-testid={`waitlist-joined-${name}`}>
        <Notice kind="success">
          {M.waitlistJoined} <span className={css.position}>You are number {joined} in line.</span>
        </Notice>
      </div>
    );

  if (!open)
    return (
      <div className={css.join}>
        <Button variant="secondary" block onClick={() => setOpen(true)} data-testid={`waitlist-open-${name}`} aria-expanded={false}>
          {M.waitlistJoin}
        </Button>
      </div>
    );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // The server checks the address with core's schema and answers the field's own message.
    const typed = email.trim();
    setErrors({});
    setBusy(true);
    try {
      const answer = await joinWaitlist(tenantId, eventId, { ticketTypeId: ticketType.id, email: typed, quantity: Number(quantity) });
      setJoined(answer.position);
    } catch (err) {
      if (!isApiError(err)) return setErrors({ form: 'Could not join the waiting list. Please try again.' });
      const code = domainCodeAmong(err.domainCode, WAITLIST_JOIN_ERRORS);
      switch (code) {
        case 'WAITLIST_ALREADY_JOINED':
          return setErrors({ email: err.message });
        case 'WAITLIST_UNAVAILABLE':
          return setErrors({ form: err.message });
        case null:
          if (errorCode(err) === 'VALIDATION') return setErrors({ email: err.fields.email, quantity: err.fields.quantity, form: err.fields.email || err.fields.quantity ? undefined : err.message });
          if (isNotFound(err)) return setErrors({ form: M.waitlistUnavailable });
          return setErrors({ form: err.message });
        default:
          return assertNever(code);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className={css.form} onSubmit={submit} noValidate data-testid={`waitlist-form-${name}`} aria-label={`${M.waitlistJoin}: ${name}`}>
      <p className={css.lead}>Sold out for now. Leave your e-mail address: if tickets come back, we offer them in the order people joined.</p>
      <div className={css.fields}>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onValue={setEmail}
          error={errors.email}
          data-testid={`waitlist-email-${name}`}
          autoFocus
        />
        <SelectField
          label="How many"
          value={quantity}
          onValue={setQuantity}
          error={errors.quantity}
          options={Array.from({ length: max }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }))}
          data-testid={`waitlist-quantity-${name}`}
        />
      </div>
      {errors.form && <Notice kind="error">{errors.form}</Notice>}
      <div className={css.actions}>
        <Button type="submit" disabled={busy} data-testid={`waitlist-submit-${name}`}>
          {busy ? 'Joining…' : M.waitlistJoin}
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
