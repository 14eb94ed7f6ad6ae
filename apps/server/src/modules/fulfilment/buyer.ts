import { eventTransferRefusal, formatEventDateTime, ticketPricesAfterDiscount, type TOrderPage } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { conflict } from '../../platform/errors.js';
import { M } from '@marquee/core';
import { insertAction } from '../order-admin/repository.js';
import { signTicketCode } from '../checkin/ticket-code.js';
import { lineDiscounts, toPublicOrder } from '../orders/public-order.js';
import { findMyTicketsMail, ticketsFilename } from './mails.js';
import { renderTicketsPdf, TICKET_QR_OPTIONS, venueLines } from './pdf.js';
import * as repo from './repository.js';
import { fulfilOrder, mintOrderLink, orderTicketDocument, sendTicketsMail } from './service.js';
import { orderOfLink } from './order-link.js';
import { walletPaths } from './wallet-paths.js';
import { randomUUID } from 'node:crypto';
import type { TOrderAnswersInput } from '@marquee/core';
import { editOrderAnswers, getOrderAnswersForBuyer } from '../questions/order-answers.js';

// Buyers' self-service (issue 15): the private order page behind /orders/{token}, its Download
// and Resend, and "Find my tickets". The token is the only key; the host's tenant bounds it.

export const FIND_TICKETS_JOB = 'buyer.find-tickets';
/** The newest orders a "Find my tickets" mail lists. */
const FIND_TICKETS_MAX_ORDERS = 20;


export async function getOrderPage(opts: { deps: Deps; site: SiteCtx; token: string }): Promise<TOrderPage> {
  const { deps } = opts;
  const order = await orderOfLink(deps, opts.site, opts.token);
  const completed = order.status === 'completed';
  const [event, tickets, lines, refunds, transferred, allowed] = await Promise.all([
    repo.findEvent(deps.db, order.tenantId, order.eventId),
    completed ? repo.ticketsOf(deps.db, order.tenantId, order.id) : Promise.resolve([]),
    repo.linesOf(deps.db, order.tenantId, order.id),
    repo.buyerRefundsOf(deps.db, order.tenantId, order.id),
    repo.transfersOfOrder(deps.db, order.tenantId, order.id),
    repo.transfersAllowed(deps.db, order.tenantId, order.eventId),
  ]);
  const info = event
    ? {
        name: event.name,
        urlName: event.urlName,
        status: event.status,
        startDateTime: event.startDateTime?.toISOString() ?? null,
        endDateTime: event.endDateTime?.toISOString() ?? null,
        timeZone: event.timeZone,
        venue: venueLines(event),
      }
    : { name: '', urlName: '', status: 'cancelled', startDateTime: null, endDateTime: null, timeZone: 'UTC', venue: [] };
  // Issue 21.8: each ticket at what it sold for, its line's discount shared as the engine shares it.
  const discounts = lineDiscounts(order, lines);
  const soldFor = new Map(
    lines.map((l) => [l.ticketTypeId, ticketPricesAfterDiscount(l.unitPrice, l.quantity, discounts.get(l.ticketTypeId) ?? 0)]),
  );
  const seen = new Map<string, number>();
  const refundedTickets = new Set(refunds.flatMap((r) => r.ticketIds));
  const refundedAmount = refunds.reduce((n, r) => n + r.amount, 0);
  const qr = tickets.some((t) => !t.voided && !t.used && !transferred.has(t.id)) ? (await import('qrcode')).default : null;
  return {
    order: await toPublicOrder(deps, order),
    event: info,
    tickets: await Promise.all(
      tickets.map(async (t) => {
        const index = seen.get(t.ticketTypeId) ?? 0;
        seen.set(t.ticketTypeId, index + 1);
        const moved = transferred.get(t.id);
        // Issue 24: a ticket passed on is shown as where it went, without its code (its new holder's now).
        const status = moved
          ? ('transferred' as const)
          : t.voided
            ? refundedTickets.has(t.id)
              ? ('refunded' as const)
              : ('voided' as const)
            : t.used
              ? ('used' as const)
              : ('valid' as const);
        // The same signed code as the PDF's, drawn as a vector image the page shows as it is.
        const qrSvg =
          status === 'valid' && qr ? await qr.toString(signTicketCode(deps.config.secret, order.eventId, t.ticketUid), { ...TICKET_QR_OPTIONS, type: 'svg', margin: 4 }) : null;
        return {
          ticketId: t.id,
          ticketTypeName: t.ticketTypeName,
          seat: t.seatLabel,
          fullName: moved ? moved.toName : t.fullName,
          price: t.price,
          paid: soldFor.get(t.ticketTypeId)?.[index] ?? t.price,
          status,
          voidedAt: t.voided ? (t.voidedAt?.toISOString() ?? null) : null,
          ticketUID: status === 'valid' ? t.ticketUid : null,
          qrSvg,
          transferredTo: moved ? { fullName: moved.toName, email: moved.toEmail, at: moved.at.toISOString() } : null,
          wallet: status === 'valid' ? walletPaths(deps, opts.token, t.id) : { apple: null, google: null },
        };
      }),
    ),
    canDownload: completed && tickets.some((t) => !t.voided && !transferred.has(t.id)),
    canTransfer:
      completed &&
      !!event &&
      eventTransferRefusal({ allowed, status: event.status, startDateTime: event.startDateTime, endDateTime: event.endDateTime, now: new Date() }) === null,
    refunds: refunds.map((r) => ({ amount: r.amount, date: r.createdAt.toISOString(), status: r.status === 'succeeded' ? ('succeeded' as const) : ('pending' as const) })),
    refundedAmount,
    refundState: refundedAmount <= 0 ? 'none' : refundedAmount >= order.totalAmount ? 'full' : 'partial',
  };
}

