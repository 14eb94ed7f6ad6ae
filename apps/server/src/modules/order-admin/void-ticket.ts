import { M, SM, type TVoidTicketResponse, type ZVoidTicketRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../../platform/audit.js';
import { emitDomainEvent } from '../../platform/domain-events.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { conflict, notFound } from '../../platform/errors.js';
import { lockTenantOrder } from '../orders/repository.js';
import { enqueueTicketNotice } from './notices.js';
import { toOrderTicket } from './order-detail.js';
import { findOrder, moveSeats } from './order-facts.js';
import * as repo from './repository.js';

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
      const taken = await moveSeats(tx, locked, [ticket], 'take');
      if (!taken.ok) throw conflict(taken.seatTaken ? SM.unvoidSeatTaken(taken.seatTaken) : M.unvoidSoldOut);
    } else {
      await moveSeats(tx, locked, [ticket], 'release');
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
    // Issue 25: a void and its undoing are both told, so a receiver's count of valid tickets stays right.
    await emitDomainEvent(deps, tx, {
      tenantId: ctx.tenantId,
      type: input.void ? 'order.voided' : 'order.unvoided',
      data: { order: { id: order.id, uid: order.orderUid, eventId: order.eventId }, ticket: { id: ticket.id, uid: ticket.ticketUid }, reason: input.reason },
    });
    return ticket.id;
  });
  const rows = await repo.ticketsOf(deps.db, ctx.tenantId, order.id);
  const row = rows.find((r) => r.ticket.id === ticketId)!;
  const refundId = (await repo.refundedTicketIds(deps.db, ctx.tenantId, order.id)).get(ticketId) ?? null;
  return { success: true, message: input.void ? M.ticketVoided : M.ticketUnvoided, ticket: toOrderTicket(row.ticket, row.voidedByEmail, refundId) };
}
