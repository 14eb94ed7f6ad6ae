import { z } from 'zod';
import { M } from '../messages.js';
import { ZReportOrderDetails } from './reports.js';
import { ZResendTicketsResponse, ZTicketsRequest } from './tickets.js';

// The order detail page and its actions (issue 8).
// spec: reports-payouts-checkout §2 Order detail page, §3 Order / Ticket / Refund, §4 Ticket void,
// Refund status, Order status, Order payout state, §5 Actions, §7 tickets/void, resend, download.
// Amounts are integer cents. (No import from ./events.js: events.ts imports ZCancellationProgress from here.)

/** The cancel dialog's message to buyers, in characters. */
export const CANCEL_MESSAGE_MAX = 2000;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---- payout state (spec §4 Order payout state) ------------------------------------------------

export const ORDER_PAYOUT_STATES = ['Payout Completed', 'Payout On Hold', 'Payout Ready', 'Payout Pending'] as const;
export type OrderPayoutState = (typeof ORDER_PAYOUT_STATES)[number];

export type OrderPayoutFacts = { payoutCompleted?: boolean | null; onHold?: boolean | null; balanceAvailableOn?: string | Date | null };

/** spec §4: first match wins: completed, on hold, ready (balance available), otherwise pending. */
export function orderPayoutState(facts: OrderPayoutFacts, now: Date = new Date()): OrderPayoutState {
  if (facts.payoutCompleted) return 'Payout Completed';
  if (facts.onHold) return 'Payout On Hold';
  if (facts.balanceAvailableOn && new Date(facts.balanceAvailableOn).getTime() <= now.getTime()) return 'Payout Ready';
  return 'Payout Pending';
}

// ---- refund status (spec §4 Refund status) ----------------------------------------------------

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Who started a refund: the order page, the event's cancellation, or the system after a late or duplicate payment. */
export const REFUND_KINDS = ['organiser', 'event_cancelled', 'hold_expired', 'duplicate_payment'] as const;
export type RefundKind = (typeof REFUND_KINDS)[number];
/**
 * A duplicate payment's refund gives back a second charge, not part of the order's own payment:
 * it never counts against the order (docs/decisions.md "Order management and refunds").
 */
export const NOT_ORDER_MONEY = 'duplicate_payment' satisfies RefundKind;

/** spec §4: the part after a hash dropped, underscores to spaces, words capitalised ('partially_refunded#x' -> 'Partially Refunded'). */
export function refundStatusText(status: string): string {
  return (status.split('#')[0] ?? '')
    .replace(/_/g, ' ')
    .split(' ')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
}

// ---- order detail (GET /api/tenants/:tenantId/events/:eventId/orders/:orderUID) --------------

/** spec §3 Ticket, as the order breakdown shows it (`voided`; the ticket list spells it `vioded`). */
export const ZOrderTicket = z.object({
  id: z.string(),
  details: z.object({
    ticketId: z.string(),
    ticketUID: z.string(),
    orderId: z.string(),
    fullName: z.string(),
    email: z.string(),
    contactNumber: z.string().nullable(),
    ticketTypeId: z.string(),
    ticketTypeName: z.string(),
    ticketPrice: z.number().int(),
    used: z.boolean(),
    voided: z.boolean(),
    voidReason: z.string().nullable(),
    voidedAt: z.string().nullable(),
    /** The e-mail of whoever last voided or unvoided it. */
    voidedBy: z.string().nullable(),
    /** Set when a refund voided this ticket: it cannot be unvoided. */
    refundId: z.string().nullable(),
    dateCreated: z.string(),
  }),
});
export type TOrderTicket = z.infer<typeof ZOrderTicket>;

/** spec §3 Refund (under details), plus how it was split and why it failed. */
export const ZOrderRefund = z.object({
  id: z.string(),
  details: z.object({
    orderUID: z.string(),
    chargeId: z.string().nullable(),
    eventId: z.string(),
    eventName: z.string(),
    fullName: z.string(),
    /** The customer's e-mail (spec: userId). */
    userId: z.string(),
    phone: z.string().nullable(),
    ticketIds: z.array(z.string()),
    status: z.enum(REFUND_STATUSES),
    kind: z.enum(REFUND_KINDS),
    refundAmount: z.number().int(),
    tenantAmount: z.number().int(),
    platformAmount: z.number().int(),
    refundReason: z.string(),
    failureReason: z.string().nullable(),
    /** The e-mail of who asked for it; null for the system. */
    createdBy: z.string().nullable(),
    transactionDate: z.string(),
    /** Issue 23: how a box-office order's money went back (cash from a drawer, the venue's terminal); null: through the gateway. */
    refundMethod: z.enum(['cash', 'card_terminal']).nullable(),
    terminalReference: z.string().nullable(),
    /**
     * Issue 23: owed at the box office (a cancelled event's refund of a cash or card-terminal order:
     * no gateway can give it back); staff settle it (POST …/refunds/:refundId/settle).
     */
    owedAtBoxOffice: z.boolean(),
  }),
});
export type TOrderRefund = z.infer<typeof ZOrderRefund>;

