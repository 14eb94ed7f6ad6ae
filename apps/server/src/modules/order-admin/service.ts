import {
  CANCEL_REFUND_MAX_TRIES,
  CANCEL_REFUND_RETRY_MINUTES,
  formatEventDateTime,
  M,
  orderPayoutState,
  orderRefundState,
  ticketsRefundAmount,
  type OrderActionKind,
  type RefundKind,
  type RefundStatus,
  type TCancellationProgress,
  type TCancellationRefund,
  type TOrderAction,
  type TOrderDetail,
  type TOrderRefund,
  type TOrderSplit,
  type TOrderTicket,
  type TRefundResponse,
  type TVoidTicketResponse,
  type ZRefundRequest,
  type ZVoidTicketRequest,
} from '@marquee/core';
import type { z } from 'zod';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { recordAudit, SYSTEM_ACTOR } from '../../platform/audit.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { applyInventory, lockTenantOrder } from '../orders/repository.js';
import { processRefund, recordRefund } from '../payments/refunds.js';
import { findSaleLine } from '../payouts/repository.js';
import { getCancellationProgress, toCancellationRefund, type CancelEventJob } from '../events/cancellation.js';
import { cancellationMail } from './cancellation-mail.js';
import { enqueueRefundNotice, enqueueTicketNotice } from './notices.js';
import * as repo from './repository.js';

export const CANCEL_ORDER_REFUND_JOB = 'order-admin.cancel-refund';
export const CANCEL_ORDER_MAIL_JOB = 'order-admin.cancel-mail';
/** Orders queued per transaction by the cancellation sweep. */
const SWEEP_PAGE = 500;
const EVENT_CANCELLED_REASON = 'Event cancelled';

// ---- reading an order ------------------------------------------------------------------------

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

function breakdownExtras(breakdown: string | null): { donationFee: number; channelCharge: number; donationNet: number | null } {
  if (!breakdown) return { donationFee: 0, channelCharge: 0, donationNet: null };
  try {
    const b = JSON.parse(breakdown) as { donationFee?: unknown; channelCharge?: unknown; donationNet?: unknown };
    const n = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : 0);
    return { donationFee: n(b.donationFee), channelCharge: n(b.channelCharge), donationNet: typeof b.donationNet === 'number' && Number.isSafeInteger(b.donationNet) ? b.donationNet : null };
  } catch {
    return { donationFee: 0, channelCharge: 0, donationNet: null };
  }
}

/**
 * Where the order's money goes (core ZOrderSplit): the pricing engine's split at the sale, and each
 * share less its part of the succeeded refunds of the order's own payment. The charity's part is the
 * donation less its fee as priced (docs/pricing.md: totalAmount = sellerNet + platformTotal +
 * gatewayProcessingFee + vat + donationNet, and tenantTotal = sellerNet + vat).
 */
function splitOf(order: repo.OrderRow, refundRows: repo.RefundRow[], donationNet: number | null): TOrderSplit {
  const counted = refundRows.filter((r) => r.status === 'succeeded' && r.kind !== repo.NOT_ORDER_MONEY);
  const organiserRefunded = counted.reduce((s, r) => s + r.tenantAmount, 0);
  const platformRefunded = counted.reduce((s, r) => s + r.platformAmount, 0);
  const charity = order.donation > 0 ? Math.max(0, donationNet ?? order.totalAmount - order.tenantTotal - order.platformTotal - order.gatewayProcessingFee) : 0;
  return {
    organiser: order.tenantTotal,
    platform: order.platformTotal,
    cardFee: order.gatewayProcessingFee,
    charity,
    refunded: organiserRefunded + platformRefunded,
    organiserRefunded,
    platformRefunded,
    organiserAfterRefunds: order.tenantTotal - organiserRefunded,
    platformAfterRefunds: order.platformTotal - platformRefunded,
  };
}