async function audit(deps: Deps, order: repo.OrderRow, action: 'download' | 'resend', details: Record<string, unknown>) {
  await insertAction(deps.db, { tenantId: order.tenantId, orderId: order.id, action, userId: null, userEmail: order.email, details: { ...details, by: 'order link' } });
}

export async function downloadByLink(opts: { deps: Deps; site: SiteCtx; token: string }) {
  const order = await orderOfLink(opts.deps, opts.site, opts.token);
  if (order.status !== 'completed') throw conflict(M.ticketsOnlyForCompletedOrders);
  const doc = await orderTicketDocument(opts.deps, order);
  if (doc.tickets.length === 0) throw conflict(M.noValidTickets);
  const bytes = await renderTicketsPdf(doc);
  await audit(opts.deps, order, 'download', { tickets: doc.tickets.length });
  return { filename: ticketsFilename(order.orderUid), bytes };
}

/** Resends to the order's own address only: the link's holder cannot redirect the tickets elsewhere. */
export async function resendByLink(opts: { deps: Deps; site: SiteCtx; token: string }) {
  const { deps } = opts;
  let order = await orderOfLink(deps, opts.site, opts.token);
  if (order.status === 'processing') {
    await fulfilOrder({ deps, tenantId: order.tenantId, orderId: order.id, claim: true });
    order = (await repo.findOrder(deps.db, order.tenantId, order.id)) ?? order;
  }
  if (order.status !== 'completed') throw conflict(M.ticketsOnlyForCompletedOrders);
  const doc = await orderTicketDocument(deps, order);
  if (doc.tickets.length === 0) throw conflict(M.noValidTickets);
  const pdfKey = `tickets/${order.tenantId}/${order.id}/${randomUUID()}.pdf`;
  await deps.storage.put(pdfKey, await renderTicketsPdf(doc), 'application/pdf');
  await deps.db.transaction(async (tx) => {
    await sendTicketsMail(tx, { deps, order, doc, pdfKey, to: order.email });
    await insertAction(tx, { tenantId: order.tenantId, orderId: order.id, action: 'resend', userId: null, userEmail: order.email, details: { to: order.email, by: 'order link' } });
  });
  return { success: true as const, message: M.orderLinkResent };
}

/**
 * "Find my tickets": the answer never depends on the address (no enumeration, not even by
 * timing): the look-up and the mail are a job.
 */
export async function requestOrderLinks(opts: { deps: Deps; site: SiteCtx; email: string }) {
  await opts.deps.jobs.enqueue(opts.deps.db, FIND_TICKETS_JOB, { tenantId: opts.site.tenant.id, email: opts.email.trim().toLowerCase() });
  return { success: true as const, message: M.findTicketsSent };
}

/** Job: one mail listing a fresh link to each of the address's paid orders; nothing when it has none. */
export async function sendOrderLinks(opts: { deps: Deps; tenantId: string; email: string }) {
  const { deps, tenantId, email } = opts;
  const tenant = await repo.findTenant(deps.db, tenantId);
  if (!tenant) return;
  const found = await repo.paidOrdersOf(deps.db, tenantId, email, FIND_TICKETS_MAX_ORDERS);
  if (found.length === 0) return;
  await deps.db.transaction(async (tx) => {
    const orders = [];
    for (const f of found) {
      const link = await mintOrderLink(tx, { deps, tenantId, tenantUrl: tenant.url, orderId: f.order.id });
      orders.push({ eventName: f.eventName, when: formatEventDateTime(f.startDateTime, f.timeZone), orderUid: f.order.orderUid, link });
    }
    // To the address as the latest order spelled it (the look-up ignores case).
    await deps.mailer.send(tx, findMyTicketsMail({ to: found[0]!.order.email, tenantId, tenantName: tenant.name, orders }));
  });
}

/** Issue 24: the order's attendees and answers behind the order link; the buyer may change them until the event's deadline. */
export async function getAnswersByLink(opts: { deps: Deps; site: SiteCtx; token: string }) {
  const order = await orderOfLink(opts.deps, opts.site, opts.token);
  return getOrderAnswersForBuyer({ deps: opts.deps, tenantId: order.tenantId, orderId: order.id, eventId: order.eventId, status: order.status });
}

export async function editAnswersByLink(opts: { deps: Deps; site: SiteCtx; token: string; input: TOrderAnswersInput }) {
  const order = await orderOfLink(opts.deps, opts.site, opts.token);
  return editOrderAnswers({ deps: opts.deps, tenantId: order.tenantId, by: 'buyer', order: { id: order.id, eventId: order.eventId }, input: opts.input });
}