/** transfer (issue 24): the buyer passed a ticket on from the order link. */
export const ORDER_ACTIONS = ['void', 'unvoid', 'refund', 'resend', 'download', 'event_cancelled', 'transfer'] as const;
export type OrderActionKind = (typeof ORDER_ACTIONS)[number];

/** One line of the order's audit trail: who did what, when and why. */
export const ZOrderAction = z.object({
  id: z.string(),
  action: z.enum(ORDER_ACTIONS),
  ticketId: z.string().nullable(),
  reason: z.string(),
  /** null: the system. */
  userEmail: z.string().nullable(),
  /** What the action needs to be understood later (amount, refund id, address mailed). */
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type TOrderAction = z.infer<typeof ZOrderAction>;

// ---- refunds and the split on the order page (issue 21.10) ------------------------------------

export const ORDER_REFUND_STATES = ['none', 'partial', 'full'] as const;
export type OrderRefundState = (typeof ORDER_REFUND_STATES)[number];

/** Whether the order's succeeded refunds gave back nothing, part or all of what was paid. */
export function orderRefundState(o: { totalAmount: number; refundedAmount: number }): OrderRefundState {
  if (o.refundedAmount <= 0) return 'none';
  return o.refundedAmount >= o.totalAmount ? 'full' : 'partial';
}

/**
 * Where an order's money goes (docs/pricing.md "Who keeps what"): the organiser (its share with
 * the tax it remits), the platform, the card processor (the order's estimate of the card cost) and
 * the charity (the donation less its fee). At the sale the four add up to what the customer paid;
 * after the succeeded refunds the organiser's and the platform's shares lose their part of each
 * refund (core splitRefund), the card processor keeps its fee, and `refunded` went back to the
 * buyer, so that column adds up to what was paid as well.
 */
export const ZOrderSplit = z.object({
  organiser: z.number().int(),
  platform: z.number().int(),
  cardFee: z.number().int(),
  charity: z.number().int(),
  /** Succeeded refunds (the order's own payment), in all and each share's part of them. */
  refunded: z.number().int(),
  organiserRefunded: z.number().int(),
  platformRefunded: z.number().int(),
  /** organiser - organiserRefunded: negative when the refunds took back more than the organiser's share (the card fee is not returned). */
  organiserAfterRefunds: z.number().int(),
  platformAfterRefunds: z.number().int(),
});
export type TOrderSplit = z.infer<typeof ZOrderSplit>;

// ---- a cancelled event's refund of one order, and its retries (issue 21.13) ---------------------

/**
 * A cancellation refund the gateway refuses (or that cannot reach it) is asked again, a new refund
 * for what is still held, after each of these waits (minutes): 5 minutes, 30 minutes, 2 hours,
 * 8 hours, a day. After the last try it stays failed for the organiser to refund from the order page.
 */
export const CANCEL_REFUND_RETRY_MINUTES = [5, 30, 120, 480, 1440] as const;
/** The first try and one per wait above. */
export const CANCEL_REFUND_MAX_TRIES = CANCEL_REFUND_RETRY_MINUTES.length + 1;

/**
 * pending: queued, or asked of the gateway and not answered yet; refunded: the money went back
 * (by the cancellation or, after a failure, from the order page); retrying: the last try failed and
 * the next is scheduled; failed: every try failed, or no retry is scheduled; not_needed: nothing was
 * held any more (refunded in full before the cancellation).
 */
export const CANCELLATION_REFUND_STATES = ['pending', 'refunded', 'retrying', 'failed', 'not_needed'] as const;
export type CancellationRefundState = (typeof CANCELLATION_REFUND_STATES)[number];

export const ZCancellationRefund = z.object({
  state: z.enum(CANCELLATION_REFUND_STATES),
  /** What the cancellation gives back: the latest try's amount, or what is still held before the first. */
  amount: z.number().int(),
  /** Tries made so far (each one a refund row) and how many there will be at most. */
  tries: z.number().int(),
  maxTries: z.number().int(),
  /** When the next try runs (retrying only). */
  nextTryAt: z.string().nullable(),
  /** Why the latest try failed. */
  failureReason: z.string().nullable(),
});
export type TCancellationRefund = z.infer<typeof ZCancellationRefund>;

/**
 * spec §3 Order as the order page shows it: the reports' Order row (one definition of the §3
 * fields) plus what the page needs to act on it.
 */
export const ZOrderDetails = ZReportOrderDetails.extend({
  /** null when the gateway did not say (the reports' CSV writes ''). */
  paymentMethod: z.string().nullable(),
  /** processing | completed | cancelled (spec §4 Order status; resend is the claim e-mail while processing) */
  status: z.string(),
  /** What can still be refunded: totalAmount less succeeded and pending refunds. */
  refundableAmount: z.number().int(),
  charityName: z.string().nullable(),
  channelCharge: z.number().int(),
  tenantTotal: z.number().int(),
  platformTotal: z.number().int(),
  /** spec §4 Order payout state. */
  payoutState: z.enum(ORDER_PAYOUT_STATES),
  /** The event's status (draft | published | cancelled): a cancelled event's orders offer no resend or download. */
  eventStatus: z.string(),
  /** What the succeeded refunds gave back of what was paid (orderRefundState; issue 21.10). */
  refundState: z.enum(ORDER_REFUND_STATES),
  /** Where the order's money goes, at the sale and after its succeeded refunds (issue 21.10). */
  split: ZOrderSplit,
});
export type TOrderDetails = z.infer<typeof ZOrderDetails>;

export const ZOrderDetail = z.object({
  id: z.string(),
  details: ZOrderDetails,
  tickets: z.array(ZOrderTicket),
  /** Newest first. */
  refunds: z.array(ZOrderRefund),
  /** Newest first. */
  actions: z.array(ZOrderAction),
  /** The refund its event's cancellation owes this order, with its retries; null when the event is not cancelled or the order took no money. */
  cancellationRefund: ZCancellationRefund.nullable(),
});
export type TOrderDetail = z.infer<typeof ZOrderDetail>;

// ---- void (POST /api/tenants/:tenantId/events/:eventId/tickets/void) -----------------------

const zVoidId = z
  .string({ error: M.voidIdsMissing })
  .trim()
  .min(1, M.voidIdsMissing)
  .max(64, M.voidIdsMissing);

/** spec §7: ticketId, orderUID, void (the state wanted), reason (required, §5). */
export const ZVoidTicketRequest = z.object({
  ticketId: zVoidId,
  orderUID: zVoidId,
  void: z.boolean({ error: M.invalidValue }),
  reason: z.string({ error: M.reasonRequired }).trim().min(1, M.reasonRequired).max(500, M.invalidValue),
});
export type TVoidTicketRequest = z.input<typeof ZVoidTicketRequest>;

export const ZVoidTicketResponse = z.object({
  success: z.literal(true),
  /** 'Ticket Voided' (spec §8) or 'Ticket Unvoided'. */
  message: z.string(),
  ticket: ZOrderTicket,
});
export type TVoidTicketResponse = z.infer<typeof ZVoidTicketResponse>;

// ---- resend / download (POST …/events/:eventId/resend, …/download) ------------------------

/** spec §7: `{orderUID, email}` for both; download answers the PDF (tickets_{orderUID}.pdf). */
export const ZResendTicketsRequest = ZTicketsRequest;
export type TResendTicketsRequest = z.input<typeof ZResendTicketsRequest>;
export const ZDownloadTicketsRequest = ZTicketsRequest;
export type TDownloadTicketsRequest = z.input<typeof ZDownloadTicketsRequest>;
export { ZResendTicketsResponse };

// ---- refunds (POST /api/tenants/:tenantId/events/:eventId/orders/:orderUID/refunds) --------

/**
 * One of three: `full` (what is left of the order), `amount` (cents, a partial refund), or
 * `tickets` (those tickets are voided and returned to sale; the amount is their share of what was
 * paid unless `amount` is given). The reason is required, like a void's.
 */
export const ZRefundRequest = z
  .object({
    mode: z.enum(['full', 'amount', 'tickets'], { error: M.refundModeRequired }),
    amount: z.number({ error: M.refundAmountInvalid }).int(M.refundAmountInvalid).min(1, M.refundAmountInvalid).max(100_000_000, M.refundExceedsPaid).optional(),
    ticketIds: z.array(z.string({ error: M.ticketNotInOrder }).regex(UUID_RE, M.ticketNotInOrder)).max(500, M.invalidValue).optional(),
    reason: z.string({ error: M.reasonRequired }).trim().min(1, M.reasonRequired).max(500, M.invalidValue),
    /**
     * Issue 23, a box-office order paid in cash or on the venue's terminal only: how the money goes
     * back (cash from the refunder's open drawer, or the terminal with its refund reference).
     */
    refundMethod: z.enum(['cash', 'card_terminal'], { error: M.refundMethodRequired }).optional(),
    terminalReference: z.string().trim().max(100, M.invalidValue).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.refundMethod === 'card_terminal' && !v.terminalReference) ctx.addIssue({ code: 'custom', path: ['terminalReference'], message: M.refundTerminalReferenceRequired });
    if (v.mode === 'amount' && v.amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: M.refundAmountInvalid });
    if (v.mode === 'tickets' && !v.ticketIds?.length) ctx.addIssue({ code: 'custom', path: ['ticketIds'], message: M.refundModeRequired });
  });