/** Whether the order took money that can be given back (spec silent; docs/decisions.md). */
function isRefundable(order: repo.OrderRow): boolean {
  return (repo.PAID_STATUSES as readonly string[]).includes(order.status) && order.totalAmount > 0 && order.paymentMethod !== 'free' && !!order.chargeId;
}

export function toOrderTicket(t: repo.TicketRow, voidedByEmail: string | null, refundId: string | null): TOrderTicket {
  return {
    id: t.id,
    details: {
      ticketId: t.id,
      ticketUID: t.ticketUid,
      orderId: t.orderId,
      fullName: t.fullName,
      email: t.email,
      contactNumber: t.contactNumber,
      ticketTypeId: t.ticketTypeId,
      ticketTypeName: t.ticketTypeName,
      ticketPrice: t.price,
      used: t.used,
      voided: t.voided,
      voidReason: t.voidReason,
      voidedAt: iso(t.voidedAt),
      voidedBy: voidedByEmail,
      refundId,
      dateCreated: t.createdAt.toISOString(),
    },
  };
}

function toOrderRefund(r: repo.RefundRow, order: repo.OrderRow, eventName: string, createdByEmail: string | null): TOrderRefund {
  return {
    id: r.id,
    details: {
      orderUID: order.orderUid,
      chargeId: r.chargeId,
      eventId: r.eventId,
      eventName,
      fullName: `${order.firstName} ${order.lastName}`.trim(),
      userId: order.email,
      phone: order.phone,
      ticketIds: r.ticketIds,
      status: r.status as RefundStatus,
      kind: r.kind as RefundKind,
      refundAmount: r.amount,
      tenantAmount: r.tenantAmount,
      platformAmount: r.platformAmount,
      refundReason: r.reason,
      failureReason: r.failureReason,
      createdBy: createdByEmail,
      transactionDate: r.createdAt.toISOString(),
    },
  };
}

function toOrderAction(a: repo.OrderActionRow): TOrderAction {
  let details: Record<string, unknown> = {};
  try {
    const parsed: unknown = a.details ? JSON.parse(a.details) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) details = parsed as Record<string, unknown>;
  } catch {
    details = {};
  }
  return {
    id: a.id,
    action: a.action as OrderActionKind,
    ticketId: a.ticketId,
    reason: a.reason,
    userEmail: a.userEmail,
    details,
    createdAt: a.createdAt.toISOString(),
  };
}

