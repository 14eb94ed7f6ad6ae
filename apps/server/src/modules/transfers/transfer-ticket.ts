import { createHash, randomBytes } from 'node:crypto';
import { eventTransferRefusal, M, ORDER_LINK_TOKEN_RE, type TransferErrorCode, type TTransferTicketResponse } from '@marquee/core';
import { publicOrigin } from '../../config.js';
import type { Deps } from '../../deps.js';
import { emitTicketTransferred } from '../../platform/domain-events.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { conflict, DomainError, notFound } from '../../platform/errors.js';
import * as fulfilmentRepo from '../fulfilment/repository.js';
import { newTicketUid, orderLinkHash } from '../fulfilment/service.js';
import { insertAction } from '../order-admin/repository.js';
import { lockTenantOrder } from '../orders/repository.js';
import { ticketTransferredMail } from './mails.js';
import * as repo from './repository.js';

// Issue 24: the buyer passes one ticket of their order on, from the order link. The ticket keeps its
// row (its seat, price, refunds and reports stay as they were) and gets a new holder and a new Ticket
// ID, so the code the buyer holds names no ticket any more and the door answers "transferred".

const MESSAGES: Record<TransferErrorCode, string> = {
  TRANSFERS_OFF: M.transfersOff,
  TRANSFER_TICKET_USED: M.transferTicketUsed,
  TRANSFER_TICKET_VOIDED: M.transferTicketVoided,
  TRANSFER_TICKET_REFUNDED: M.transferTicketRefunded,
  TRANSFER_ALREADY_TRANSFERRED: M.transferAlreadyTransferred,
  TRANSFER_SAME_PERSON: M.transferSamePerson,
  TRANSFER_EVENT_OVER: M.transferEventOver,
  EVENT_CANCELLED: M.transferEventCancelled,
};

const refuse = (code: TransferErrorCode, fields?: Record<string, string>) => new DomainError(code, MESSAGES[code], fields ? { fields } : undefined);

/** sha256 of a holder's link token: all the database keeps of it. */
export const ticketLinkHash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function transferTicket(opts: {
  deps: Deps;
  site: SiteCtx;
  token: string;
  input: { ticketId: string; fullName: string; email: string };
}): Promise<TTransferTicketResponse> {
  const { deps, site, input } = opts;
  if (!ORDER_LINK_TOKEN_RE.test(opts.token)) throw notFound();
  const order = await fulfilmentRepo.findOrderByLink(deps.db, site.tenant.id, orderLinkHash(opts.token));
  if (!order) throw notFound();
  const tenantId = order.tenantId;
  const [event, allowed, tenant] = await Promise.all([
    fulfilmentRepo.findEvent(deps.db, tenantId, order.eventId),
    repo.findSettings(deps.db, tenantId, order.eventId),
    fulfilmentRepo.findTenant(deps.db, tenantId),
  ]);
  if (!event || !tenant) throw notFound();

  const token = randomBytes(32).toString('base64url');
  const link = `${publicOrigin(deps.config, tenant.url)}/tickets/${token}`;
  const at = new Date();
  const moved = await deps.db.transaction(async (tx) => {
    // The one lock order (docs/architecture.md): the order first, then its ticket. A scan, a refund or
    // a void of the same ticket queues behind this (or this behind it) and sees what it left.
    const locked = await lockTenantOrder(tx, tenantId, order.id);
    if (!locked) throw notFound();
    const ticket = await repo.lockTicketOfOrder(tx, tenantId, order.id, input.ticketId);
    if (!ticket) throw notFound();
    if (locked.status !== 'completed') throw conflict(M.transferOrderNotComplete);
    const why = eventTransferRefusal({ allowed, status: event.status, startDateTime: event.startDateTime, endDateTime: event.endDateTime, now: at });
    if (why) throw refuse(why);
    if ((await repo.transfersOfTicket(tx, tenantId, ticket.id)).length > 0) throw refuse('TRANSFER_ALREADY_TRANSFERRED');
    if (ticket.voided) throw refuse((await repo.isRefunded(tx, tenantId, order.id, ticket.id)) ? 'TRANSFER_TICKET_REFUNDED' : 'TRANSFER_TICKET_VOIDED');
    if (ticket.used) throw refuse('TRANSFER_TICKET_USED');
    const holderEmail = (ticket.email || locked.email).trim().toLowerCase();
    if (input.email === holderEmail) throw refuse('TRANSFER_SAME_PERSON', { email: M.transferSamePerson });

    const newUid = newTicketUid();
    await repo.moveTicket(tx, { tenantId, ticketId: ticket.id, ticketUid: newUid, fullName: input.fullName, email: input.email });
    const fromName = ticket.fullName || `${locked.firstName ?? ''} ${locked.lastName ?? ''}`.trim() || locked.email;
    await repo.insertTransfer(tx, {
      tenantId,
      ticketId: ticket.id,
      orderId: order.id,
      eventId: order.eventId,
      fromUid: ticket.ticketUid,
      toUid: newUid,
      fromName,
      fromEmail: holderEmail,
      toName: input.fullName,
      toEmail: input.email,
      linkHash: ticketLinkHash(token),
      via: 'order link',
      createdAt: at,
    });
    await insertAction(tx, {
      tenantId,
      orderId: order.id,
      ticketId: ticket.id,
      action: 'transfer',
      reason: `to ${input.fullName} (${input.email})`,
      userId: null,
      userEmail: locked.email,
      details: { ticketUID: ticket.ticketUid, newTicketUID: newUid, to: input.email, by: 'order link' },
    });
    await emitTicketTransferred(deps, tx, {
      tenantId,
      ticket: { id: ticket.id, uid: newUid, eventId: order.eventId, orderId: order.id },
      from: { fullName: fromName, email: holderEmail },
      to: { fullName: input.fullName, email: input.email },
    });
    await deps.mailer.send(
      tx,
      ticketTransferredMail({ to: input.email, tenantId, tenantName: tenant.name, toName: input.fullName, fromName, event, ticketTypeName: ticket.ticketTypeName, link }),
    );
    return { fullName: input.fullName, email: input.email, at: at.toISOString() };
  });
  return { success: true, message: M.transferDone, transferredTo: moved };
}
