import { z } from 'zod';
import { M } from '../messages.js';
import { zListResponse, zResource } from './list.js';

// spec: reports-payouts-checkout §3 Payout details, Payout order row, Payout order in a payout
// breakdown, Completed payout, Transfer result; §4 Payout row status, Hold toggle; §5 payout
// filters; §7 payout/hold, transfer/payout-orders. Money is integer cents; dates are ISO strings.

export const FACILITATORS = ['platform', 'tenant'] as const;
export type Facilitator = (typeof FACILITATORS)[number];

/** spec §4 Payout row status. */
export const PAYOUT_ROW_STATUSES = ['Ready For Payout', 'Pending'] as const;
export type PayoutRowStatus = (typeof PAYOUT_ROW_STATUSES)[number];

/**
 * What keeps a payout line from being transferred now, the first that applies, else null: the one
 * rule "this payout line is ready" (issue 21.17, issue 22). A refund line is never transferred on its
 * own (it is carried into the tenant's next payout, docs/payouts.md); spec §4 Row selection: not
 * tenant-facilitated, not paid, not on hold, available. The server's transfer refuses with the
 * blocker's message, the pending table shows 'Ready For Payout' and offers the checkbox only when
 * there is none, and SQL mirrors it as mq_payout_line_ready (apps/server/src/db/functions).
 */
export const PAYOUT_LINE_BLOCKERS = ['refund', 'netting', 'tenantFacilitated', 'paid', 'inPayout', 'onHold', 'notAvailable'] as const;
export type PayoutLineBlocker = (typeof PAYOUT_LINE_BLOCKERS)[number];
/**
 * sale: an order paid through the platform; refund: a refund of one (negative); netting (issue 23):
 * an order paid in cash or on the venue's own terminal, whose money the tenant already holds: the
 * platform's share of it is taken from the tenant's next payout (docs/payouts.md "Netting").
 */
export const PAYOUT_LINE_KINDS = ['sale', 'refund', 'netting'] as const;
export type PayoutLineKind = (typeof PAYOUT_LINE_KINDS)[number];

export type PayoutLineFacts = {
  kind: PayoutLineKind;
  facilitator: Facilitator;
  onHold: boolean;
  payoutCompleted: boolean;
  /** Claimed by a payout that is being sent (payoutId set, not completed). */
  inPayout: boolean;
  balanceAvailableOn: string | Date;
};

export function payoutLineBlocker(line: PayoutLineFacts, now: Date = new Date()): PayoutLineBlocker | null {
  if (line.kind === 'refund') return 'refund';
  if (line.kind === 'netting') return 'netting';
  if (line.facilitator !== 'platform') return 'tenantFacilitated';
  if (line.payoutCompleted) return 'paid';
  if (line.inPayout) return 'inPayout';
  if (line.onHold) return 'onHold';
  if (new Date(line.balanceAvailableOn).getTime() > now.getTime()) return 'notAvailable';
  return null;
}

/** The line can be transferred now (spec §4 Row selection; issue 21.17: only transferable rows are ready). */
export const payoutLineReady = (line: PayoutLineFacts, now: Date = new Date()): boolean => payoutLineBlocker(line, now) === null;

/** The facts of a pending-table row (its details as the API sends them). */
export const payoutRowFacts = (d: { kind: PayoutLineKind; facilitator: Facilitator; onHold: boolean; payoutCompleted: boolean; payoutId: string | null; balanceAvailableOn: string }): PayoutLineFacts => ({
  kind: d.kind,
  facilitator: d.facilitator,
  onHold: d.onHold,
  payoutCompleted: d.payoutCompleted,
  inPayout: d.payoutId !== null && !d.payoutCompleted,
  balanceAvailableOn: d.balanceAvailableOn,
});

/** Why a chosen order was not transferred (the transfer answer's failedOrderPayouts message). */
export const PAYOUT_BLOCKER_MESSAGES: Record<PayoutLineBlocker, string> = {
  refund: M.payoutRefundLine,
  netting: M.payoutNettingLine,
  tenantFacilitated: M.payoutTenantFacilitated,
  paid: M.payoutAlreadyPaid,
  inPayout: M.payoutInProgress,
  onHold: M.payoutOnHold,
  notAvailable: M.payoutNotAvailable,
};

