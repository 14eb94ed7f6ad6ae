import type { TPublicOrder } from '@marquee/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { trackPurchase } from '../../cart/analytics';
import { clearCart } from '../../cart/cart-store';
import { Breakdown } from '../../cart/components/breakdown';
import { useEventOutlet } from '../../event-site/components/event-layout';
import site from '../../event-site/components/site.module.css';
import { money } from '../../event-site/format';
import { Button, ButtonLink } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { IconCheck, IconClock, IconHeart, IconMail, IconX } from '../../event-site/kit/icons';
import { Modal } from '../../event-site/kit/modal';
import { Spinner } from '../../event-site/kit/notice';
import { fetchPublicOrder } from '../api';
import { clearPendingOrder, getOrderByUid, markPurchaseTracked } from '../checkout-storage';
import css from './success.module.css';

const POLL_MS = 2000;
export const PAYMENT_SUCCESS_TITLE = 'Payment Success';

/**
 * /{eventName}/success?orderID={draft order id} (spec §2): 'processing' until the server has the
 * payment (the gateway's webhook may land a moment after the buyer does), then the order.
 */
export function SuccessPage() {
  const { eventName } = useEventOutlet();
  const [search] = useSearchParams();
  const orderUID = search.get('orderID') ?? '';
  const record = orderUID ? getOrderByUid(orderUID) : null;
  const token = record?.token ?? '';

  const query = useQuery({
    queryKey: ['site', 'order', orderUID],
    queryFn: ({ signal }) => fetchPublicOrder(orderUID, token, signal),
    enabled: !!orderUID && !!token,
    refetchInterval: (q) => (q.state.data?.paymentStatus === 'processing' || q.state.error ? POLL_MS : false),
    retry: 3,
    staleTime: 0,
  });
  const order = query.data;
  const paid = order?.paymentStatus === 'paid';
  const [modalOpen, setModalOpen] = useState(false);

  useEffect(() => {
    if (!paid || !order) return;
    clearCart(eventName);
    clearPendingOrder(eventName, order.orderUID);
    setModalOpen(true);
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
  }, [paid, order, eventName]);

  if (!orderUID || !token) return <UnknownOrder eventName={eventName} orderUID={orderUID} />;
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
        {order.paymentStatus === 'processing' && <Processing />}
        {(order.paymentStatus === 'expired' || order.paymentStatus === 'cancelled') && <NotCompleted order={order} eventName={eventName} />}
        {paid && order.details && <PaidOrder order={order} eventName={eventName} />}
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

function NotCompleted({ order, eventName }: { order: TPublicOrder; eventName: string }) {
  return (
    <div className={css.hero}>
      <span className={`${css.mark} ${css.markOff}`}>{order.paymentStatus === 'expired' ? <IconClock size={32} /> : <IconX size={32} />}</span>
      <span className={css.status} data-testid="order-status">
        {order.paymentStatus}
      </span>
      <h1 className={css.title}>{order.paymentStatus === 'expired' ? 'Your reservation expired' : 'This order was cancelled'}</h1>
      <p className={site.muted}>No payment was taken for order {order.orderUID}. Your tickets were released; you can choose them again.</p>
      <div className={css.actions}>
        <ButtonLink to={`/${eventName}/tickets`}>TICKET MENU</ButtonLink>
      </div>
    </div>
  );
}

function PaidOrder({ order, eventName }: { order: TPublicOrder; eventName: string }) {
  const d = order.details!;
  return (
    <>
      <div className={css.hero}>
        <span className={css.mark}>
          <IconCheck size={36} />
        </span>
        <span className={`${css.status} ${css.statusPaid}`} data-testid="order-status">
          paid
        </span>
        <h1 className={css.title}>You're going to {order.eventName}!</h1>
        <p className={site.muted}>
          <IconMail size={16} style={{ verticalAlign: '-3px' }} /> Your tickets are on their way to <strong>{d.email}</strong>.
        </p>
      </div>
      {d.donation > 0 && d.charityName && (
        <p className={css.donation} data-testid="success-donation">
          <IconHeart size={18} />
          <span>
            Thank you for your donation of <strong>{money(d.donation)}</strong> to <strong>{d.charityName}</strong>.
          </span>
        </p>
      )}
      <Card title="Order details" data-testid="order-details">
        <div className={css.facts}>
          <div>
            <div className={css.factLabel}>Order ID</div>
            <div className={css.factValue} data-testid="order-uid">
              {order.orderUID}
            </div>
          </div>
          <div>
            <div className={css.factLabel}>Name</div>
            <div className={css.factValue}>{d.fullName}</div>
          </div>
          <div>
            <div className={css.factLabel}>Delivery</div>
            <div className={css.factValue}>Print At Home (Email)</div>
          </div>
          <div>
            <div className={css.factLabel}>Date</div>
            <div className={css.factValue}>{new Date(d.dateCreated).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}</div>
          </div>
        </div>
        <ul className={css.lines}>
          {d.orderDetails.map((l) => (
            <li key={l.order.ticketId} className={css.line}>
              <span>
                {l.quantity} × {l.ticketName}
              </span>
              <span>{money(l.price * l.quantity)}</span>
            </li>
          ))}
        </ul>
        <Breakdown
          breakdown={{ ...d, gatewayProcessingFee: 0 }}
          fallbackSubtotal={d.subtotal}
          fallbackCount={d.ticketCount}
        />
      </Card>
      <div className={css.actions}>
        <ButtonLink to={`/${eventName}/`} variant="secondary">
          Back to Home
        </ButtonLink>
      </div>
    </>
  );
}

function UnknownOrder({ eventName, orderUID }: { eventName: string; orderUID: string }) {
  return (
    <div className={site.center}>
      <div className={site.centerBox}>
        <span className={site.centerIcon}>
          <IconMail size={28} />
        </span>
        <h1>Thank you for your order</h1>
        <p className={site.muted}>
          {orderUID ? `Order ${orderUID} was placed in another browser. ` : ''}Once your payment is confirmed, your tickets are e-mailed to you.
        </p>
        <ButtonLink to={`/${eventName}/`} variant="secondary">
          Back to Home
        </ButtonLink>
      </div>
    </div>
  );
}