async function detailOf(db: DbOrTx, order: repo.OrderRow): Promise<TOrderDetail> {
  const [eventName, eventStatus, ticketRows, refundRows, actionRows, refundedTickets, live] = await Promise.all([
    repo.findEventName(db, order.tenantId, order.eventId),
    repo.findEventStatus(db, order.tenantId, order.eventId),
    repo.ticketsOf(db, order.tenantId, order.id),
    repo.refundsOf(db, order.tenantId, order.id),
    repo.actionsOf(db, order.tenantId, order.id),
    repo.refundedTicketIds(db, order.tenantId, order.id),
    repo.liveRefundTotals(db, order.tenantId, order.id),
  ]);
  const [payoutLine, cancellationRefund] = await Promise.all([
    findSaleLine(db, order.tenantId, order.id),
    eventStatus === 'cancelled' ? cancellationRefundOf(db, order) : null,
  ]);
  const name = eventName ?? '';
  const fullName = `${order.firstName} ${order.lastName}`.trim();
  const extras = breakdownExtras(order.breakdown);
  return {
    id: order.id,
    details: {
      orderUID: order.orderUid,
      dateCreated: order.createdAt.toISOString(),
      fullName,
      name: fullName,
      email: order.email,
      phone: order.phone,
      ticketCount: order.ticketCount,
      paymentMethod: order.paymentMethod,
      paymentSource: order.source,
      grossAmount: order.totalAmount,
      refunded: order.refunded,
      refundedAmount: order.refundedAmount,
      refundableAmount: isRefundable(order) ? Math.max(0, order.totalAmount - live.amount) : 0,
      user: order.userId,
      tenantId: order.tenantId,
      eventId: order.eventId,
      eventName: name,
      chargeId: order.chargeId,
      status: order.status,
      firstName: order.firstName,
      lastName: order.lastName,
      address1: order.address1,
      address2: order.address2,
      city: order.city,
      state: order.state,
      zipCode: order.zipCode,
      country: order.country,
      subtotal: order.subtotal,
      surcharge: order.surcharge,
      processingFee: order.processingFee,
      gatewayProcessingFee: order.gatewayProcessingFee,
      discount: order.discount,
      discountCode: order.discountCode,
      vat: order.vat,
      taxRate: order.taxRate,
      donation: order.donation,
      donationFee: extras.donationFee,
      charityName: order.charityName,
      channelCharge: extras.channelCharge,
      totalAmount: order.totalAmount,
      tenantTotal: order.tenantTotal,
      platformTotal: order.platformTotal,
      // spec §4 Order payout state, from the order's payout line (none yet: Payout Pending).
      payoutState: orderPayoutState({
        payoutCompleted: !!payoutLine?.payoutCompletedAt,
        onHold: payoutLine?.onHold ?? false,
        balanceAvailableOn: payoutLine?.balanceAvailableOn ?? null,
      }),
      eventStatus: eventStatus ?? '',
      refundState: orderRefundState({ totalAmount: order.totalAmount, refundedAmount: order.refundedAmount }),
      split: splitOf(order, refundRows.map((r) => r.refund), extras.donationNet),
    },
    tickets: ticketRows.map((t) => toOrderTicket(t.ticket, t.voidedByEmail, refundedTickets.get(t.ticket.id) ?? null)),
    refunds: refundRows.map((r) => toOrderRefund(r.refund, order, name, r.createdByEmail)),
    actions: actionRows.map(toOrderAction),
    cancellationRefund,
  };
}

/** The refund the order's cancelled event owes it (issue 21.13), or null when it took no money. */
async function cancellationRefundOf(db: DbOrTx, order: repo.OrderRow): Promise<TCancellationRefund | null> {
  const row = await repo.cancellationStateOf(db, order.tenantId, order.eventId, order.id, CANCEL_REFUND_MAX_TRIES);
  return row ? toCancellationRefund(row) : null;
}

async function findOrder(db: DbOrTx, ctx: TenantCtx, eventId: string, orderUid: string): Promise<repo.OrderRow> {
  if (!UUID_RE.test(eventId) || orderUid.length > 64) throw notFound();
  const order = await repo.findOrderOfEvent(db, ctx.tenantId, eventId, orderUid);
  if (!order) throw notFound();
  return order;
}

/** GET …/events/:eventId/orders/:orderUID: the order page (spec §2 Order detail page, §3 Order). */
export async function getOrderDetail(opts: { deps: Deps; ctx: TenantCtx; eventId: string; orderUid: string }): Promise<TOrderDetail> {
  return detailOf(opts.deps.db, await findOrder(opts.deps.db, opts.ctx, opts.eventId, opts.orderUid));
}

// ---- void / unvoid -----------------------------------------------------------------------------

/** Gives seats back to sale (delta < 0) or takes them again (delta > 0, refused when sold out). */
async function moveSeats(tx: Tx, order: repo.OrderRow, ticketTypeIds: string[], direction: 'release' | 'take'): Promise<boolean> {
  const deltas = new Map<string, number>();
  for (const id of ticketTypeIds) deltas.set(id, (deltas.get(id) ?? 0) + (direction === 'take' ? 1 : -1));
  const result = await applyInventory(tx, { tenantId: order.tenantId, eventId: order.eventId, deltas });
  return result.ok;
}

/**
 * POST …/tickets/void (spec §4 Ticket void, §5 Actions, §7). Sets the ticket to the state asked
 * for, with who, when and why; asking for the state it is already in changes nothing. A void
 * gives its seat back to sale; an unvoid takes a seat again and is refused when sold out, and a
 * ticket a refund voided stays voided (docs/decisions.md "Order management and refunds").
 */
