import type { TBreakdown } from '@marquee/core';
import { money } from '../../event-site/format';
import css from './cart.module.css';

export type BreakdownProps = { breakdown: TBreakdown | undefined; stale?: boolean; fallbackSubtotal: number; fallbackCount: number };

/**
 * The cart/checkout breakdown (spec: reports-payouts-checkout §3). Every amount in the Total has a
 * line, so the lines add up to it; fee, discount, tax, charge and donation lines are hidden when
 * zero (§5 Display). Card processing the organiser absorbs (gatewayProcessingFee) is not in the
 * Total and not the buyer's concern.
 */
export function Breakdown({ breakdown, stale, fallbackSubtotal, fallbackCount }: BreakdownProps) {
  const b = breakdown;
  const count = b?.ticketCount ?? fallbackCount;
  return (
    <dl className={`${css.rows} ${stale ? css.pending : ''}`} data-testid="breakdown" aria-busy={stale || undefined}>
      <div className={css.rowItem}>
        <dt>
          Subtotal ({count} ticket{count === 1 ? '' : 's'})
        </dt>
        <dd data-testid="breakdown-subtotal">{money(b?.subtotal ?? fallbackSubtotal)}</dd>
      </div>
      {b && b.discount > 0 && (
        <div className={`${css.rowItem} ${css.rowDiscount}`}>
          <dt>Discount{b.discountCode ? ` (${b.discountCode})` : ''}</dt>
          <dd data-testid="breakdown-discount">−{money(b.discount)}</dd>
        </div>
      )}
      {b && b.surcharge > 0 && (
        <div className={css.rowItem}>
          <dt>Service fee</dt>
          <dd data-testid="breakdown-surcharge">{money(b.surcharge)}</dd>
        </div>
      )}
      {b && b.processingFee > 0 && (
        <div className={css.rowItem}>
          <dt>Processing fee</dt>
          <dd data-testid="breakdown-processing">{money(b.processingFee)}</dd>
        </div>
      )}
      {b && b.vat > 0 && (
        <div className={css.rowItem}>
          <dt>Taxes</dt>
          <dd data-testid="breakdown-vat">{money(b.vat)}</dd>
        </div>
      )}
      {b && b.channelCharge > 0 && (
        <div className={css.rowItem}>
          <dt>Online charge</dt>
          <dd data-testid="breakdown-channel-charge">{money(b.channelCharge)}</dd>
        </div>
      )}
      {b && b.donation > 0 && (
        <div className={css.rowItem}>
          <dt>Donation</dt>
          <dd data-testid="breakdown-donation">{money(b.donation)}</dd>
        </div>
      )}
      {b && b.donationFee > 0 && (
        <div className={css.rowItem}>
          <dt>Donation fee</dt>
          <dd data-testid="breakdown-donation-fee">{money(b.donationFee)}</dd>
        </div>
      )}
      <div className={`${css.rowItem} ${css.rowTotal}`}>
        <dt>Total</dt>
        <dd data-testid="breakdown-total">{b ? money(b.totalAmount) : count === 0 ? money(0) : '—'}</dd>
      </div>
    </dl>
  );
}
