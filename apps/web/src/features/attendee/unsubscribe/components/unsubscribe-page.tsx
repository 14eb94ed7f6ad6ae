import { M } from '@marquee/core';
import { useMutation, useQuery, useQueryClient } from '../../site/site-query';
import { useEffect, useRef } from 'react';
import { useParams } from '../../site/site-router';
import { useSiteContext } from '../../../../shared/site-context';
import { errorMessage, isNotFound } from '../../../../ui/api-client';
import site from '../../event-site/components/site.module.css';
import { Button } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { IconMail } from '../../event-site/kit/icons';
import { Notice, Spinner } from '../../event-site/kit/notice';
import { LoadFailed, OrganiserShell } from '../../event-site/kit/organiser-shell';
import { unsubscribeApi } from '../api';
import css from './unsubscribe.module.css';

/**
 * /unsubscribe/{token} on the tenant's host (issue 15): the link at the foot of every message to
 * attendees. No sign-in: the signed token names the address. It asks before unsubscribing (mail
 * scanners open links), and can be undone.
 */
export function UnsubscribePage() {
  const { token = '' } = useParams();
  const organiser = useSiteContext().tenant?.name ?? '';
  const client = useQueryClient();
  const key = ['site', 'unsubscribe', token];
  const state = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => unsubscribeApi.get(token, signal),
    retry: (failures, error) => !isNotFound(error) && failures < 3,
  });
  const change = useMutation({
    mutationFn: (out: boolean) => (out ? unsubscribeApi.unsubscribe(token) : unsubscribeApi.resubscribe(token)),
    onSuccess: (answer) => client.setQueryData(key, state.data ? { ...state.data, optedOut: answer.optedOut } : undefined),
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const data = state.data;
  useEffect(() => {
    document.title = `${data?.optedOut ? 'Unsubscribed' : 'Unsubscribe'} · ${organiser || 'Messages'}`;
  }, [data?.optedOut, organiser]);
  // After a change the heading says what happened: focus moves there so it is read out.
  useEffect(() => {
    if (change.isSuccess) heading.current?.focus();
  }, [change.isSuccess, data?.optedOut]);

  let body;
  if (data) {
    const name = data.organiser || organiser;
    body = (
      <div className={site.container}>
        <div className={css.wrap} data-testid="unsubscribe-page" data-opted-out={data.optedOut}>
          <Card>
            <h1 className={`${site.pageTitle} ${css.title}`} ref={heading} tabIndex={-1}>
              {data.optedOut ? 'You are unsubscribed' : 'Unsubscribe'}
            </h1>
            {data.optedOut ? (
              <>
                <Notice kind="success" data-testid="unsubscribe-done">
                  {change.data?.message ?? M.unsubscribed}
                </Notice>
                <p className={css.note}>
                  <span className={css.email}>{data.email}</span> will not get messages {name} sends to attendees. Your tickets and the e-mails about your
                  orders are not affected.
                </p>
                <div className={css.actions}>
                  <Button variant="secondary" onClick={() => change.mutate(false)} disabled={change.isPending} data-testid="resubscribe">
                    {change.isPending ? 'Saving…' : 'Subscribe again'}
                  </Button>
                </div>
              </>
            ) : (
              <>
                {change.isSuccess && <Notice kind="success">{change.data.message}</Notice>}
                <p className={css.lead}>
                  Stop messages from {name} to <strong className={css.email}>{data.email}</strong>?
                </p>
                <p className={css.note}>
                  Organisers write to attendees about their events: changes, reminders and news. Your tickets and the e-mails about your orders are
                  not affected.
                </p>
                <div className={css.actions}>
                  <Button onClick={() => change.mutate(true)} disabled={change.isPending} data-testid="unsubscribe">
                    {change.isPending ? 'Saving…' : 'Unsubscribe'}
                  </Button>
                </div>
              </>
            )}
            {change.isError && (
              <div style={{ marginTop: 16 }}>
                <Notice kind="error">{errorMessage(change.error)}</Notice>
              </div>
            )}
          </Card>
        </div>
      </div>
    );
  } else if (isNotFound(state.error)) {
    body = (
      <div className={site.center}>
        <div className={site.centerBox} data-testid="unsubscribe-invalid">
          <span className={site.centerIcon}>
            <IconMail size={28} />
          </span>
          <h1>This link does not work</h1>
          <p className={site.muted}>{M.unsubscribeLinkInvalid}</p>
        </div>
      </div>
    );
  } else if (state.isPending) {
    body = (
      <div className={site.center} aria-busy="true">
        <Spinner large />
      </div>
    );
  } else {
    body = <LoadFailed onRetry={() => void state.refetch()} />;
  }

  return (
    <OrganiserShell organiser={organiser} title="Messages" footerNote="Tickets by Marquee">
      {body}
    </OrganiserShell>
  );
}
