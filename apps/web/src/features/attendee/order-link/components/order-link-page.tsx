import { M, type TOrderPage } from '@marquee/core';
import { useMutation, useQuery } from '../../site/site-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from '../../site/site-router';
import { useSiteContext } from '../../../../shared/site-context';
import { errorMessage, isNotFound } from '../../../../ui/api-client';
import { PaidOrder } from '../../checkout/components/paid-order';
import site from '../../event-site/components/site.module.css';
import { eventDay, eventTime, money } from '../../event-site/format';
import { Button } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { IconArrowRight, IconCalendar, IconCheck, IconMail, IconPin, IconRefund, IconWallet } from '../../event-site/kit/icons';
import { Notice, Spinner } from '../../event-site/kit/notice';
import { LoadFailed, OrganiserShell } from '../../event-site/kit/organiser-shell';
import { toast } from '../../event-site/kit/toast';
import { orderLinkApi } from '../api';
import success from '../../checkout/components/success.module.css';
import css from './order-link.module.css';
import { TransferTicketModal } from './transfer-ticket-modal';

// Issue 24: the attendees and answers load after the order (and only their code then).
const OrderAnswersCard = lazy(() => import('./order-answers-card'));

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
  if (data) body = <OrderView page={data} token={token} onChanged={() => void query.refetch()} />;
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

type PageTicket = TOrderPage['tickets'][number];

const refundDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
const STATUS_RANK: Record<PageTicket['status'], number> = { valid: 0, used: 1, transferred: 2, voided: 3, refunded: 3 };
const STATUS_LABEL: Record<Exclude<PageTicket['status'], 'valid'>, string> = { used: 'Used', voided: 'Void', refunded: 'Refunded', transferred: 'Transferred' };

