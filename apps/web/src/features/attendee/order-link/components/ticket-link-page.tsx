import type { TTicketLinkPage } from '@marquee/core';
import { useEffect } from 'react';
import { useSiteContext } from '../../../../shared/site-context';
import { errorMessage, isNotFound } from '../../../../ui/api-client';
import site from '../../event-site/components/site.module.css';
import { eventDay, eventTime } from '../../event-site/format';
import { Button } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { IconCalendar, IconPin, IconTicket } from '../../event-site/kit/icons';
import { Notice, Spinner } from '../../event-site/kit/notice';
import { LoadFailed, OrganiserShell } from '../../event-site/kit/organiser-shell';
import { toast } from '../../event-site/kit/toast';
import { Link, useParams } from '../../site/site-router';
import { useMutation, useQuery } from '../../site/site-query';
import { ticketLinkApi } from '../api';
import css from './order-link.module.css';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/**
 * /tickets/{token} on the tenant's host (issue 24): the page a transferred ticket's new holder opens
 * from their mail, without signing in: the event and their one ticket with its own QR code.
 */
export function TicketLinkPage() {
  const { token = '' } = useParams();
  const organiser = useSiteContext().tenant?.name ?? '';
  const query = useQuery({
    queryKey: ['site', 'ticket-link', token],
    queryFn: ({ signal }) => ticketLinkApi.get(token, signal),
    retry: (failures, error) => !isNotFound(error) && failures < 3,
  });
  const data = query.data;
  useEffect(() => {
    document.title = data ? `Your ticket for ${data.event.name} · ${organiser}` : `Your ticket · ${organiser || 'Tickets'}`;
  }, [data, organiser]);

  let body;
  if (data) body = <TicketView page={data} token={token} />;
  else if (isNotFound(query.error)) body = <TicketNotFound />;
  else if (query.isPending)
    body = (
      <div className={site.center} aria-busy="true">
        <Spinner large />
      </div>
    );
  else body = <LoadFailed onRetry={() => void query.refetch()} />;

  return (
    <OrganiserShell organiser={organiser} title="Your ticket" footerNote="Tickets by Marquee · Secure checkout">
      {body}
    </OrganiserShell>
  );
}

function TicketView({ page, token }: { page: TTicketLinkPage; token: string }) {
  const { event, ticket } = page;
  const download = useMutation({
    mutationFn: () => ticketLinkApi.download(token),
    onSuccess: (blob) => {
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `ticket_${ticket.ticketUID ?? 'ticket'}.pdf`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
    onError: (e) => toast.error('Your ticket could not be downloaded', errorMessage(e)),
  });
  const cancelled = event.status === 'cancelled';
  return (
    <div className={site.container}>
      <div className={css.wrap} data-testid="ticket-link-page" data-status={ticket.status}>
        <div>
          <h1 className={site.pageTitle}>{cancelled ? `Your ticket for ${event.name}` : `You're going to ${event.name}!`}</h1>
          <p className={site.muted} data-testid="ticket-link-from">
            {ticket.fromName} passed this ticket to you on {day(ticket.transferredAt)}.
          </p>
        </div>
        {cancelled && <Notice kind="warning">This event has been cancelled and this ticket is no longer valid.</Notice>}
        <Card title="Your ticket" data-testid="ticket-link-ticket">
          <p className={css.event}>
            <strong className={css.eventName}>{event.name}</strong>
          </p>
          <ul className={css.facts}>
            <li>
              <IconCalendar size={18} />
              <span>
                {eventDay(event.startDateTime, event.timeZone)}
                {event.startDateTime && `, ${eventTime(event.startDateTime, event.timeZone)}`}
                {event.startDateTime && <span className={css.zone}> ({event.timeZone.replace(/_/g, ' ')} time)</span>}
              </span>
            </li>
            {event.venue.length > 0 && (
              <li>
                <IconPin size={18} />
                <span>{event.venue.join(', ')}</span>
              </li>
            )}
          </ul>
          {ticket.status === 'valid' && ticket.qrSvg ? (
            <>
              <p className={css.scanHint}>Show this QR code at the entrance; turn your screen brightness up. It admits one person once.</p>
              <div className={css.pass}>
                <img
                  className={css.qr}
                  src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(ticket.qrSvg)}`}
                  alt={`QR code of your ticket, ${ticket.ticketTypeName}`}
                  data-testid="ticket-link-qr"
                />
                <div className={css.passInfo}>
                  <span className={css.ticketType}>{ticket.ticketTypeName}</span>
                  <span className={css.holder}>{ticket.fullName}</span>
                  <span className={css.ticketIdLabel}>Ticket ID</span>
                  <span className={css.ticketId} data-testid="ticket-link-ticket-id">
                    {ticket.ticketUID}
                  </span>
                </div>
              </div>
              <div className={css.actions} style={{ marginTop: 16 }}>
                <Button onClick={() => download.mutate()} disabled={download.isPending} data-testid="ticket-link-download">
                  {download.isPending ? 'Preparing…' : 'Download ticket (PDF)'}
                </Button>
              </div>
              <p className={css.note}>Keep this page’s link private: it opens your ticket without signing in.</p>
            </>
          ) : (
            <div className={css.ticket} data-testid="ticket-link-state">
              <span className={css.ticketMain}>
                <span className={css.ticketType}>{ticket.ticketTypeName}</span>
                <span className={css.holder}>{ticket.fullName}</span>
              </span>
              <span className={`${css.pill} ${css[ticket.status === 'transferred' ? 'transferred' : ticket.status]}`}>{STATE[ticket.status]}</span>
            </div>
          )}
          {ticket.status !== 'valid' && <p className={css.note}>{WHY[ticket.status]}</p>}
        </Card>
      </div>
    </div>
  );
}

const STATE: Record<TTicketLinkPage['ticket']['status'], string> = { valid: 'Valid', used: 'Used', voided: 'Void', transferred: 'Transferred' };
const WHY: Record<TTicketLinkPage['ticket']['status'], string> = {
  valid: '',
  used: 'This ticket has been checked in at the door.',
  voided: 'The organiser voided this ticket: it admits no one. Contact the organiser if you think this is a mistake.',
  transferred: 'This ticket has been passed on to someone else since: its code is theirs now.',
};

function TicketNotFound() {
  return (
    <div className={site.center}>
      <div className={site.centerBox} data-testid="ticket-link-not-found">
        <span className={site.centerIcon}>
          <IconTicket size={28} />
        </span>
        <h1>Ticket not found</h1>
        <p className={site.muted}>This link does not open a ticket. Check that you copied the whole link from your e-mail.</p>
        <Link to="/" className={css.textLink}>
          Go to the home page
        </Link>
      </div>
    </div>
  );
}