export async function voidTicket(opts: { deps: Deps; ctx: TenantCtx; eventId: string; input: z.output<typeof ZVoidTicketRequest> }): Promise<TVoidTicketResponse> {
  const { deps, ctx, eventId, input } = opts;
  const order = await findOrder(deps.db, ctx, eventId, input.orderUID);
  const ticketId = await deps.db.transaction(async (tx) => {
    const locked = await lockTenantOrder(tx, ctx.tenantId, order.id);
    const ticket = locked && (await repo.lockTicket(tx, ctx.tenantId, order.id, input.ticketId));
    if (!locked || !ticket) throw notFound();
    if (ticket.voided === input.void) return ticket.id;
    if (!input.void) {
      if ((await repo.refundedTicketIds(tx, ctx.tenantId, order.id)).has(ticket.id)) throw conflict(M.ticketAlreadyRefunded);
      // All the order's money went (or is going) back: none of its tickets may admit again (issue 21 §4).
      if (locked.totalAmount > 0 && (await repo.liveRefundTotals(tx, ctx.tenantId, order.id)).amount >= locked.totalAmount) throw conflict(M.unvoidOrderRefunded);
      if (!(await moveSeats(tx, locked, [ticket.ticketTypeId], 'take'))) throw conflict(M.unvoidSoldOut);
    } else {
      await moveSeats(tx, locked, [ticket.ticketTypeId], 'release');
    }
    await repo.setTicketVoid(tx, { tenantId: ctx.tenantId, ticketIds: [ticket.id], voided: input.void, reason: input.reason, userId: ctx.user.id });
    await repo.insertAction(tx, {
      tenantId: ctx.tenantId,
      orderId: order.id,
      ticketId: ticket.id,
      action: input.void ? 'void' : 'unvoid',
      reason: input.reason,
      userId: ctx.user.id,
      userEmail: ctx.user.email,
      details: { ticketUID: ticket.ticketUid },
    });
    await enqueueTicketNotice(deps, tx, { tenantId: ctx.tenantId, orderId: order.id, ticketId: ticket.id, voided: input.void });
    await recordAudit(tx, { actor: ctx.actor, tenantId: ctx.tenantId, action: input.void ? 'tickets.voided' : 'tickets.unvoided', target: { type: 'ticket', id: ticket.ticketUid }, before: { orderUID: order.orderUid, voided: !input.void }, after: { orderUID: order.orderUid, voided: input.void, reason: input.reason } });
    return ticket.id;
  });
  const rows = await repo.ticketsOf(deps.db, ctx.tenantId, order.id);
  const row = rows.find((r) => r.ticket.id === ticketId)!;
  const refundId = (await repo.refundedTicketIds(deps.db, ctx.tenantId, order.id)).get(ticketId) ?? null;
  return { success: true, message: input.void ? M.ticketVoided : M.ticketUnvoided, ticket: toOrderTicket(row.ticket, row.voidedByEmail, refundId) };
}

// ---- refunds -----------------------------------------------------------------------------------

const refundError = (message: string, field?: string) => new AppError('VALIDATION', message, field ? { [field]: message } : undefined);

/**
 * POST …/orders/:orderUID/refunds: a full refund (what is left), an amount, or chosen tickets
 * (voided and given back to sale). Under the order's row lock the pending and succeeded refunds
 * are counted, so two refunds at once can never give back more than was paid. The gateway is
 * asked right away and again by the refund's job if that attempt does not get through.
 */
