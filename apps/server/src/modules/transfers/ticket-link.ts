import { TICKET_LINK_TOKEN_RE, type TTicketLinkPage } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { conflict, notFound } from '../../platform/errors.js';
import { M } from '@marquee/core';
import { signTicketCode } from '../checkin/ticket-code.js';
import { renderTicketsPdf, TICKET_QR_OPTIONS, venueLines } from '../fulfilment/pdf.js';
import * as fulfilmentRepo from '../fulfilment/repository.js';
import { ticketDocument } from '../fulfilment/service.js';
import * as repo from './repository.js';
import { ticketLinkHash } from './transfer-ticket.js';

// Issue 24: the new holder's own page behind /tickets/{token}: their one ticket and its code. The
// token is the only key; the host's tenant bounds it (like the order link).

async function transferOfLink(deps: Deps, site: SiteCtx, token: string) {
  if (!TICKET_LINK_TOKEN_RE.test(token)) throw notFound();
  const found = await repo.findByLink(deps.db, site.tenant.id, ticketLinkHash(token));
  if (!found) throw notFound();
  return found;
}

/** valid while this link's holder still holds it: not voided, not passed on again (its Ticket ID is still the one this transfer gave). */
function statusOf(found: NonNullable<Awaited<ReturnType<typeof repo.findByLink>>>) {
  if (found.ticket.ticketUid !== found.transfer.toUid) return 'transferred' as const;
  if (found.ticket.voided) return 'voided' as const;
  return found.ticket.used ? ('used' as const) : ('valid' as const);
}

export async function getTicketLinkPage(opts: { deps: Deps; site: SiteCtx; token: string }): Promise<TTicketLinkPage> {
  const { deps } = opts;
  const found = await transferOfLink(deps, opts.site, opts.token);
  const { ticket, transfer } = found;
  const event = await fulfilmentRepo.findEvent(deps.db, ticket.tenantId, ticket.eventId);
  const status = statusOf(found);
  const qrSvg =
    status === 'valid'
      ? await (await import('qrcode')).default.toString(signTicketCode(deps.config.secret, ticket.eventId, ticket.ticketUid), { ...TICKET_QR_OPTIONS, type: 'svg', margin: 4 })
      : null;
  return {
    event: event
      ? {
          name: event.name,
          urlName: event.urlName,
          status: event.status,
          startDateTime: event.startDateTime?.toISOString() ?? null,
          endDateTime: event.endDateTime?.toISOString() ?? null,
          timeZone: event.timeZone,
          venue: venueLines(event),
        }
      : { name: '', urlName: '', status: 'cancelled', startDateTime: null, endDateTime: null, timeZone: 'UTC', venue: [] },
    ticket: {
      ticketTypeName: ticket.ticketTypeName,
      fullName: status === 'transferred' ? transfer.toName : ticket.fullName,
      fromName: transfer.fromName,
      transferredAt: transfer.createdAt.toISOString(),
      status,
      ticketUID: status === 'valid' ? ticket.ticketUid : null,
      qrSvg,
    },
  };
}

/** The holder's ticket as a PDF (the same ticket the order's PDF would print). */
export async function downloadTicketByLink(opts: { deps: Deps; site: SiteCtx; token: string }) {
  const { deps } = opts;
  const found = await transferOfLink(deps, opts.site, opts.token);
  if (statusOf(found) !== 'valid') throw conflict(M.noValidTickets);
  const event = await fulfilmentRepo.findEvent(deps.db, found.ticket.tenantId, found.ticket.eventId);
  const order = await fulfilmentRepo.findOrder(deps.db, found.ticket.tenantId, found.ticket.orderId);
  if (!event || !order) throw notFound();
  const doc = await ticketDocument(deps, event, order.orderUid, [found.ticket]);
  return { filename: `ticket_${found.ticket.ticketUid}.pdf`, bytes: await renderTicketsPdf(doc) };
}
