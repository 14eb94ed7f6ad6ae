import type { TPublicOrder } from '@marquee/core';
import type { ReactNode } from 'react';
import { Breakdown } from '../../cart/components/breakdown';
import site from '../../event-site/components/site.module.css';
import { money } from '../../event-site/format';
import { ButtonLink } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { IconCheck, IconHeart, IconMail } from '../../event-site/kit/icons';
import css from './success.module.css';

// The paid order as the success page and the private order page show it. A file of its own, outside
// the checkout's chunk (vite.config.ts NOT_CHECKOUT): the order page loads it without the checkout's
// code (issue 21.8, first-load budget).

/**
 * A paid order: the hero (the order page brings its own, issue 21), the donation's thanks, and the
 * order's details with each line at what it sold for after the discount (issue 21.8).
 */
export function PaidOrder({ order, home, cancelled, hero }: { order: TPublicOrder; home: string | null; cancelled: boolean; hero?: ReactNode | null }) {
  const d = order.details!;
  return (
    <>
      {hero !== undefined ? (
        hero
      ) : (
        <div className={css.hero}>
          <span className={css.mark}>
            <IconCheck size={36} />
          </span>
          <span className={`${css.status} ${css.statusPaid}`} data-testid="order-status">
            paid
          </span>
          <h1 className={css.title}>{cancelled ? `Your order for ${order.eventName}` : `You're going to ${order.eventName}!`}</h1>
          <p className={site.muted}>
            <IconMail size={16} style={{ verticalAlign: '-3px' }} /> Your tickets are on their way to <strong>{d.email}</strong>.
          </p>
        </div>
      )}
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
            <li key={l.order.ticketId} className={css.line} data-testid="order-line">
              <span>
                {l.quantity} × {l.ticketName}
              </span>
              <span className={css.lineAmount}>
                {l.discount > 0 && (
                  <s className={css.listPrice} aria-label={`list price ${money(l.price * l.quantity)}`}>
                    {money(l.price * l.quantity)}
                  </s>
                )}
                <span data-testid="order-line-paid">{money(l.price * l.quantity - l.discount)}</span>
              </span>
            </li>
          ))}
        </ul>
        <Breakdown
          breakdown={{ ...d, gatewayProcessingFee: 0 }}
          fallbackSubtotal={d.subtotal}
          fallbackCount={d.ticketCount}
        />
      </Card>
      {home && (
        <div className={css.actions}>
          <ButtonLink to={home} variant="secondary">
            Back to Home
          </ButtonLink>
        </div>
      )}
    </>
  );
}