export async function refundOrder(opts: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  orderUid: string;
  input: z.output<typeof ZRefundRequest>;
}): Promise<TRefundResponse> {
  const { deps, ctx, eventId, input } = opts;
  const found = await findOrder(deps.db, ctx, eventId, opts.orderUid);
  const refund = await deps.db.transaction(async (tx) => {
    const order = await lockTenantOrder(tx, ctx.tenantId, found.id);
    if (!order) throw notFound();
    if (order.totalAmount === 0 || order.paymentMethod === 'free') throw conflict(M.refundFreeOrder);
    if (!isRefundable(order)) throw conflict(M.refundNotPaid);
    const live = await repo.liveRefundTotals(tx, ctx.tenantId, order.id);
    const left = order.totalAmount - live.amount;
    if (left <= 0) throw conflict(M.refundNothingLeft);

    const tickets = (await repo.ticketsOf(tx, ctx.tenantId, order.id)).map((t) => t.ticket);
    let amount: number;
    let voiding: repo.TicketRow[] = [];
    if (input.mode === 'full') {
      amount = left;
      voiding = tickets.filter((t) => !t.voided);
    } else if (input.mode === 'amount') {
      amount = input.amount!;
      if (amount > left) throw refundError(M.refundExceedsPaid, 'amount');
    } else {
      const ids = [...new Set(input.ticketIds ?? [])];
      for (const id of ids) {
        const t = tickets.find((x) => x.id === id);
        if (!t) throw refundError(M.ticketNotInOrder, 'ticketIds');
        if (t.voided) throw conflict(M.refundTicketsVoided);
        voiding.push(t);
      }
      const share = ticketsRefundAmount({
        ticketPrices: voiding.map((t) => t.price),
        subtotal: order.subtotal,
        totalAmount: order.totalAmount,
        donation: order.donation,
        donationFee: breakdownExtras(order.breakdown).donationFee,
      });
      // An amount typed for chosen tickets may be less than their share, never more: more money
      // back is an amount refund, which leaves the other tickets valid only while money is left.
      if (input.amount !== undefined && input.amount > share) throw refundError(M.refundExceedsTickets, 'amount');
      amount = input.amount ?? Math.min(share, left);
      if (amount > left) throw refundError(M.refundExceedsPaid, 'amount');
      if (amount <= 0) throw refundError(M.refundAmountInvalid, 'amount');
    }
    // A refund that gives back all that is left is a full refund, whatever its mode: every ticket
    // still valid is voided with it, so a fully refunded order admits no one (issue 21 §4).
    if (input.mode !== 'full' && amount === left) {
      const chosen = new Set(voiding.map((t) => t.id));
      voiding = [...voiding, ...tickets.filter((t) => !t.voided && !chosen.has(t.id))];
    }

    if (voiding.length > 0) {
      await moveSeats(tx, order, voiding.map((t) => t.ticketTypeId), 'release');
      await repo.setTicketVoid(tx, { tenantId: ctx.tenantId, ticketIds: voiding.map((t) => t.id), voided: true, reason: input.reason, userId: ctx.user.id });
    }
    const row = await recordRefund(deps, tx, {
      order,
      amount,
      kind: 'organiser',
      reason: input.reason,
      provider: order.paymentProvider ?? deps.payments.name,
      chargeId: order.chargeId!,
      ticketIds: voiding.map((t) => t.id),
      createdBy: ctx.user.id,
    });
    await repo.insertAction(tx, {
      tenantId: ctx.tenantId,
      orderId: order.id,
      action: 'refund',
      reason: input.reason,
      userId: ctx.user.id,
      userEmail: ctx.user.email,
      details: { refundId: row.id, mode: input.mode, amount, ticketIds: row.ticketIds },
    });
    for (const t of voiding) {
      await repo.insertAction(tx, {
        tenantId: ctx.tenantId,
        orderId: order.id,
        ticketId: t.id,
        action: 'void',
        reason: input.reason,
        userId: ctx.user.id,
        userEmail: ctx.user.email,
        details: { ticketUID: t.ticketUid, refundId: row.id },
      });
    }
    await enqueueRefundNotice(deps, tx, { tenantId: ctx.tenantId, orderId: order.id, refundId: row.id });
    await recordAudit(tx, { actor: ctx.actor, tenantId: ctx.tenantId, action: 'order.refunded', target: { type: 'order', id: order.orderUid }, before: { refunded: live.amount, totalAmount: order.totalAmount }, after: { refundId: row.id, amount, mode: input.mode, reason: input.reason, ticketIds: row.ticketIds } });
    return row;
  });

  await processRefund({ deps, tenantId: ctx.tenantId, refundId: refund.id }).catch((err: unknown) =>
    deps.log.warn({ err, refundId: refund.id }, 'refund not settled yet; its job retries'),
  );
  const order = await repo.findOrderOfEvent(deps.db, ctx.tenantId, found.eventId, found.orderUid);
  const detail = await detailOf(deps.db, order!);
  return { message: M.refundSubmitted, refund: detail.refunds.find((r) => r.id === refund.id)!, order: detail };
}