export type TRefundRequest = z.input<typeof ZRefundRequest>;

/**
 * POST …/orders/:orderUID/refunds/:refundId/settle (issue 23): a refund owed at the box office (a
 * cash or card-terminal order of a cancelled event) is paid back, in cash from the settler's open
 * drawer or on the venue's terminal with its refund reference.
 */
export const ZSettleRefundRequest = z
  .object({
    refundMethod: z.enum(['cash', 'card_terminal'], { error: M.refundMethodRequired }),
    terminalReference: z.string().trim().max(100, M.invalidValue).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.refundMethod === 'card_terminal' && !v.terminalReference) ctx.addIssue({ code: 'custom', path: ['terminalReference'], message: M.refundTerminalReferenceRequired });
  });
export type TSettleRefundRequest = z.input<typeof ZSettleRefundRequest>;

export const ZRefundResponse = z.object({
  /** 'Refund submitted.' */
  message: z.string(),
  refund: ZOrderRefund,
  /** The order as it is now (refunded, refundedAmount, voided tickets). */
  order: ZOrderDetail,
});
export type TRefundResponse = z.infer<typeof ZRefundResponse>;

// ---- event cancellation progress (GET /api/tenants/:tenantId/events/:eventId/cancellation) --

/** One order whose cancellation refund failed: being retried, or given up on (issue 21.13). */
export const ZCancellationProblem = ZCancellationRefund.extend({
  orderUID: z.string(),
  state: z.enum(['retrying', 'failed']),
});
export type TCancellationProblem = z.infer<typeof ZCancellationProblem>;

