import type { TOrderPage } from '@marquee/core';
import { useMutation, useQuery } from '../../site/site-query';
import { useEffect } from 'react';
import { Link, useParams } from '../../site/site-router';
import { useSiteContext } from '../../../../shared/site-context';
import { errorMessage, isNotFound } from '../../../../ui/api-client';
import { PaidOrder } from '../../checkout/components/success-page';
import site from '../../event-site/components/site.module.css';
import { eventDay, eventTime, money } from '../../event-site/format';
import { Button } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { IconCalendar, IconMail, IconPin } from '../../event-site/kit/icons';
import { Notice, Spinner } from '../../event-site/kit/notice';
import { LoadFailed, OrganiserShell } from '../../event-site/kit/organiser-shell';
import { toast } from '../../event-site/kit/toast';
import { orderLinkApi } from '../api';
import css from './order-link.module.css';

/**
 * /orders/{token} on the tenant's host (issue 15): the order a private link opens, in any browser,
 * without signing in: the event, the tickets, Download and Resend. The success page's order view
 * is reused for the order itself.
 */
export function OrderLinkPage() {
  const { token = '' } = useParams();
  const organiser = useSiteContext().tenant?.name ?? '';
  const query = useQuery({
    queryKey: ['site', 'order-link', token],
    queryFn: ({ signal }) => orderLinkApi.get(token, signal),
    retry: (failures, error) => !isNotFound(error) && failures < 3,
  });
  const data = query.data;
  useEffect(() => {
    document.title = data ? `Your order ${data.order.orderUID} · ${organiser}` : `Your order · ${organiser || 'Tickets'}`;
  }, [data, organiser]);

  let body;
  if (data) body = <OrderView page={data} token={token} />;
  else if (isNotFound(query.error)) body = <LinkNotFound />;
  else if (query.isPending)
    body = (
      <div className={site.center} aria-busy="true">
        <Spinner large />
      </div>
    );
  else
    body = <LoadFailed onRetry={() => void query.refetch()} />;

  return (
    <OrganiserShell organiser={organiser} title="Your order" footerNote="Tickets by Marquee · Secure checkout">
      {body}
    </OrganiserShell>
  );
}

function OrderView({ page, token }: { page: TOrderPage; token: string }) {
  const { order, event, tickets } = page;
  const paid = order.paymentStatus === 'paid' && order.details;
  const download = useMutation({
    mutationFn: () => orderLinkApi.download(token),
    onSuccess: (blob) => {
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `tickets_${order.orderUID}.pdf`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
    onError: (e) => toast.error('Your tickets could not be downloaded', errorMessage(e)),
  });
  const resend = useMutation({
    mutationFn: () => orderLinkApi.resend(token),
    onSuccess: (answer) => toast.success('Tickets sent', answer.message),
    onError: (e) => toast.error('Your tickets could not be sent', errorMessage(e)),
  });
  const home = event.urlName && event.status === 'published' ? `/${event.urlName}/` : null;

  return (
    <div className={site.container}>
      <div className={css.wrap} data-testid="order-link-page" data-status={order.paymentStatus}>
        {event.status === 'cancelled' && (
          <Notice kind="warning" data-testid="event-cancelled">
            {cancelledNotice(order)}
          </Notice>
        )}
        <Card title="Your tickets" data-testid="order-link-tickets">
          <p className={css.event}>
            <strong className={css.eventName}>{event.name || order.eventName}</strong>
          </p>
          <ul className={css.facts}>
            <li>
              <IconCalendar size={18} />
              <span data-testid="order-link-when">
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
          {tickets.length > 0 ? (
            <ul className={css.tickets} aria-label="Tickets">
              {tickets.map((t, i) => (
                <li key={i} className={css.ticket} data-testid="order-link-ticket" data-status={t.status}>
                  <span>
                    <span className={css.ticketType}>{t.ticketTypeName}</span>
                    <span className={css.holder}>{t.fullName}</span>
                  </span>
                  <span className={css.ticketSide}>
                    {money(t.price)}
                    {t.status !== 'valid' && <span className={`${css.pill} ${css[t.status]}`}>{t.status === 'voided' ? 'Void' : 'Used'}</span>}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className={site.muted} data-testid="order-link-no-tickets">
              {paid ? 'Your tickets are being issued. They will be e-mailed to you in a moment.' : 'This order has no tickets.'}
            </p>
          )}
          {paid && (
            <div className={css.actions}>
              <Button onClick={() => download.mutate()} disabled={!page.canDownload || download.isPending} data-testid="order-link-download">
                {download.isPending ? 'Preparing…' : 'Download tickets (PDF)'}
              </Button>
              <Button variant="secondary" onClick={() => resend.mutate()} disabled={resend.isPending || order.paymentStatus !== 'paid'} data-testid="order-link-resend">
                <IconMail size={16} /> {resend.isPending ? 'Sending…' : 'Resend by e-mail'}
              </Button>
            </div>
          )}
          {paid && <p className={css.note}>Tickets are sent again to the address the order was placed with, {order.details!.email}.</p>}
        </Card>
        {paid ? (
          <PaidOrder order={order} home={home} cancelled={event.status === 'cancelled'} />
        ) : (
          <Notice kind="info" data-testid="order-link-unpaid">
            Order {order.orderUID} was not completed: {order.paymentStatus}. No tickets were issued.
          </Notice>
        )}
      </div>
    </div>
  );
}

/**
 * A cancelled event's order (issue 21.9): the cancellation refunds it by itself, so the buyer is told
 * that, not to ask the organiser for it. A free order had nothing to give back.
 */
export function cancelledNotice(order: TOrderPage['order']): string {
  const paid = order.paymentStatus === 'paid' && (order.details?.totalAmount ?? 0) > 0;
  return paid
    ? 'This event has been cancelled and your tickets are no longer valid. Your payment is refunded automatically to the card you paid with: there is nothing you need to do. Refunds usually reach your account within 5 to 10 business days.'
    : 'This event has been cancelled and your tickets are no longer valid.';
}

function LinkNotFound() {
  return (
    <div className={site.center}>
      <div className={site.centerBox} data-testid="order-link-not-found">
        <span className={site.centerIcon}>
          <IconMail size={28} />
        </span>
        <h1>Order not found</h1>
        <p className={site.muted}>
          This link does not open an order. Check that you copied the whole link from your e-mail, or ask for your links again with “Find my
          tickets” on the event’s page.
        </p>
        <Link to="/" className={css.textLink}>
          Go to the home page
        </Link>
      </div>
    </div>
  );
}