// ---- event cancellation ------------------------------------------------------------------------

/** `retry`: the retry this run is, after that many failed tries (absent: the first try). */
export type CancelOrderJob = { tenantId: string; orderId: string; userId: string | null; message?: string; retry?: number };

/**
 * A cancellation refund job also waits for the gateway: while its refund is pending the job fails
 * on purpose and the queue runs it again with its backoff (2 s, 4 s … 10 minutes), about four
 * hours in all, so that a refund that fails late is still retried (issue 21.13).
 */
const CANCEL_REFUND_JOB_ATTEMPTS = 30;
/**
 * Job order-admin.cancel-event: one refund job per paid order of the cancelled event, each with
 * its own dedupe key, so running the sweep again (a crash, a retry) queues nothing twice.
 */
export async function sweepCancelledEvent(opts: { deps: Deps; job: CancelEventJob }): Promise<number> {
  const { deps, job } = opts;
  if ((await repo.findEventStatus(deps.db, job.tenantId, job.eventId)) !== 'cancelled') return 0;
  let after: string | null = null;
  let queued = 0;
  for (;;) {
    const ids = await repo.paidOrderIds(deps.db, job.tenantId, job.eventId, after, SWEEP_PAGE);
    if (ids.length === 0) break;
    await deps.db.transaction(async (tx) => {
      for (const orderId of ids) {
        await deps.jobs.enqueue(tx, CANCEL_ORDER_REFUND_JOB, { tenantId: job.tenantId, orderId, userId: job.userId } satisfies CancelOrderJob, {
          dedupeKey: repo.cancelRefundJobKey(orderId),
          maxAttempts: CANCEL_REFUND_JOB_ATTEMPTS,
        });
      }
    });
    queued += ids.length;
    after = ids[ids.length - 1]!;
  }
  // Every buyer is told, free orders included: one notice job per order, deduped like the refunds.
  let told = 0;
  after = null;
  const message = job.message?.trim() || undefined;
  for (;;) {
    const ids = await repo.buyerOrderIds(deps.db, job.tenantId, job.eventId, after, SWEEP_PAGE);
    if (ids.length === 0) break;
    await deps.db.transaction(async (tx) => {
      for (const orderId of ids) {
        await deps.jobs.enqueue(tx, CANCEL_ORDER_MAIL_JOB, { tenantId: job.tenantId, orderId, userId: job.userId, message } satisfies CancelOrderJob, {
          dedupeKey: `cancel-mail:${orderId}`,
        });
      }
    });
    told += ids.length;
    after = ids[ids.length - 1]!;
  }
  deps.log.info({ eventId: job.eventId, orders: queued, notices: told }, 'cancelled event: refunds and notices queued');
  return queued;
}

/**
 * Job order-admin.cancel-mail: the cancellation notice of one order, through the outbox (issue 15),
 * with what its cancellation actually gives back (issue 21.9): what was still held, not what was
 * paid, and no refund wording for an order that was already refunded in full.
 */