/** One refund owed at the box office (issue 23), as the cancellation's progress lists it. */
export const ZOwedRefund = z.object({
  orderUID: z.string(),
  refundId: z.string(),
  amount: z.number().int(),
  /** How the order was paid: cash or card_terminal. */
  paymentMethod: z.string(),
  fullName: z.string(),
});
export type TOwedRefund = z.infer<typeof ZOwedRefund>;

/**
 * The refunds an event's cancellation started: one per paid order that still held money.
 * `status` is 'running' while any is queued, pending or being retried, 'done' after, and 'none'
 * when the event is not cancelled: the figures are then what cancelling it now would do (the
 * cancel dialog's preview). Amounts are what is actually left to refund, never what was paid.
 */
export const ZCancellationProgress = z.object({
  status: z.enum(['none', 'running', 'done']),
  /** Paid orders the cancellation refunds (they held money when it reached them). */
  total: z.number().int(),
  /** Of them: given back in full, failed for good, being retried, queued or waiting for the gateway. */
  refunded: z.number().int(),
  failed: z.number().int(),
  retrying: z.number().int(),
  pending: z.number().int(),
  /** What the cancellation gives back in all (what was still held), and what it has given back so far. */
  toRefund: z.number().int(),
  refundedAmount: z.number().int(),
  /** Paid orders already refunded in full before the cancellation: nothing more goes back. */
  alreadyRefunded: z.number().int(),
  /** What refunds from the order pages gave back of these orders (before the cancellation, or by hand after a failure). */
  refundedElsewhere: z.number().int(),
  /** Orders whose buyer is told (every paid or issued order with an address, free ones included). */
  notices: z.number().int(),
  /** The orders whose refund failed, retried first, at most 50. */
  problems: z.array(ZCancellationProblem),
  /**
   * Issue 23: box-office orders paid in cash or on the venue's terminal, whose refunds are owed at
   * the box office (no gateway can give that money back) until staff settle them: how many, and how much.
   */
  owedAtBoxOffice: z.object({ orders: z.number().int(), amount: z.number().int() }),
  /** Of those box-office refunds, the ones staff have settled (paid back at the box office): how many, and how much. */
  settledAtBoxOffice: z.object({ orders: z.number().int(), amount: z.number().int() }),
  /** Those owed refunds, oldest first, at most 50: each to settle from the event page or the order's. */
  owedRefunds: z.array(ZOwedRefund),
});
export type TCancellationProgress = z.infer<typeof ZCancellationProgress>;

/** POST …/events/:eventId/cancel: an optional message to the buyers, put in the cancellation notice. */
export const ZCancelEventRequest = z
  .object({
    message: z.string({ error: M.invalidValue }).trim().max(CANCEL_MESSAGE_MAX, M.cancelMessageTooLong).optional(),
  })
  .optional();
export type TCancelEventRequest = z.input<typeof ZCancelEventRequest>;
