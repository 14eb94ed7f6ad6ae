import { useMutation } from '../../site/site-query';
import { useState, type FormEvent } from 'react';
import { errorMessage, isApiError } from '../../../../ui/api-client';
import { useEventOutlet } from '../../event-site/components/event-layout';
import site from '../../event-site/components/site.module.css';
import { Button, ButtonLink } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { TextField } from '../../event-site/kit/fields';
import { IconMail } from '../../event-site/kit/icons';
import { Notice } from '../../event-site/kit/notice';
import { orderLinkApi } from '../api';
import css from './order-link.module.css';

/**
 * /{eventName}/find-tickets (issue 15): the links of the orders bought with an e-mail address are
 * mailed to it. The answer is the same for any address, so the form tells nobody who bought.
 */
export function FindTicketsPage() {
  const { eventName } = useEventOutlet();
  const [email, setEmail] = useState('');
  const find = useMutation({ mutationFn: (value: string) => orderLinkApi.findTickets(value) });
  const fieldError = isApiError(find.error) ? (find.error.fields.email ?? null) : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    find.mutate(email.trim());
  };
  return (
    <div className={site.container}>
      <div className={css.wrap}>
        <div>
          <h1 className={site.pageTitle}>Find my tickets</h1>
          <p className={site.muted}>Enter the e-mail address you bought with. We will e-mail you a link to each of your orders, where you can download your tickets or have them sent again.</p>
        </div>
        <Card>
          {find.isSuccess ? (
            <div data-testid="find-tickets-sent">
              <Notice kind="success">{find.data.message}</Notice>
              <div className={css.actions} style={{ marginTop: 16 }}>
                <Button variant="secondary" onClick={() => find.reset()}>
                  Use another address
                </Button>
                <ButtonLink to={`/${eventName}/`} variant="ghost">
                  Back to the event
                </ButtonLink>
              </div>
            </div>
          ) : (
            <form onSubmit={submit} noValidate data-testid="find-tickets-form">
              <TextField
                label="E-mail address"
                type="email"
                autoComplete="email"
                value={email}
                onValue={setEmail}
                error={fieldError}
                required
                data-testid="find-tickets-email"
              />
              {find.isError && !fieldError && (
                <div style={{ marginTop: 12 }}>
                  <Notice kind="error">{errorMessage(find.error)}</Notice>
                </div>
              )}
              <div className={css.actions} style={{ marginTop: 16 }}>
                <Button type="submit" disabled={find.isPending} data-testid="find-tickets-submit">
                  <IconMail size={16} /> {find.isPending ? 'Sending…' : 'E-mail my order links'}
                </Button>
              </div>
            </form>
          )}
        </Card>
      </div>
    </div>
  );
}
