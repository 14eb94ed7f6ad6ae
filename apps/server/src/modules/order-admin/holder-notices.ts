import { formatEventDateTime } from '@marquee/core';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, tenants, ticketTransfers, tickets } from '../../db/schema/index.js';
import { escapeHtml, type MailMessage } from '../../platform/mail.js';

// Issue 24: a ticket the buyer passed on (modules/transfers) has a holder who is not the buyer. What
// the buyer is told about that ticket, its holder is told too, in the same transaction as the buyer's
// mail (so both are written, once, exactly when the buyer's is): the organiser voided or restored it,
// a refund voided it, or the event was cancelled. The holder has no order: their mail names the
// ticket, says what it means at the door, and who gets any money back (the buyer, who paid).
// The event's date changing mails no one today; when it does, its holders belong here too.

export type HolderNoticeKind = 'voided' | 'restored' | 'refunded' | 'cancelled';

export type TicketHolder = { ticketId: string; ticketUid: string; ticketTypeName: string; fullName: string; email: string; fromName: string };

/**
 * The holders of the order's transferred tickets (all of them, or those of `ticketIds`): the
 * ticket's holder now, and who passed it on.
 */
export async function transferredHoldersOf(db: DbOrTx, tenantId: string, orderId: string, ticketIds?: readonly string[]): Promise<TicketHolder[]> {
  if (ticketIds && ticketIds.length === 0) return [];
  const rows = await db
    .select({
      ticketId: tickets.id,
      ticketUid: tickets.ticketUid,
      ticketTypeName: tickets.ticketTypeName,
      fullName: tickets.fullName,
      email: tickets.email,
      fromName: ticketTransfers.fromName,
    })
    .from(tickets)
    .innerJoin(ticketTransfers, and(eq(ticketTransfers.tenantId, tickets.tenantId), eq(ticketTransfers.ticketId, tickets.id)))
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId), ticketIds ? inArray(tickets.id, [...ticketIds]) : undefined))
    .orderBy(tickets.id, desc(ticketTransfers.createdAt));
  // One per ticket (its latest transfer), and only a holder with an address.
  const seen = new Set<string>();
  return rows.filter((r) => r.email !== '' && !seen.has(r.ticketId) && seen.add(r.ticketId));
}

/** What the holders' mails name: the organiser and the event. */
export async function holderNoticeContext(db: DbOrTx, tenantId: string, eventId: string) {
  const [row] = await db
    .select({ organiser: tenants.name, contactEmail: tenants.email, eventName: events.name, startDateTime: events.startDateTime, timeZone: events.timeZone })
    .from(events)
    .innerJoin(tenants, eq(tenants.id, events.tenantId))
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row ?? null;
}

/** The mail a transferred ticket's holder gets when the ticket stops (or starts again) admitting. */
export function holderNoticeMail(o: {
  kind: HolderNoticeKind;
  tenantId: string;
  organiser: string;
  contactEmail: string | null;
  event: { name: string; startDateTime: Date | null; timeZone: string };
  holder: TicketHolder;
  /** The organiser's own words, on a cancellation (as the buyers get them). */
  message?: string | null;
}): MailMessage {
  const { holder, organiser } = o;
  const when = formatEventDateTime(o.event.startDateTime, o.event.timeZone);
  const event = `${o.event.name}${when ? ` (${when})` : ''}`;
  const ticket = `${holder.ticketTypeName}${holder.fullName ? `, ${holder.fullName}` : ''} (ticket ID ${holder.ticketUid})`;
  const from = holder.fromName || 'the buyer';
  const greeting = holder.fullName ? `Hi ${holder.fullName},` : 'Hello,';
  let subject: string;
  let lines: string[];
  switch (o.kind) {
    case 'voided':
      subject = `Your ticket for ${o.event.name} is no longer valid`;
      lines = [`${organiser} has voided the ticket ${from} passed to you for ${event}. It is no longer valid and will not admit anyone:`, ticket];
      break;
    case 'restored':
      subject = `Your ticket for ${o.event.name} is valid again`;
      lines = [`${organiser} has restored the ticket ${from} passed to you for ${event}. It is valid again:`, ticket, 'The ticket you already have admits you again: no new ticket is needed.'];
      break;
    case 'refunded':
      subject = `Your ticket for ${o.event.name} has been refunded`;
      lines = [
        `${organiser} has refunded the ticket ${from} passed to you for ${event}. It is no longer valid and will not admit anyone:`,
        ticket,
        `The money goes back to ${from}, who paid for it.`,
      ];
      break;
    case 'cancelled':
      subject = `Cancelled: ${o.event.name}`;
      lines = [
        `We are sorry to tell you that ${event} has been cancelled by ${organiser}. The ticket ${from} passed to you is no longer valid:`,
        ticket,
        `Any refund goes to ${from}, who paid for it.`,
      ];
      break;
  }
  const message = o.kind === 'cancelled' ? o.message?.trim() : undefined;
  const ask = o.contactEmail ? `Questions? Reply to this e-mail or write to ${o.contactEmail}.` : 'Questions? Reply to this e-mail.';
  const text = [greeting, ...lines, ...(message ? [`A message from ${organiser}:`, message] : []), ask, organiser].join('\n\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(lines[0]!)}</p>`,
    `<ul><li>${escapeHtml(lines[1]!)}</li></ul>`,
    ...lines.slice(2).map((l) => `<p>${escapeHtml(l)}</p>`),
    ...(message
      ? [`<p>${escapeHtml(`A message from ${organiser}:`)}</p>`, `<blockquote style="margin:0 0 1em;padding:0 0 0 12px;border-left:3px solid #ccc">${escapeHtml(message).replace(/\r?\n/g, '<br>')}</blockquote>`]
      : []),
    `<p>${escapeHtml(ask)}</p>`,
    `<p>${escapeHtml(organiser)}</p>`,
  ].join('\n');
  return { to: holder.email, tenantId: o.tenantId, replyTo: o.contactEmail || null, subject, text, html };
}

/**
 * The holders' mails for one change of an order's tickets (`ticketIds`; every transferred ticket of
 * the order when omitted), to be sent in the caller's transaction beside the buyer's.
 */
export async function holderNotices(
  db: DbOrTx,
  o: { tenantId: string; orderId: string; eventId: string; kind: HolderNoticeKind; ticketIds?: readonly string[]; message?: string | null },
): Promise<MailMessage[]> {
  const holders = await transferredHoldersOf(db, o.tenantId, o.orderId, o.ticketIds);
  if (holders.length === 0) return [];
  const c = await holderNoticeContext(db, o.tenantId, o.eventId);
  if (!c) return [];
  return holders.map((holder) =>
    holderNoticeMail({
      kind: o.kind,
      tenantId: o.tenantId,
      organiser: c.organiser,
      contactEmail: c.contactEmail,
      event: { name: c.eventName, startDateTime: c.startDateTime, timeZone: c.timeZone },
      holder,
      message: o.message ?? null,
    }),
  );
}