export async function mailCancelledOrder(opts: { deps: Deps; job: CancelOrderJob }): Promise<boolean> {
  const { deps, job } = opts;
  const row = await repo.cancellationNoticeOf(deps.db, job.tenantId, job.orderId);
  if (!row || row.eventStatus !== 'cancelled' || !row.order.email) return false;
  const refunds = (await repo.refundsOf(deps.db, job.tenantId, job.orderId)).map((r) => r.refund).filter((r) => r.kind !== repo.NOT_ORDER_MONEY);
  const live = (r: repo.RefundRow) => r.status === 'pending' || r.status === 'succeeded';
  const byCancellation = refunds.find((r) => r.kind === 'event_cancelled');
  const earlier = refunds.filter((r) => r.kind !== 'event_cancelled' && live(r)).reduce((s, r) => s + r.amount, 0);
  const held = Math.max(0, row.order.totalAmount - refunds.filter(live).reduce((s, r) => s + r.amount, 0));
  const paid = isRefundable(row.order);
  await deps.db.transaction((tx) =>
    deps.mailer.send(
      tx,
      cancellationMail({
        tenantId: job.tenantId,
        organiser: row.organiser,
        contactEmail: row.contactEmail,
        event: { name: row.eventName, when: row.startDateTime ? formatEventDateTime(row.startDateTime, row.timeZone) : '' },
        order: row.order,
        refund: paid ? { amount: byCancellation ? byCancellation.amount : held, earlier } : null,
        message: job.message ?? null,
      }),
    ),
  );
  return true;
}

/**
 * Job order-admin.cancel-refund: refunds what is left of one paid order of a cancelled event and
 * voids its tickets. A re-run finds the refund it wrote (pending: asked again with the same
 * idempotency key; settled: nothing to do), so an order is never refunded twice. A try that fails
 * is followed by a retry job after core CANCEL_REFUND_RETRY_MINUTES (issue 21.13): the retry, and
 * only the retry queued for that failure, writes a new refund for what is still held, under the
 * order's lock, so a refund given from the order page meanwhile is never given twice.
 */
export async function refundCancelledOrder(opts: { deps: Deps; job: CancelOrderJob }): Promise<repo.RefundRow | null> {
  const { deps, job } = opts;
  const written = await deps.db.transaction(async (tx) => {
    const order = await lockTenantOrder(tx, job.tenantId, job.orderId);
    if (!order || !isRefundable(order)) return null;
    const mine = (await repo.refundsOf(tx, job.tenantId, order.id)).map((r) => r.refund).filter((r) => r.kind === 'event_cancelled');
    const latest = mine[0];
    const failures = mine.filter((r) => r.status === 'failed').length;
    if (latest && latest.status !== 'failed') return latest;
    // A failed try is tried again only by the retry queued for it, and not past the last try.
    if (latest && ((job.retry ?? 0) !== failures || failures >= CANCEL_REFUND_MAX_TRIES)) return latest;
    const live = await repo.liveRefundTotals(tx, job.tenantId, order.id);
    const left = order.totalAmount - live.amount;
    if (left <= 0) return null;
    // The event is off: its tickets are void, and there is no sale to give the seats back to.
    const voiding = (await repo.ticketsOf(tx, job.tenantId, order.id)).map((t) => t.ticket).filter((t) => !t.voided);
    await repo.setTicketVoid(tx, { tenantId: job.tenantId, ticketIds: voiding.map((t) => t.id), voided: true, reason: EVENT_CANCELLED_REASON, userId: job.userId });
    const row = await recordRefund(deps, tx, {
      order,
      amount: left,
      kind: 'event_cancelled',
      reason: EVENT_CANCELLED_REASON,
      provider: order.paymentProvider ?? deps.payments.name,
      chargeId: order.chargeId!,
      // A retry gives back the same tickets' money: it lists the tickets the failed try voided.
      ticketIds: latest ? latest.ticketIds : voiding.map((t) => t.id),
      createdBy: job.userId,
    });
    await repo.insertAction(tx, {
      tenantId: job.tenantId,
      orderId: order.id,
      action: 'event_cancelled',
      reason: EVENT_CANCELLED_REASON,
      userId: job.userId,
      userEmail: null,
      details: { refundId: row.id, amount: left, ticketIds: row.ticketIds, ...(latest ? { retry: failures } : {}) },
    });
    await recordAudit(tx, { actor: SYSTEM_ACTOR, tenantId: job.tenantId, action: 'order.refunded', target: { type: 'order', id: order.orderUid }, before: { refunded: live.amount, totalAmount: order.totalAmount }, after: { refundId: row.id, amount: left, reason: EVENT_CANCELLED_REASON, ticketIds: row.ticketIds, cancelledBy: job.userId } });
    return row;
  });
  if (!written) return null;
  const settled = written.status === 'pending' ? await processRefund({ deps, tenantId: job.tenantId, refundId: written.id }) : written;
  if (settled?.status === 'failed') await scheduleCancellationRetry(deps, job);
  return settled;
}