function OrderView({ page, token, onChanged }: { page: TOrderPage; token: string; onChanged: () => void }) {
  const { order, event, tickets } = page;
  const [transferring, setTransferring] = useState<PageTicket | null>(null);
  const paid = order.paymentStatus === 'paid' && order.details;
  const cancelled = event.status === 'cancelled';
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
  const valid = tickets.filter((t) => t.status === 'valid').length;
  let number = 0;

  return (
    <div className={site.container}>
      <div className={css.wrap} data-testid="order-link-page" data-status={order.paymentStatus} data-refund={page.refundState}>
        {cancelled && (
          <Notice kind="warning" data-testid="event-cancelled">
            {cancelledNotice(order)}
          </Notice>
        )}
        {paid ? (
          <OrderHero page={page} valid={valid} />
        ) : (
          <Notice kind="info" data-testid="order-link-unpaid">
            Order {order.orderUID} was not completed: {order.paymentStatus}. No tickets were issued.
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
          {valid > 0 && <p className={css.scanHint}>Show each QR code at the entrance; turn your screen brightness up. Each code admits one person once.</p>}
          {tickets.length > 0 ? (
            <ul className={css.tickets} aria-label="Tickets">
              {/* The codes to show at the door first; the tickets that admit no one after them. */}
              {[...tickets]
                .sort((a, b) => STATUS_RANK[a.status] - STATUS_RANK[b.status])
                .map((t, i) => (
                  <TicketItem
                    key={t.ticketId || i}
                    ticket={t}
                    number={t.status === 'valid' ? ++number : null}
                    of={valid}
                    onTransfer={page.canTransfer && t.status === 'valid' ? () => setTransferring(t) : undefined}
                  />
                ))}
            </ul>
          ) : (
            <p className={site.muted} data-testid="order-link-no-tickets">
              {paid ? 'Your tickets are being issued. They will be e-mailed to you in a moment.' : 'This order has no tickets.'}
            </p>
          )}
          {paid && page.refundState !== 'full' && (
            <>
              <div className={css.actions}>
                <Button onClick={() => download.mutate()} disabled={!page.canDownload || download.isPending} data-testid="order-link-download">
                  {download.isPending ? 'Preparing…' : 'Download tickets (PDF)'}
                </Button>
                <Button
                  variant="secondary"
                  onClick={() => resend.mutate()}
                  disabled={resend.isPending || order.paymentStatus !== 'paid' || (tickets.length > 0 && !page.canDownload)}
                  data-testid="order-link-resend"
                >
                  <IconMail size={16} /> {resend.isPending ? 'Sending…' : 'Resend by e-mail'}
                </Button>
              </div>
              <p className={css.note}>Tickets are sent again to the address the order was placed with, {order.details!.email}.</p>
            </>
          )}
        </Card>
        {paid && (
          <Suspense fallback={null}>
            <OrderAnswersCard token={token} />
          </Suspense>
        )}
        {page.refunds.length > 0 && order.details && <RefundsCard page={page} total={order.details.totalAmount} />}
        <TransferTicketModal token={token} ticket={transferring} onClose={() => setTransferring(null)} onDone={onChanged} />
        {paid && <PaidOrder order={order} home={home} cancelled={cancelled} hero={null} />}
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


/** What the order is now, first: paid and on its way, the tickets below, or refunded (issue 21.6, 21.8). */
function OrderHero({ page, valid }: { page: TOrderPage; valid: number }) {
  const { order, event, tickets } = page;
  const d = order.details!;
  const name = event.name || order.eventName;
  const going = event.status === 'cancelled' ? `Your order for ${name}` : `You're going to ${name}!`;
  if (page.refundState === 'full') {
    const pending = page.refunds.some((r) => r.status === 'pending');
    return (
      <div className={success.hero} data-testid="order-link-hero">
        <span className={`${success.mark} ${success.markOff}`}>
          <IconRefund size={32} />
        </span>
        <span className={`${success.status} ${css.statusRefunded}`} data-testid="order-status">
          refunded
        </span>
        <h1 className={success.title}>Your order was refunded</h1>
        <p className={site.muted}>
          {money(page.refundedAmount)} {pending ? 'is on its way back' : 'went back'} to the card you paid with for order {order.orderUID}. Its tickets are no
          longer valid.
        </p>
      </div>
    );
  }
  let line: ReactNode;
  if (tickets.length === 0)
    line = (
      <>
        <IconMail size={16} className={css.inlineIcon} /> Your tickets are on their way to <strong>{d.email}</strong>.
      </>
    );
  else if (valid > 0)
    line = (
      <>
        Your {valid === 1 ? 'ticket is' : 'tickets are'} below: show {valid === 1 ? 'its QR code' : 'their QR codes'} at the entrance. We also e-mailed{' '}
        {valid === 1 ? 'it' : 'them'} to <strong>{d.email}</strong>.
      </>
    );
  else if (tickets.some((t) => t.status === 'transferred') && tickets.every((t) => t.status === 'transferred' || t.status === 'used'))
    line =
      tickets.length === 1 ? (
        <>You passed your ticket on: its new holder has their own QR code, e-mailed to them.</>
      ) : (
        <>You passed your tickets on: each new holder has their own QR code, e-mailed to them.</>
      );
  else line = <>No ticket of this order is valid any more.</>;
  return (
    <div className={success.hero} data-testid="order-link-hero">
      <span className={success.mark}>
        <IconCheck size={36} />
      </span>
      <span className={`${success.status} ${success.statusPaid}`} data-testid="order-status">
        paid
      </span>
      <h1 className={success.title}>{going}</h1>
      <p className={site.muted} data-testid="order-link-summary">
        {line}
      </p>
      {page.refundState === 'partial' && (
        <p className={css.refundNote} data-testid="order-link-refund-note">
          <IconRefund size={16} className={css.inlineIcon} /> {money(page.refundedAmount)} of this order was refunded to your card: see Refunds below.
        </p>
      )}
    </div>
  );
}

/** A valid ticket is its QR code, large enough to scan from a phone; the others say why they admit no one. */
function TicketItem({ ticket: t, number, of, onTransfer }: { ticket: PageTicket; number: number | null; of: number; onTransfer?: () => void }) {
  const price = (
    <span className={css.price}>
      {t.paid !== t.price && <s className={css.listPrice}>{money(t.price)}</s>}
      <span data-testid="order-link-ticket-paid">{money(t.paid)}</span>
    </span>
  );
  if (t.status === 'valid' && t.qrSvg) {
    return (
      <li className={css.pass} data-testid="order-link-ticket" data-status={t.status}>
        <img
          className={css.qr}
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(t.qrSvg)}`}
          alt={`QR code of ticket ${number} of ${of}, ${t.ticketTypeName}`}
          data-testid="order-link-qr"
        />
        <div className={css.passInfo}>
          <span className={css.passCount}>
            Ticket {number} of {of}
          </span>
          <span className={css.ticketType}>{t.ticketTypeName}</span>
          {t.seat && (
            <span className={css.seat} data-testid="order-link-seat">
              {t.seat}
            </span>
          )}
          {t.fullName && <span className={css.holder}>{t.fullName}</span>}
          {price}
          <span className={css.ticketIdLabel}>Ticket ID</span>
          <span className={css.ticketId} data-testid="order-link-ticket-id">
            {t.ticketUID}
          </span>
          {(t.wallet.apple || t.wallet.google) && (
            // Issue 28: plain links, so that the phone hands the pass to its wallet; shown only where the operator set one up.
            <span className={css.walletButtons} data-testid="order-link-wallet">
              {t.wallet.apple && (
                <a className={css.walletButton} href={t.wallet.apple} data-testid="order-link-apple-wallet">
                  <IconWallet size={18} /> {M.addToAppleWallet}
                </a>
              )}
              {t.wallet.google && (
                <a className={css.walletButton} href={t.wallet.google} data-testid="order-link-google-wallet">
                  <IconWallet size={18} /> {M.addToGoogleWallet}
                </a>
              )}
            </span>
          )}
          {onTransfer && (
            <Button variant="light" size="sm" className={css.transferButton} onClick={onTransfer} data-testid="order-link-transfer">
              <IconArrowRight size={16} /> Transfer to someone else
            </Button>
          )}
        </div>
      </li>
    );
  }
  return (
    <li className={css.ticket} data-testid="order-link-ticket" data-status={t.status}>
      <span className={css.ticketMain}>
        <span className={css.ticketType}>{t.ticketTypeName}</span>
        {t.seat && (
          <span className={css.seat} data-testid="order-link-seat">
            {t.seat}
          </span>
        )}
        {!t.transferredTo && <span className={css.holder}>{t.fullName}</span>}
        {t.transferredTo && (
          <span className={css.holder} data-testid="order-link-transferred-to">
            Transferred to {t.transferredTo.fullName} ({t.transferredTo.email}) on {refundDate(t.transferredTo.at)}. Their own QR code was e-mailed to them.
          </span>
        )}
        {t.status !== 'valid' && t.status !== 'used' && t.status !== 'transferred' && t.voidedAt && (
          <span className={css.holder} data-testid="order-link-voided-on">
            {t.status === 'refunded' ? 'Refunded' : 'Voided'} on {refundDate(t.voidedAt)}: this ticket admits no one.
          </span>
        )}
      </span>
      <span className={css.ticketSide}>
        {price}
        {t.status !== 'valid' && <span className={`${css.pill} ${css[t.status]}`}>{STATUS_LABEL[t.status]}</span>}
      </span>
    </li>
  );
}

/** Each refund with its date, newest first, and how much of the order has gone back (issue 21.6). */
function RefundsCard({ page, total }: { page: TOrderPage; total: number }) {
  return (
    <Card title="Refunds" data-testid="order-link-refunds">
      <ul className={css.refunds}>
        {page.refunds.map((r, i) => (
          <li key={i} className={css.refund} data-testid="order-link-refund" data-status={r.status}>
            <span>
              <span className={css.refundLabel}>
                <IconRefund size={16} className={css.inlineIcon} /> Refund to your card
              </span>
              <span className={css.holder}>
                {refundDate(r.date)}
                {r.status === 'pending' && ' · on its way'}
              </span>
            </span>
            <strong className={css.refundAmount}>−{money(r.amount)}</strong>
          </li>
        ))}
      </ul>
      <p className={css.refundTotal} data-testid="order-link-refunded">
        <span>{page.refundState === 'full' ? 'Refunded in full' : 'Refunded so far'}</span>
        <strong>
          {money(page.refundedAmount)} of {money(total)}
        </strong>
      </p>
      <p className={css.note}>Refunds go back to the card you paid with and usually reach your account within 5 to 10 business days.</p>
    </Card>
  );
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
