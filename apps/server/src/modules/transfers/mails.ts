import { formatEventDateTime } from '@marquee/core';
import { escapeHtml, type MailMessage } from '../../platform/mail.js';

/** Issue 24: the new holder's mail: who passed them the ticket, the event, and their own private link. */
export function ticketTransferredMail(o: {
  to: string;
  tenantId: string;
  tenantName: string;
  toName: string;
  fromName: string;
  event: { name: string; startDateTime: Date | null; timeZone: string };
  ticketTypeName: string;
  link: string;
}): MailMessage {
  const when = formatEventDateTime(o.event.startDateTime, o.event.timeZone);
  const intro = `Hello ${o.toName}, ${o.fromName} has passed you a ticket for ${o.event.name}${when ? ` (${when})` : ''}: ${o.ticketTypeName}.`;
  const how = 'Your ticket and its QR code are behind the link below; show the code at the door, on your phone or printed. It is your own code: the one the ticket had before no longer admits anyone.';
  const keep = 'Keep this link private: it opens your ticket without signing in.';
  const text = [intro, how, o.link, keep].join('\n\n');
  const html = `<p>${escapeHtml(intro)}</p>
<p>${escapeHtml(how)}</p>
<p><a href="${escapeHtml(o.link)}">Open your ticket</a></p>
<p>${escapeHtml(keep)}</p>`;
  return { to: o.to, tenantId: o.tenantId, subject: `Your ticket for ${o.event.name}, from ${o.fromName}`, text, html };
}
