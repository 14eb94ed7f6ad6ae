import { M, ticketsRefundAmount, type TRefundResponse, type ZRefundRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../../platform/audit.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { lockTenantOrder } from '../orders/repository.js';
import { processRefund, recordRefund } from '../payments/refunds.js';
import { enqueueRefundNotice } from './notices.js';
import { detailOf } from './order-detail.js';
import { breakdownExtras, findOrder, isRefundable, moveSeats } from './order-facts.js';
import { lockDrawerForRefund } from '../cash-drawers/cash-movements.js';
import { checkBoxOfficeRefund, isOfflineOrder, settleBoxOfficeRefund } from './box-office-refund.js';
import * as repo from './repository.js';

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
    checkBoxOfficeRefund(order, input);
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

    // A cash refund's drawer is locked before any seat goes back (the one lock order: orders, their
    // rows, the drawer, then ticket types and the event); no open drawer refuses it here.
    if (isOfflineOrder(order) && input.refundMethod === 'cash') await lockDrawerForRefund(tx, { tenantId: ctx.tenantId, userId: ctx.user.id });
    if (voiding.length > 0) {
      await moveSeats(tx, order, voiding, 'release');
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
    // A box-office order paid in cash or on the venue's terminal goes back that way, settled now (issue 23).
    if (isOfflineOrder(order)) await settleBoxOfficeRefund(deps, tx, { ctx, order, refund: row, input });
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
    await recordAudit(tx, { actor: ctx.actor, tenantId: ctx.tenantId, action: 'order.refunded', target: { type: 'order', id: order.orderUid }, before: { refunded: live.amount, totalAmount: order.totalAmount }, after: { refundId: row.id, amount, mode: input.mode, reason: input.reason, ticketIds: row.ticketIds, ...(isOfflineOrder(order) ? { refundMethod: input.refundMethod } : {}) } });
    return row;
  });

  await processRefund({ deps, tenantId: ctx.tenantId, refundId: refund.id }).catch((err: unknown) =>
    deps.log.warn({ err, refundId: refund.id }, 'refund not settled yet; its job retries'),
  );
  const order = await repo.findOrderOfEvent(deps.db, ctx.tenantId, found.eventId, found.orderUid);
  const detail = await detailOf(deps.db, order!);
  return { message: M.refundSubmitted, refund: detail.refunds.find((r) => r.id === refund.id)!, order: detail };
}
