import { formatEventDateTime, M } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { publicOrigin } from '../../config.js';
import { conflict, notFound } from '../../platform/errors.js';
import { buildApplePass } from '../wallet/apple-pass.js';
import { googleSaveUrl } from '../wallet/google-pass.js';
import type { WalletTicket } from '../wallet/wallet-ticket.js';
import { DEFAULT_BRAND_COLOR, plainVerbiage } from './mails.js';
import { orderOfLink } from './order-link.js';
import { venueLines } from './pdf.js';
import * as repo from './repository.js';
import { signTicketCode } from '../checkin/ticket-code.js';
import { APPLE_WEB_SERVICE_PATH, applePassAuthToken } from './apple-pass-auth.js';

// Issue 28: one ticket's wallet pass behind the order link, authorised by its token exactly as the
// PDF download is. Only a valid ticket of a completed order that the buyer still holds has one.

async function walletTicketOfLink(deps: Deps, site: SiteCtx, token: string, ticketId: string): Promise<WalletTicket> {
  const order = await orderOfLink(deps, site, token);
  if (order.status !== 'completed') throw conflict(M.ticketsOnlyForCompletedOrders);
  const found = await walletTicketOf(deps, order, (t) => t.id === ticketId);
  // Another order's ticket (of this tenant or any other) is not this link's: 404, as an unknown id is.
  if (!found) throw notFound();
  if (found.invalid) throw conflict(M.walletTicketNotValid);
  return withAppleWebService(deps, order.tenantId, found);
}

type OrderOfTicket = { id: string; tenantId: string; eventId: string; orderUid: string; status: string };

/**
 * One ticket of the order as its wallet pass shows it, with why it no longer admits when it does not
 * (`invalid`): voided, refunded, passed on, used, or its event cancelled. Null when the order has no
 * such ticket.
 */
export async function walletTicketOf(deps: Deps, order: OrderOfTicket, which: (t: { id: string; ticketUid: string }) => boolean): Promise<WalletTicket | null> {
  const [tickets, transferred, event, tenant] = await Promise.all([
    repo.ticketsOf(deps.db, order.tenantId, order.id),
    repo.transfersOfOrder(deps.db, order.tenantId, order.id),
    repo.findEvent(deps.db, order.tenantId, order.eventId),
    repo.findTenant(deps.db, order.tenantId),
  ]);
  const ticket = tickets.find(which);
  if (!ticket || !event || !tenant) return null;
  const invalid =
    event.status === 'cancelled'
      ? 'Event cancelled'
      : ticket.voided || order.status !== 'completed'
        ? 'Voided'
        : transferred.has(ticket.id)
          ? 'Passed on'
          : ticket.used
            ? 'Used'
            : null;
  const logo = tenant.logoKey ? ((await deps.storage.get(tenant.logoKey))?.bytes ?? null) : null;
  return {
    ticketUid: ticket.ticketUid,
    code: signTicketCode(deps.config.secret, event.id, ticket.ticketUid),
    eventId: event.id,
    eventName: event.name,
    when: event.startDateTime ? formatEventDateTime(event.startDateTime, event.timeZone) : null,
    startDateTime: event.startDateTime,
    endDateTime: event.endDateTime,
    venueName: event.venueName,
    venue: venueLines(event),
    ticketTypeName: ticket.ticketTypeName,
    seat: ticket.seatLabel ?? null,
    fullName: ticket.fullName,
    orderUid: order.orderUid,
    organizer: { name: tenant.name, color: tenant.brandColor ?? DEFAULT_BRAND_COLOR, logo, origin: publicOrigin(deps.config, tenant.url) },
    note: plainVerbiage(event.emailDeliveryVerbiage),
    invalid,
  };
}

/** The pass's web service (its updates) and the pass's own authentication token (docs/wallet.md). */
export function withAppleWebService(deps: Deps, tenantId: string, t: WalletTicket): WalletTicket {
  return { ...t, webService: { url: `${t.organizer.origin}${APPLE_WEB_SERVICE_PATH}`, authenticationToken: applePassAuthToken(deps.config.secret, tenantId, t.ticketUid) } };
}

export async function applePassByLink(opts: { deps: Deps; site: SiteCtx; token: string; ticketId: string }) {
  const config = opts.deps.config.wallet.apple;
  if (!config) throw notFound(M.walletNotConfigured);
  const ticket = await walletTicketOfLink(opts.deps, opts.site, opts.token, opts.ticketId);
  return { filename: `ticket_${ticket.ticketUid}.pkpass`, bytes: await buildApplePass(config, ticket) };
}

export async function googleWalletByLink(opts: { deps: Deps; site: SiteCtx; token: string; ticketId: string }) {
  const config = opts.deps.config.wallet.google;
  if (!config) throw notFound(M.walletNotConfigured);
  const ticket = await walletTicketOfLink(opts.deps, opts.site, opts.token, opts.ticketId);
  return { url: await googleSaveUrl(config, ticket) };
}
