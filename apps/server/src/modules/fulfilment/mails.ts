import { formatMoney, M } from '@marquee/core';
import sanitizeHtml from 'sanitize-html';
import { escapeHtml, type MailMessage } from '../../platform/mail.js';
import { formatEventDateTime, venueLines, type TicketEventInfo } from './pdf.js';

/** The delivery wording as plain text, whether the organiser typed text or rich text. */
export function plainVerbiage(verbiage: string): string {
  return sanitizeHtml(verbiage, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
}

export function ticketsFilename(orderUid: string): string {
  return `tickets_${orderUid.replace(/[^A-Za-z0-9_-]/g, '')}.pdf`;
}

/**
 * The tickets mail; the event's delivery wording arrives as plain text (see plainVerbiage).
 * spec: reports-payouts-checkout §9, the only delivery option is Print At Home (Email).
 */
export function ticketsMail(o: {
  to: string;
  tenantId: string;
  event: TicketEventInfo;
  order: { orderUid: string; firstName: string; totalAmount: number; donation: number; charityName: string | null };
  ticketCount: number;
  pdfKey: string;
  /** spec §4 Order status: resending a processing order's tickets is the claim e-mail. */
  claim?: boolean;
}): MailMessage {
  const { event, order } = o;
  const when = formatEventDateTime(event.startDateTime, event.timeZone);
  const where = venueLines(event).join(', ');
  const verbiage = event.emailDeliveryVerbiage.trim();
  const filename = ticketsFilename(order.orderUid);
  const greeting = order.firstName ? `Hi ${order.firstName},` : 'Hello,';
  // The charity's name as the order recorded it, so the thanks survive a later rename or delete.
  const donated = order.donation > 0 && !!order.charityName;
  const facts: Array<[string, string]> = [
    ['Event', event.name],
    ['When', when],
    ...(where ? ([['Where', where]] as Array<[string, string]>) : []),
    ['Order ID', order.orderUid],
    ['Tickets', String(o.ticketCount)],
    ...(donated ? ([['Donation', `${formatMoney(order.donation)} to ${order.charityName}`]] as Array<[string, string]>) : []),
    ['Total', formatMoney(order.totalAmount)],
    ['Delivery', M.printAtHome],
  ];
  const intro = o.claim
    ? `Your order ${order.orderUid} is confirmed and your tickets for ${event.name} are ready to claim. They are attached to this e-mail as a PDF (${filename}).`
    : `Thank you for your order. Your tickets for ${event.name} are attached to this e-mail as a PDF (${filename}).`;
  const thanks = donated ? `Thank you also for your donation of ${formatMoney(order.donation)} to ${order.charityName}.` : null;
  const howTo = 'Print the tickets or show them on your phone at the entrance. Each QR code admits one person once, so please do not share it.';
  const paragraphs = [greeting, intro, ...(thanks ? [thanks] : []), facts.map(([k, v]) => `${k}: ${v}`).join('\n'), howTo, ...(verbiage ? [verbiage] : [])];
  const text = paragraphs.join('\n\n');
  const html = `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
${thanks ? `<p>${escapeHtml(thanks)}</p>` : ''}
<table cellpadding="4" cellspacing="0">${facts.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
<p>${escapeHtml(howTo)}</p>
${verbiage ? `<p>${escapeHtml(verbiage).replace(/\n/g, '<br>')}</p>` : ''}`;
  return {
    to: o.to,
    tenantId: o.tenantId,
    subject: o.claim ? `Claim your tickets for ${event.name}` : `Your tickets for ${event.name}`,
    text,
    html,
    attachments: [{ filename, contentType: 'application/pdf', key: o.pdfKey }],
  };
}