/**
 * Queues the retry after the order's latest failed try (at most one per failure: its dedupe key
 * names the failure), unless that was the last try. Any run of the order's jobs that finds a
 * failed try calls it, so a failure the gateway reports later is retried by the next run too.
 */
async function scheduleCancellationRetry(deps: Deps, job: CancelOrderJob): Promise<void> {
  const failures = (await repo.refundsOf(deps.db, job.tenantId, job.orderId)).filter((r) => r.refund.kind === 'event_cancelled' && r.refund.status === 'failed').length;
  if (failures === 0 || failures >= CANCEL_REFUND_MAX_TRIES) return;
  const waitMinutes = CANCEL_REFUND_RETRY_MINUTES[failures - 1]!;
  await deps.jobs.enqueue(deps.db, CANCEL_ORDER_REFUND_JOB, { tenantId: job.tenantId, orderId: job.orderId, userId: job.userId, retry: failures } satisfies CancelOrderJob, {
    runAt: new Date(Date.now() + waitMinutes * 60_000),
    dedupeKey: repo.cancelRefundJobKey(job.orderId, failures),
    maxAttempts: CANCEL_REFUND_JOB_ATTEMPTS,
  });
  deps.log.warn({ orderId: job.orderId, failures, waitMinutes }, 'cancellation refund failed; retry queued');
}

/** The job's run: a refund still pending at the gateway fails the run on purpose, so the queue looks again later. */
export async function runCancelRefundJob(opts: { deps: Deps; job: CancelOrderJob }): Promise<void> {
  const refund = await refundCancelledOrder(opts);
  if (refund?.status === 'pending') throw new Error(`cancellation refund ${refund.id} is still pending at the gateway; looking again later`);
}

/**
 * The refunds of a cancelled event (issue 21.9, 21.13): the orders it refunds by state, what it
 * gives back (what was still held), what it gave back, and the orders whose refund failed. For an
 * event that is not cancelled, the same figures say what cancelling it now would do.
 */
/** GET …/events/:eventId/cancellation. */
export async function getEventCancellation(opts: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TCancellationProgress> {
  if (!UUID_RE.test(opts.eventId) || !(await repo.findEventStatus(opts.deps.db, opts.ctx.tenantId, opts.eventId))) throw notFound();
  return getCancellationProgress({ deps: opts.deps, tenantId: opts.ctx.tenantId, eventId: opts.eventId });
}

/** An order action the fulfilment module records (resend, download). */
export async function recordOrderAction(
  db: DbOrTx,
  a: { ctx: TenantCtx; orderId: string; action: OrderActionKind; reason?: string; details?: unknown },
) {
  await repo.insertAction(db, {
    tenantId: a.ctx.tenantId,
    orderId: a.orderId,
    action: a.action,
    reason: a.reason ?? '',
    userId: a.ctx.user.id,
    userEmail: a.ctx.user.email,
    details: a.details,
  });
}
