import {
  CANCEL_REFUND_MAX_TRIES,
  orderPayoutState,
  orderRefundState,
  type OrderActionKind,
  type RefundKind,
  type RefundStatus,
  type TCancellationRefund,
  type TOrderAction,
  type TOrderDetail,
  type TOrderRefund,
  type TOrderSplit,
  type TOrderTicket,
} from '@marquee/core';
import type { DbOrTx } from '../../db/client.js';
import { BOX_OFFICE_PROVIDER } from '../orders/payment.js';
import { findSaleLine } from '../payouts/repository.js';
import { toCancellationRefund } from '../events/cancellation.js';
import { breakdownExtras, isRefundable } from './order-facts.js';
import * as repo from './repository.js';

// The order page's read model (core ZOrderDetail), shared by the use cases that answer with it.

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

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
      refundMethod: (r.refundMethod ?? null) as TOrderRefund['details']['refundMethod'],
      terminalReference: r.terminalReference ?? null,
      owedAtBoxOffice: r.status === 'pending' && r.provider === BOX_OFFICE_PROVIDER,
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

export async function detailOf(db: DbOrTx, order: repo.OrderRow): Promise<TOrderDetail> {
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
      channel: order.channel,
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
