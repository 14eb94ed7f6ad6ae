import { M, type TRefundResponse, type ZSettleRefundRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../../platform/audit.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { DomainError, notFound } from '../../platform/errors.js';
import { BOX_OFFICE_PROVIDER } from '../orders/payment.js';
import { lockTenantOrder } from '../orders/repository.js';
import { settleBoxOfficeRefund } from './box-office-refund.js';
import { detailOf } from './order-detail.js';
import { findOrder } from './order-facts.js';
import * as repo from './repository.js';

/**
 * POST …/orders/:orderUID/refunds/:refundId/settle (issue 23, docs/decisions.md "Issue 23: a
 * cancelled event's box-office orders"): a refund owed at the box office (a cash or card-terminal
 * order of a cancelled event: no gateway can give that money back) is paid back by staff, in cash
 * from their open drawer or on the venue's terminal with its refund reference. Under the order's
 * lock, then the refund's, then the drawer's (the one lock order): a refund is settled once, and a
 * second try answers REFUND_NOT_OWED (409). Settled, it succeeds: the order shows it refunded, the
 * drawer's expected cash goes down, and the payout netting gives the platform's part back (its job).
 */
export async function settleOwedRefund(opts: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  orderUid: string;
  refundId: string;
  input: z.output<typeof ZSettleRefundRequest>;
}): Promise<TRefundResponse> {
  const { deps, ctx, input } = opts;
  const found = await findOrder(deps.db, ctx, opts.eventId, opts.orderUid);
  if (!UUID_RE.test(opts.refundId)) throw notFound();
  const refundId = opts.refundId.toLowerCase();
  await deps.db.transaction(async (tx) => {
    const order = await lockTenantOrder(tx, ctx.tenantId, found.id);
    if (!order) throw notFound();
    const refund = await repo.lockRefund(tx, ctx.tenantId, refundId);
    if (!refund || refund.orderId !== order.id) throw notFound();
    if (refund.status !== 'pending' || refund.provider !== BOX_OFFICE_PROVIDER) throw new DomainError('REFUND_NOT_OWED', M.refundNotOwed);
    await settleBoxOfficeRefund(deps, tx, { ctx, order, refund, input });
    await repo.insertAction(tx, {
      tenantId: ctx.tenantId,
      orderId: order.id,
      action: 'refund',
      reason: refund.reason,
      userId: ctx.user.id,
      userEmail: ctx.user.email,
      details: { refundId: refund.id, amount: refund.amount, settled: true, refundMethod: input.refundMethod },
    });
    await recordAudit(tx, {
      actor: ctx.actor,
      tenantId: ctx.tenantId,
      action: 'order.refund_settled',
      target: { type: 'order', id: order.orderUid },
      before: { refundId: refund.id, status: refund.status },
      after: { refundId: refund.id, status: 'succeeded', refundMethod: input.refundMethod, ...(input.refundMethod === 'card_terminal' ? { terminalReference: input.terminalReference } : {}) },
    });
  });
  const order = await repo.findOrderOfEvent(deps.db, ctx.tenantId, found.eventId, found.orderUid);
  const detail = await detailOf(deps.db, order!);
  return { message: M.refundSettled, refund: detail.refunds.find((r) => r.id === refundId)!, order: detail };
}