/**
 * spec §4 Payout row status: 'Ready For Payout' for a line that can be transferred now, otherwise
 * 'Pending'. The spec's wording reads "available and not paid"; a held, refund or tenant-facilitated
 * line is not transferable, so it is not shown as ready (issue 21.17, docs/decisions.md).
 */
export function payoutRowStatus(line: PayoutLineFacts, now: Date = new Date()): PayoutRowStatus {
  return payoutLineReady(line, now) ? 'Ready For Payout' : 'Pending';
}

/** spec §4: Manual when the platform facilitated the payment, else Automatic. */
export const payoutTypeLabel = (facilitator: Facilitator) => (facilitator === 'platform' ? 'Manual' : 'Automatic');

/** The domain codes a transfer's failure may carry (packages/core errors.ts DOMAIN_ERRORS). */
export const TRANSFER_FAILURE_CODES = ['TRANSFER_DESTINATION_MISSING'] as const;
export type TransferFailureCode = (typeof TRANSFER_FAILURE_CODES)[number];

/** spec §8: a transfer's failure message, with the hint appended when its code says the tenant has no payout account. */
export function transferFailureText(failure: { message?: string | null; domainCode?: TransferFailureCode | null }): string {
  const text = failure.message || M.transferFailed;
  return failure.domainCode === 'TRANSFER_DESTINATION_MISSING' ? `${text}${M.contactTenantOwner}` : text;
}

/**
 * A payout row's last failure (`lastFailure`, kept as the gateway's text without a code), with the
 * same hint: the stored text is all there is, so spec §8's own rule reads it ('gateway destination
 * not found' in it).
 */
export function storedTransferFailureText(lastFailure: string): string {
  return transferFailureText({ message: lastFailure, domainCode: lastFailure.includes(M.gatewayDestinationNotFound) ? 'TRANSFER_DESTINATION_MISSING' : null });
}

/** spec §8: 'Payout for order: {id} has been held/released'. */
export const payoutHoldToast = (orderUid: string, held: boolean) => `Payout for order: ${orderUid} has been ${held ? 'held' : 'released'}`;

// ---- rows ---------------------------------------------------------------------------------------

/** spec §3 Payout order row (pending payouts and payout transactions). */
export const ZPayoutOrderRowDetails = z.object({
  orderUID: z.string(),
  orderId: z.string(),
  /**
   * sale: the order's payment; refund: a refund carried into the tenant's next payout (negative);
   * netting: a box-office order paid in cash or on the venue's terminal, the platform's share taken
   * from the next payout (tenantTotal negative; positive for a refund of one).
   */
  kind: z.enum(PAYOUT_LINE_KINDS),
  /** Issue 23: how the order was paid (card, cash, card_terminal, complimentary), null when unknown. */
  paymentMethod: z.string().nullable(),
  /** Issue 23: where it was sold (ONLINE, BACKEND, APP). */
  channel: z.string(),
  balanceAvailableOn: z.string(),
  dateCreated: z.string(),
  tenantURL: z.string(),
  /** Our addition: the tenant's name, which people know it by (issue 21.19). */
  tenantName: z.string(),
  tenantId: z.string(),
  eventName: z.string(),
  eventId: z.string(),
  /** null is shown as N/A */
  chargeId: z.string().nullable(),
  status: z.enum(PAYOUT_ROW_STATUSES),
  facilitator: z.enum(FACILITATORS),
  grossAmount: z.number().int(),
  tenantTotal: z.number().int(),
  platformTotal: z.number().int(),
  gatewayFee: z.number().int(),
  netAmount: z.number().int(),
  payoutCompleted: z.boolean(),
  onHold: z.boolean(),
  /** The payout it went into (or is going into), else null. */
  payoutId: z.string().nullable(),
  /** Why the last transfer attempt of this line failed, else null. */
  lastFailure: z.string().nullable(),
});
export const ZPayoutOrderRow = zResource(ZPayoutOrderRowDetails);
export type TPayoutOrderRow = z.infer<typeof ZPayoutOrderRow>;
export const ZPayoutOrderList = zListResponse(ZPayoutOrderRow);
export type TPayoutOrderList = z.infer<typeof ZPayoutOrderList>;

