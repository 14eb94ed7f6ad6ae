import type { TPublicOrder } from '@marquee/core';
import { useQuery } from '../../site/site-query';
import { useEffect, useState } from 'react';
import { useOutletContext, useSearchParams } from '../../site/site-router';
import { useSiteContext } from '../../../../shared/site-context';
import { isNotFound } from '../../../../ui/api-client';
import { trackPurchase } from '../../cart/analytics';
import { clearCart } from '../../cart/cart-store';
import { EVENT_CANCELLED, eventCancelledBody, isCancelled, type SuccessOutlet } from '../../event-site/components/event-layout';
import site from '../../event-site/components/site.module.css';
import { money } from '../../event-site/format';
import { Button, ButtonLink } from '../../event-site/kit/button';
import { IconClock, IconMail, IconX } from '../../event-site/kit/icons';
import { Modal } from '../../event-site/kit/modal';
import { Notice, Spinner } from '../../event-site/kit/notice';
import { fetchPublicOrder } from '../api';
import { clearPendingOrder, getOrderByUid, markPurchaseTracked } from '../checkout-storage';
import { parseOrderId } from '../order-id';
import { PaidOrder } from './paid-order';
import { embedOrderToken, isEmbedded } from '../../site/embed';
import css from './success.module.css';

const POLL_MS = 2000;
export const PAYMENT_SUCCESS_TITLE = 'Payment Success';


/**
 * /{eventName}/success?orderID={draft order id} (spec §2): 'processing' until the server has the
 * payment (the gateway's webhook may land a moment after the buyer does), then the order. Only an
 * order this browser placed (it holds the order's view token) is shown; the orderID itself is never
 * echoed, so the address cannot put words on the organiser's page.
 */
export function SuccessPage() {
  // The event is null when it is not found any more (unpublished): the order is still shown.
  const { event, eventName } = useOutletContext<SuccessOutlet>();
  const [search] = useSearchParams();
  const orderUID = parseOrderId(search.get('orderID')) ?? '';
  const record = orderUID ? getOrderByUid(orderUID) : null;
  // Issue 28: from the widget in a browser that refuses it storage, the token the snippet kept.
  const token = record?.token ?? embedOrderToken();
  const home = event ? `/${eventName}/` : null;
  const eventCancelled = !!event && isCancelled(event);

  const query = useQuery({
    queryKey: ['site', 'order', orderUID],
    queryFn: ({ signal }) => fetchPublicOrder(orderUID, token, signal),
    enabled: !!orderUID && !!token,
    // A lost connection is retried; an order the server does not know is not.
    refetchInterval: (q) => (q.state.data?.paymentStatus === 'processing' || (q.state.error && !isNotFound(q.state.error)) ? POLL_MS : false),
    retry: (failures, error) => !isNotFound(error) && failures < 3,
    staleTime: 0,
  });
  const order = query.data;
  const paid = order?.paymentStatus === 'paid';
  const [modalOpen, setModalOpen] = useState(false);

  useEffect(() => {
    if (!paid || !order) return;
    clearCart(eventName);
    clearPendingOrder(eventName, order.orderUID);
    // Coming back to the order of an event cancelled since: the order, under the cancellation notice.
    if (!eventCancelled) setModalOpen(true);
    if (order.details && markPurchaseTracked(order.orderUID)) {
      trackPurchase({
        eventTitle: order.eventName,
        transactionId: order.orderUID,
        valueCents: order.details.totalAmount,
        taxCents: order.details.vat,
        coupon: order.details.discountCode,
        items: order.details.orderDetails.map((l) => ({ id: l.order.ticketId, ticketName: l.ticketName, price: l.price, quantity: l.quantity })),
      });
    }
  }, [paid, order, eventName, eventCancelled]);

  if (!orderUID) return <UnknownOrder kind="notAnOrder" home={home} />;
  // Issue 28: in the widget, a browser that refuses it storage (third-party cookies blocked) keeps no token.
  if (!token) return <UnknownOrder kind={isEmbedded() ? 'embedded' : 'otherBrowser'} home={home} />;
  if (!order && isNotFound(query.error)) return <UnknownOrder kind="notAnOrder" home={home} />;
  if (!order) {
    return (
      <div className={site.container}>
        <div className={css.wrap}>
          <Processing />
        </div>
      </div>
    );
  }

  return (
    <div className={site.container}>
      <div className={css.wrap} data-testid="success-page" data-status={order.paymentStatus}>
        {eventCancelled && <CancelledNotice />}
        {order.paymentStatus === 'processing' && <Processing />}
        {(order.paymentStatus === 'expired' || order.paymentStatus === 'cancelled') && (
          <NotCompleted order={order} ticketMenu={event && !eventCancelled ? `/${eventName}/tickets` : null} />
        )}
        {paid && order.details && <PaidOrder order={order} home={home} cancelled={eventCancelled} />}
      </div>
      {paid && order.details && (
        <Modal
          opened={modalOpen}
          onClose={() => setModalOpen(false)}
          title={PAYMENT_SUCCESS_TITLE}
          data-testid="payment-success-modal"
          actions={<Button onClick={() => setModalOpen(false)}>View my order</Button>}
        >
          <p>
            Thank you{order.details.fullName ? `, ${order.details.fullName}` : ''}! Your payment of <strong>{money(order.details.totalAmount)}</strong> went
            through and order <strong>{order.orderUID}</strong> is confirmed.
          </p>
          <p>
            Your tickets are on their way to <strong>{order.details.email}</strong>.
          </p>
          {order.details.donation > 0 && order.details.charityName && <p>Thank you also for your donation to {order.details.charityName}.</p>}
        </Modal>
      )}
    </div>
  );
}

