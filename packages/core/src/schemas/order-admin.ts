import { z } from 'zod';
import { M } from '../messages.js';
import { ZReportOrderDetails } from './reports.js';
import { ZResendTicketsResponse, ZTicketsRequest } from './tickets.js';

// The order detail page and its actions (issue 8).
// spec: reports-payouts-checkout §2 Order detail page, §3 Order / Ticket / Refund, §4 Ticket void,
// Refund status, Order status, Order payout state, §5 Actions, §7 tickets/void, resend, download.
// Amounts are integer cents. (No import from ./events.js: events.ts imports ZCancellationProgress from here.)

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
  }),
});
export type TOrderRefund = z.infer<typeof ZOrderRefund>;

export const ORDER_ACTIONS = ['void', 'unvoid', 'refund', 'resend', 'download', 'event_cancelled'] as const;
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
  })
  .superRefine((v, ctx) => {
    if (v.mode === 'amount' && v.amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: M.refundAmountInvalid });
    if (v.mode === 'tickets' && !v.ticketIds?.length) ctx.addIssue({ code: 'custom', path: ['ticketIds'], message: M.refundModeRequired });
  });
export type TRefundRequest = z.input<typeof ZRefundRequest>;

export const ZRefundResponse = z.object({
  /** 'Refund submitted.' */
  message: z.string(),
  refund: ZOrderRefund,
  /** The order as it is now (refunded, refundedAmount, voided tickets). */
  order: ZOrderDetail,
});
export type TRefundResponse = z.infer<typeof ZRefundResponse>;

// ---- event cancellation progress (GET /api/tenants/:tenantId/events/:eventId/cancellation) --

/**
 * The refunds an event's cancellation started: one per paid order. `status` is 'none' when the
 * event is not cancelled, 'running' while any refund is queued or pending, else 'done'.
 */
export const ZCancellationProgress = z.object({
  status: z.enum(['none', 'running', 'done']),
  /** Paid orders to refund. */
  total: z.number().int(),
  refunded: z.number().int(),
  failed: z.number().int(),
  /** Queued or waiting for the gateway. */
  pending: z.number().int(),
  /** Cents returned so far. */
  refundedAmount: z.number().int(),
});
export type TCancellationProgress = z.infer<typeof ZCancellationProgress>;