/** spec §3 Payout details. */
export const ZPayoutDetails = z.object({
  payoutId: z.string(),
  dateCreated: z.string(),
  grossAmount: z.number().int(),
  creditCardProcessingFee: z.number().int(),
  netAmount: z.number().int(),
  tenantTotal: z.number().int(),
  platformTotal: z.number().int(),
  tenantId: z.string(),
  tenantURL: z.string(),
  tenantName: z.string(),
  balanceAvailableOn: z.string().nullable(),
  payoutCompleted: z.boolean(),
  onHold: z.boolean(),
  /** Our addition: the gateway's transfer id. */
  transferId: z.string().nullable(),
  automatic: z.boolean(),
});
export const ZPayout = zResource(ZPayoutDetails);
export type TPayout = z.infer<typeof ZPayout>;

/** spec §3 Payout order in a payout breakdown. */
export const ZPayoutBreakdownDetails = z.object({
  orderUID: z.string(),
  orderId: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  kind: z.enum(PAYOUT_LINE_KINDS),
  /** Issue 23: how the order was paid; a netting row is a cash or card-terminal order. */
  paymentMethod: z.string().nullable(),
  gatewayFee: z.number().int(),
  grossAmount: z.number().int(),
  tenantTotal: z.number().int(),
  platformTotal: z.number().int(),
  netAmount: z.number().int(),
});
/** spec §3: the wrapper has id (payout id) and a cursor-paged result list with count. */
export const ZPayoutBreakdownList = z.object({
  id: z.string(),
  result: z.array(zResource(ZPayoutBreakdownDetails)),
  count: z.number().int(),
  cursor: z.string().nullable(),
});
export type TPayoutBreakdownList = z.infer<typeof ZPayoutBreakdownList>;

/** spec §3 Completed payout. */
export const ZCompletedPayoutDetails = z.object({
  payoutId: z.string(),
  tenantURL: z.string(),
  /** Our addition: the tenant's name (issue 21.19). */
  tenantName: z.string(),
  tenantId: z.string(),
  /** The event's name when every order is of one event, else the names joined with ', '. */
  eventName: z.string(),
  orderUIDs: z.array(z.string()),
  ticketCount: z.number().int(),
  facilitator: z.enum(FACILITATORS),
  chargeGatewayFeesToPlatform: z.boolean(),
  grossAmount: z.number().int(),
  creditCardProcessingFee: z.number().int(),
  netAmount: z.number().int(),
  tenantTotal: z.number().int(),
  platformTotal: z.number().int(),
  dateCreated: z.string(),
});
export const ZCompletedPayout = zResource(ZCompletedPayoutDetails);
export type TCompletedPayout = z.infer<typeof ZCompletedPayout>;
export const ZCompletedPayoutList = zListResponse(ZCompletedPayout);
export type TCompletedPayoutList = z.infer<typeof ZCompletedPayoutList>;

// ---- actions ------------------------------------------------------------------------------------

/** spec §7 POST /tenants/{tenantId}/payout/hold: orderId (id or Order ID), eventId, message, hold. */
export const ZPayoutHoldRequest = z.object({
  orderId: z.string().trim().min(1).max(200),
  eventId: z.string().trim().min(1).max(200),
  message: z.string().max(500, M.payoutHoldMessageLong).default(''),
  hold: z.boolean(),
});
export type TPayoutHoldRequest = z.input<typeof ZPayoutHoldRequest>;
export const ZPayoutHoldAnswer = z.object({ success: z.literal(true), message: z.string(), onHold: z.boolean(), orderUID: z.string() });
export type TPayoutHoldAnswer = z.infer<typeof ZPayoutHoldAnswer>;

/** spec §5: a transfer needs at least one order. */
export const ZTransferRequest = z.object({
  orderUIDs: z.array(z.string().trim().min(1).max(200), { error: M.selectOrderToTransfer }).min(1, M.selectOrderToTransfer).max(1000),
});
export type TTransferRequest = z.input<typeof ZTransferRequest>;

export const ZCompletedOrderPayout = z.object({
  payoutId: z.string(),
  tenantId: z.string(),
  tenantURL: z.string(),
  tenantName: z.string(),
  orderUIDs: z.array(z.string()),
  /** cents transferred */
  amount: z.number().int(),
  transferId: z.string(),
});
export const ZFailedOrderPayout = z.object({
  tenantId: z.string().nullable(),
  tenantURL: z.string().nullable(),
  tenantName: z.string().nullable(),
  orderUIDs: z.array(z.string()),
  message: z.string(),
  /** Ours: the failure's domain code when a client must tell it apart (the tenant has no payout account). */
  domainCode: z.enum(TRANSFER_FAILURE_CODES).optional(),
});
/** spec §3 Transfer result. */
export const ZTransferResult = z.object({
  success: z.boolean(),
  message: z.string(),
  completedOrderPayouts: z.array(ZCompletedOrderPayout),
  failedOrderPayouts: z.array(ZFailedOrderPayout),
});
export type TTransferResult = z.infer<typeof ZTransferResult>;

