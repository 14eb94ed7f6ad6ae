import { formatMoney } from '@marquee/core';
import { escapeHtml, type MailMessage } from '../../platform/mail.js';

/**
 * The notice each buyer of a cancelled event gets, one per order (issue 15). The refund itself is
 * the cancellation refund job's; the mail says what happens to the money, in what is actually left
 * to give back (issue 21.9): the whole order, what was still held after an earlier refund, or
 * nothing (an order already refunded in full is told it is cancelled, with no refund promised).
 * `refund` is null for an order that took no money. `message` is the organiser's own, from the
 * cancel dialog, quoted as it was written.
 */
export function cancellationMail(o: {
  tenantId: string;
  organiser: string;
  contactEmail: string;
  event: { name: string; when: string };
  order: { email: string; firstName: string; orderUid: string; totalAmount: number };
  refund: { amount: number; earlier: number } | null;
  message?: string | null;
}): MailMessage {
  const greeting = o.order.firstName ? `Hi ${o.order.firstName},` : 'Hello,';
  const intro = `We are sorry to tell you that ${o.event.name}${o.event.when ? ` (${o.event.when})` : ''} has been cancelled by ${o.organiser}.`;
  const timing = 'You do not need to do anything. Refunds usually reach your account within 5 to 10 business days.';
  let money: string;
  if (!o.refund) money = `Your order ${o.order.orderUid} is cancelled; its tickets are no longer valid.`;
  else if (o.refund.amount <= 0)
    money = `Your order ${o.order.orderUid} is cancelled and its tickets are no longer valid. It was already refunded in full (${formatMoney(o.order.totalAmount)}), so no further payment is due to you.`;
  else if (o.refund.earlier > 0)
    money = `Your order ${o.order.orderUid} is cancelled. Of the ${formatMoney(o.order.totalAmount)} you paid, ${formatMoney(o.refund.earlier)} was already refunded to you; the remaining ${formatMoney(o.refund.amount)} is being refunded automatically to the card you paid with. ${timing}`;
  else
    money = `Your order ${o.order.orderUid} (${formatMoney(o.refund.amount)}) is being refunded in full, automatically, to the card you paid with. ${timing}`;
  const message = o.message?.trim();
  const quoted = message ? [`A message from ${o.organiser}:`, message] : [];
  const ask = o.contactEmail ? `Questions? Reply to this e-mail or write to ${o.contactEmail}.` : 'Questions? Reply to this e-mail.';
  const paragraphs = [greeting, intro, money, ...quoted, ask];
  const html = [greeting, intro, money].map((p) => `<p>${escapeHtml(p)}</p>`);
  if (message) {
    html.push(`<p>${escapeHtml(quoted[0]!)}</p>`);
    html.push(`<blockquote style="margin:0 0 1em;padding:0 0 0 12px;border-left:3px solid #ccc">${escapeHtml(message).replace(/\r?\n/g, '<br>')}</blockquote>`);
  }
  html.push(`<p>${escapeHtml(ask)}</p>`);
  return {
    to: o.order.email,
    tenantId: o.tenantId,
    replyTo: o.contactEmail || null,
    subject: `Cancelled: ${o.event.name}`,
    text: paragraphs.join('\n\n'),
    html: html.join('\n'),
  };
}
