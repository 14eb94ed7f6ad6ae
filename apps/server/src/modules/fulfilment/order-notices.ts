import type { Deps } from '../../deps.js';
import { holderNotices } from '../order-admin/holder-notices.js';
import { REFUND_NOTICE_JOB, TICKET_NOTICE_JOB, type RefundNoticeJob, type TicketNoticeJob } from '../order-admin/notices.js';
import { DEFAULT_BRAND_COLOR } from './mails.js';
import { refundNoticeMail, ticketNoticeMail } from './order-notice-mails.js';
import { formatEventDateTime } from '@marquee/core';
import * as repo from './repository.js';
import { mintOrderLink } from './service.js';

// Issue 21.6: the jobs the order page's refund and void queue (modules/order-admin/notices.ts).
// Each mails the order's own address with a fresh private order link, through the outbox.

async function noticeContext(deps: Deps, tenantId: string, orderId: string) {
  const order = await repo.findOrder(deps.db, tenantId, orderId);
  if (!order || !order.email) return null;
  const [tenant, event, tickets] = await Promise.all([repo.findTenant(deps.db, tenantId), repo.findEvent(deps.db, tenantId, order.eventId), repo.ticketsOf(deps.db, tenantId, orderId)]);
  if (!tenant || !event) return null;
  return {
    order,
    tenant,
    tickets,
    base: {
      to: order.email,
      tenantId,
      brand: {
        name: tenant.name,
        logoUrl: tenant.logoKey ? deps.storage.downloadUrl(tenant.logoKey, 365 * 24 * 3600) : null,
        color: tenant.brandColor ?? DEFAULT_BRAND_COLOR,
      },
      event: { name: event.name, when: event.startDateTime ? formatEventDateTime(event.startDateTime, event.timeZone) : '' },
      order: { orderUid: order.orderUid, firstName: order.firstName, totalAmount: order.totalAmount },
      validTickets: tickets.filter((t) => !t.voided).length,
    },
  };
}

/** Job buyer.refund-notice: a refund that failed gave nothing back and is not announced. */
export async function sendRefundNotice(opts: { deps: Deps; job: RefundNoticeJob }): Promise<boolean> {
  const { deps, job } = opts;
  const refund = await repo.findRefundOf(deps.db, job.tenantId, job.orderId, job.refundId);
  if (!refund || refund.status === 'failed') return false;
  const c = await noticeContext(deps, job.tenantId, job.orderId);
  if (!c) return false;
  // Counted up to this refund, so that a later one's notice tells its own story.
  const live = (await repo.buyerRefundsOf(deps.db, job.tenantId, job.orderId)).filter((r) => r.createdAt <= refund.createdAt);
  const voided = c.tickets.filter((t) => refund.ticketIds.includes(t.id));
  await deps.db.transaction(async (tx) => {
    const orderLink = await mintOrderLink(tx, { deps, tenantId: job.tenantId, tenantUrl: c.tenant.url, orderId: job.orderId });
    await deps.mailer.send(
      tx,
      refundNoticeMail({
        ...c.base,
        orderLink,
        refund: { amount: refund.amount },
        refundedTotal: live.reduce((n, r) => n + r.amount, 0),
        voided: voided.map((t) => ({ ticketTypeName: t.ticketTypeName, fullName: t.fullName, ticketUid: t.ticketUid })),
      }),
    );
    // Issue 24: a voided ticket the buyer passed on is its holder's news too.
    for (const m of await holderNotices(tx, { tenantId: job.tenantId, orderId: job.orderId, eventId: c.order.eventId, kind: 'refunded', ticketIds: refund.ticketIds })) await deps.mailer.send(tx, m);
  });
  return true;
}

/**
 * Job buyer.ticket-notice: one mail per void or unvoid, in the order they were made (a void undone
 * a moment later is followed by its "valid again" mail, so the buyer never keeps the wrong word).
 */
export async function sendTicketNotice(opts: { deps: Deps; job: TicketNoticeJob }): Promise<boolean> {
  const { deps, job } = opts;
  const c = await noticeContext(deps, job.tenantId, job.orderId);
  const ticket = c?.tickets.find((t) => t.id === job.ticketId);
  if (!c || !ticket) return false;
  await deps.db.transaction(async (tx) => {
    const orderLink = await mintOrderLink(tx, { deps, tenantId: job.tenantId, tenantUrl: c.tenant.url, orderId: job.orderId });
    await deps.mailer.send(
      tx,
      ticketNoticeMail({
        ...c.base,
        orderLink,
        voided: job.voided,
        ticket: { ticketTypeName: ticket.ticketTypeName, fullName: ticket.fullName, ticketUid: ticket.ticketUid },
      }),
    );
    // Issue 24: the ticket's holder, when the buyer passed it on.
    const kind = job.voided ? 'voided' : 'restored';
    for (const m of await holderNotices(tx, { tenantId: job.tenantId, orderId: job.orderId, eventId: c.order.eventId, kind, ticketIds: [ticket.id] })) await deps.mailer.send(tx, m);
  });
  return true;
}

export function registerOrderNoticeJobs(deps: Deps) {
  deps.jobs.register(REFUND_NOTICE_JOB, async (job: RefundNoticeJob) => {
    await sendRefundNotice({ deps, job });
  });
  deps.jobs.register(TICKET_NOTICE_JOB, async (job: TicketNoticeJob) => {
    await sendTicketNotice({ deps, job });
  });
}