// ---- paths (spec §7 where it names them; ours where it says "paths not shown") -------------------

const t = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}`;
const p = (payoutId: string) => encodeURIComponent(payoutId);

export const PAYOUT_PATHS = {
  pending: () => '/api/platform/payouts/pending',
  completed: () => '/api/platform/payouts/completed',
  payout: (payoutId: string) => `/api/platform/payouts/${p(payoutId)}`,
  payoutOrders: (payoutId: string) => `/api/platform/payouts/${p(payoutId)}/orders`,
  transfer: () => '/api/platform/transfer/payout-orders',
  transactionsDownload: () => '/api/platform/reports/for/payout-transactions/download',
  collectionDownload: () => '/api/platform/reports/payouts-collection/download',
  payoutDownload: (payoutId: string) => `/api/platform/reports/payouts-collection/${p(payoutId)}/download`,
  platformExport: (exportId: string) => `/api/platform/payouts/exports/${encodeURIComponent(exportId)}`,
  tenantCompleted: (tenantId: string) => `${t(tenantId)}/payouts/completed`,
  tenantPayout: (tenantId: string, payoutId: string) => `${t(tenantId)}/payouts/${p(payoutId)}`,
  tenantPayoutOrders: (tenantId: string, payoutId: string) => `${t(tenantId)}/payouts/${p(payoutId)}/orders`,
  tenantTransactionsDownload: (tenantId: string) => `${t(tenantId)}/reports/collections/payout-transactions/download`,
  tenantExport: (tenantId: string, exportId: string) => `${t(tenantId)}/payouts/exports/${encodeURIComponent(exportId)}`,
  hold: (tenantId: string) => `${t(tenantId)}/payout/hold`,
  settings: () => '/api/platform/payouts/settings',
} as const;

/** The platform's payout settings (beyond the spec): the weekly automatic run, off by default. */
export const ZPayoutSettings = z.object({ weeklyAutomatic: z.boolean() });
export type TPayoutSettings = z.infer<typeof ZPayoutSettings>;

/** spec §5 payout list filters: the fields each payout list accepts. */
export const PAYOUT_LIST_FIELDS = {
  orders: {
    contains: ['details.orderUID', 'details.eventName', 'details.tenantURL'],
    exact: ['details.payoutId', 'details.tenantId', 'details.eventId', 'details.onHold', 'details.facilitator', 'details.payoutCompleted', 'details.ready'],
    dates: ['details.dateCreated', 'details.balanceAvailableOn'],
  },
  completed: { contains: ['details.payoutId', 'details.eventName', 'details.tenantURL', 'details.orderUID'], exact: ['details.tenantId'], dates: ['details.dateCreated'] },
} as const;

/** spec §9: the payout order list pages by 100; completed payouts by 10. */
export const PAYOUT_ORDER_PAGE_SIZE = 100;
export const COMPLETED_PAYOUTS_PAGE_SIZE = 10;

/**
 * Issue 23: what a tenant is due and owes over its lines no payout has taken (docs/payouts.md
 * "Netting"). balanceOwed > 0: the tenant owes the platform more than its open sales are due; it is
 * carried until sales cover it, never paid out and never dropped.
 */
export const ZPayoutBalance = z.object({
  tenantId: z.string(),
  /** Its open platform-facilitated sales' tenant shares. */
  dueToTenant: z.number().int(),
  /** Its open refund and netting lines: what the platform takes from the next payout. */
  owedToPlatform: z.number().int(),
  /** dueToTenant - owedToPlatform. */
  balance: z.number().int(),
  /** max(0, owedToPlatform - dueToTenant). */
  balanceOwed: z.number().int(),
  /** Cash and card-terminal orders whose platform share is still to be netted. */
  nettingOrders: z.number().int(),
});
export type TPayoutBalance = z.infer<typeof ZPayoutBalance>;
export const payoutBalancePath = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/payouts/balance`;
