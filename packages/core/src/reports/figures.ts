// The one definition of each report figure (docs/reports.md, with a worked example). The server
// computes the same sums in SQL (apps/server/src/modules/reports/figures-sql.ts); a test checks
// that the dashboards, the lists and the CSV exports all agree with these functions.

import { mulDivHalfUp } from '../pricing/integer-math.js';

/** Orders that were paid for: spec reports-payouts-checkout §4, order status processing and completed. */
export const PAID_ORDER_STATUSES = ['processing', 'completed'] as const;

/** Refunds that count: the gateway confirmed them. Pending and failed refunds move no money. */
export const COUNTED_REFUND_STATUS = 'succeeded';

export type FigureOrder = {
  status: string;
  totalAmount: number;
  surcharge: number;
  processingFee: number;
  vat: number;
  donation: number;
  donationFee: number;
  discount: number;
  /** The organiser's share of the order (sellerNet + vat, docs/pricing.md "Who keeps what"). */
  tenantTotal: number;
};
export type FigureRefund = { status: string; amount: number; tenantAmount: number };
export type FigureTicket = { price: number; voided: boolean; used: boolean };

export type Figures = {
  grossSales: number;
  netRevenue: number;
  serviceFees: number;
  processingFees: number;
  tax: number;
  donations: number;
  donationFees: number;
  discounts: number;
  refunds: number;
  /** The organiser's share of the succeeded refunds (what came off NET REVENUE). */
  tenantRefunds: number;
  /** The tax the succeeded refunds gave back (refundedTax per order). */
  taxRefunded: number;
  ticketsSold: number;
  complimentary: number;
  used: number;
  orders: number;
};

export const isPaidOrder = (status: string) => (PAID_ORDER_STATUSES as readonly string[]).includes(status);
export const isCountedRefund = (status: string) => status === COUNTED_REFUND_STATUS;

/** A ticket of a paid order that was not voided: what # TICKETS SOLD and # COMPLIMENTARY count. */
export const isValidTicket = (t: FigureTicket) => !t.voided;
export const isSoldTicket = (t: FigureTicket) => isValidTicket(t) && t.price > 0;
export const isComplimentaryTicket = (t: FigureTicket) => isValidTicket(t) && t.price === 0;
export const isUsedTicket = (t: FigureTicket) => isValidTicket(t) && t.used;

export type FigureOrderWithParts = FigureOrder & { refunds: readonly FigureRefund[]; tickets: readonly FigureTicket[] };

/**
 * Every figure over a set of orders with their refunds and tickets. Unpaid orders (drafts holding
 * tickets, expired, cancelled) count for nothing, their refunds and tickets included.
 *
 * - gross sales: what customers paid (totalAmount), before refunds
 * - net revenue: the organiser's share (tenantTotal) less the organiser's share of succeeded refunds
 * - service fees: the service fee customers paid (surcharge); processing fees: processingFee
 * - tax: vat; donations: donation; donation fees: donationFee; discounts: discount
 * - refunds: succeeded refunds (amount)
 * - tickets sold: valid (not voided) tickets priced above 0; complimentary: valid tickets priced 0;
 *   used: valid tickets scanned at the door
 */
export function computeFigures(orders: readonly FigureOrderWithParts[]): Figures {
  const f: Figures = {
    grossSales: 0, netRevenue: 0, serviceFees: 0, processingFees: 0, tax: 0, donations: 0, donationFees: 0,
    discounts: 0, refunds: 0, tenantRefunds: 0, taxRefunded: 0, ticketsSold: 0, complimentary: 0, used: 0, orders: 0,
  };
  for (const o of orders) {
    if (!isPaidOrder(o.status)) continue;
    const counted = o.refunds.filter((r) => isCountedRefund(r.status));
    const refunded = counted.reduce((s, r) => s + r.amount, 0);
    const tenantRefunded = counted.reduce((s, r) => s + r.tenantAmount, 0);
    f.orders += 1;
    f.grossSales += o.totalAmount;
    f.netRevenue += o.tenantTotal - tenantRefunded;
    f.serviceFees += o.surcharge;
    f.processingFees += o.processingFee;
    f.tax += o.vat;
    f.donations += o.donation;
    f.donationFees += o.donationFee;
    f.discounts += o.discount;
    f.refunds += refunded;
    f.tenantRefunds += tenantRefunded;
    f.taxRefunded += refundedTax({ vat: o.vat, totalAmount: o.totalAmount, refunded });
    f.ticketsSold += o.tickets.filter(isSoldTicket).length;
    f.complimentary += o.tickets.filter(isComplimentaryTicket).length;
    f.used += o.tickets.filter(isUsedTicket).length;
  }
  return f;
}

/**
 * The tax an order's succeeded refunds gave back: its tax in proportion to the part of what was paid
 * that went back (vat x refunded / totalAmount, half up), so a full refund gives back all of it and
 * a half refund half of it. A refund does not say which lines it returns; pro rata is the rule card
 * processors' tax tools apply to a partial refund (docs/reports.md "After refunds").
 */
export function refundedTax(o: { vat: number; totalAmount: number; refunded: number }): number {
  if (o.vat <= 0 || o.totalAmount <= 0 || o.refunded <= 0) return 0;
  return mulDivHalfUp(o.vat, Math.min(o.refunded, o.totalAmount), o.totalAmount);
}

/**
 * "Sold" wherever a console shows stock: paid tickets (isPaidOrder, not voided: a refund voids its
 * tickets), the same count as # TICKETS SOLD plus complimentary. What else the stock has given
 * out is held by checkouts still open ("in checkouts"), shown apart and never called sold.
 */
export function soldAndHeld(opts: { givenOut: number; paidTickets: number }): { sold: number; held: number } {
  const sold = Math.max(0, opts.paidTickets);
  return { sold, held: Math.max(0, opts.givenOut - sold) };
}
