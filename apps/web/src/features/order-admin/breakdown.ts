import type { TOrderDetail } from '@marquee/core';

export type Line = { label: string; amount: number; negative?: boolean; always?: boolean };

/** spec: reports-payouts-checkout §5 Display: fee, discount and tax lines are hidden when zero or absent. */
export function breakdownLines(d: TOrderDetail['details']): Line[] {
  const lines: Line[] = [
    { label: 'Subtotal', amount: d.subtotal, always: true },
    { label: d.discountCode ? `Discount (${d.discountCode})` : 'Discount', amount: d.discount, negative: true },
    { label: 'Service Fee', amount: d.surcharge },
    { label: 'Processing Fee', amount: d.processingFee },
    { label: d.taxRate ? `Tax (${(d.taxRate / 100).toFixed(2).replace(/\.?0+$/, '')}%)` : 'Tax', amount: d.vat },
    { label: d.charityName ? `Donation to ${d.charityName}` : 'Donation', amount: d.donation },
    { label: 'Donation Fee', amount: d.donationFee },
    { label: 'Online Charge', amount: d.channelCharge },
  ];
  return lines.filter((l) => l.always || l.amount > 0);
}

export type SplitRow = { key: 'organiser' | 'platform' | 'cardFee' | 'charity' | 'refunded'; label: string; atSale: number | null; afterRefunds: number };

/**
 * The "where the money goes" rows (issue 21.10): organiser, platform, card processing fee and the
 * charity's part of the donation (each shown when not zero), and once something was refunded what
 * went back to the buyer. Both columns add up to what the buyer paid.
 */
export function splitRows(d: TOrderDetail['details']): SplitRow[] {
  const x = d.split;
  const rows: SplitRow[] = [
    { key: 'organiser', label: 'Organiser receives', atSale: x.organiser, afterRefunds: x.organiserAfterRefunds },
    { key: 'platform', label: 'Platform keeps', atSale: x.platform, afterRefunds: x.platformAfterRefunds },
  ];
  if (x.cardFee > 0) rows.push({ key: 'cardFee', label: 'Card processing fee', atSale: x.cardFee, afterRefunds: x.cardFee });
  if (x.charity > 0) rows.push({ key: 'charity', label: d.charityName ? `${d.charityName} receives` : 'The charity receives', atSale: x.charity, afterRefunds: x.charity });
  if (x.refunded > 0) rows.push({ key: 'refunded', label: 'Refunded to the buyer', atSale: null, afterRefunds: x.refunded });
  return rows;
}

/** The order's status as the page shows it: a refund says so instead of "Completed" (issue 21.10). */
export function orderStatusBadge(d: Pick<TOrderDetail['details'], 'status' | 'refundState'>): { label: string; color: string } {
  if (d.refundState === 'full') return { label: 'Refunded', color: 'red' };
  if (d.refundState === 'partial') return { label: 'Partially refunded', color: 'orange' };
  if (d.status === 'processing') return { label: 'Processing', color: 'yellow' };
  if (d.status === 'completed') return { label: 'Completed', color: 'teal' };
  return { label: d.status.charAt(0).toUpperCase() + d.status.slice(1), color: 'gray' };
}

/**
 * Which actions the one order page offers (issue 21.10), wherever it is opened from: resend and
 * download need a paid order that still has a valid ticket on an event that is not cancelled
 * (download a completed one, spec §6); refund needs something left to refund; each needs the role.
 */
export function orderActions(order: Pick<TOrderDetail, 'details' | 'tickets'>, can: { canAttend: boolean; canRefund: boolean }) {
  const d = order.details;
  const paid = d.status === 'processing' || d.status === 'completed';
  const hasValidTicket = order.tickets.some((t) => !t.details.voided);
  const live = paid && hasValidTicket && d.refundState !== 'full' && d.eventStatus !== 'cancelled';
  return {
    resend: can.canAttend && live,
    download: can.canAttend && live && d.status === 'completed',
    refund: can.canRefund && d.refundableAmount > 0,
  };
}