function Processing() {
  return (
    <div className={css.hero} aria-busy="true">
      <span className={`${css.mark} ${css.markPending}`}>
        <Spinner large label="processing" />
      </span>
      <span className={css.status} data-testid="order-status">
        processing
      </span>
      <h1 className={css.title}>Confirming your payment</h1>
      <p className={site.muted}>This usually takes a few seconds. Please keep this page open; it updates by itself.</p>
    </div>
  );
}

/** The buyer's order is shown as before, under the news that the event will not take place. */
function CancelledNotice() {
  const organiser = useSiteContext().tenant?.name ?? '';
  return (
    <Notice kind="warning" data-testid="event-cancelled">
      <strong>{EVENT_CANCELLED}</strong>
      <br />
      {eventCancelledBody(organiser)}
    </Notice>
  );
}

function NotCompleted({ order, ticketMenu }: { order: TPublicOrder; ticketMenu: string | null }) {
  return (
    <div className={css.hero}>
      <span className={`${css.mark} ${css.markOff}`}>{order.paymentStatus === 'expired' ? <IconClock size={32} /> : <IconX size={32} />}</span>
      <span className={css.status} data-testid="order-status">
        {order.paymentStatus}
      </span>
      <h1 className={css.title}>{order.paymentStatus === 'expired' ? 'Your reservation expired' : 'This order was cancelled'}</h1>
      <p className={site.muted} data-testid="order-outcome">
        {order.refund === 'none'
          ? `No payment was taken for order ${order.orderUID}.`
          : `Your payment for order ${order.orderUID} ${order.refund === 'refunded' ? 'was refunded in full' : 'is being refunded in full'}; it can take a few days to reach your card.`}{' '}
        Your tickets were released{ticketMenu ? '; you can choose them again' : ''}.
      </p>
      {ticketMenu && (
        <div className={css.actions}>
          <ButtonLink to={ticketMenu}>TICKET MENU</ButtonLink>
        </div>
      )}
    </div>
  );
}

/**
 * An orderID that is not one of ours, or one this browser did not place (it has no view token for
 * it): nothing is confirmed and nothing from the address is repeated.
 */
function UnknownOrder({ kind, home }: { kind: 'notAnOrder' | 'otherBrowser' | 'embedded'; home: string | null }) {
  return (
    <div className={site.center}>
      <div className={site.centerBox} data-testid="unknown-order" data-kind={kind}>
        <span className={site.centerIcon}>
          <IconMail size={28} />
        </span>
        {kind === 'notAnOrder' ? (
          <>
            <h1>Order not found</h1>
            <p className={site.muted}>This link does not lead to an order. Your order ID is in your confirmation e-mail.</p>
          </>
        ) : kind === 'embedded' ? (
          <>
            <h1>Your tickets come by e-mail</h1>
            <p className={site.muted}>
              If you placed an order, your tickets are e-mailed to you once the payment is confirmed. This browser keeps no order details for this website, so
              they are not shown here.
            </p>
          </>
        ) : (
          <>
            <h1>This order cannot be shown here</h1>
            <p className={site.muted}>
              Order details are shown only in the browser the order was placed in. If you placed an order, your tickets are e-mailed to you once the
              payment is confirmed.
            </p>
          </>
        )}
        {home && (
          <ButtonLink to={home} variant="secondary">
            Back to Home
          </ButtonLink>
        )}
      </div>
    </div>
  );
}
