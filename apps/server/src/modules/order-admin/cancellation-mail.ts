import { formatMoney } from '@marquee/core';
import { escapeHtml, type MailMessage } from '../../platform/mail.js';

/**
 * The notice each buyer of a cancelled event gets, one per order (issue 15). The refund itself is
 * the cancellation refund job's; the mail says what happens to the money and whom to ask.
 */
export function cancellationMail(o: {
  tenantId: string;
  organiser: string;
  contactEmail: string;
  event: { name: string; when: string };
  order: { email: string; firstName: string; orderUid: string; totalAmount: number };
}): MailMessage {
  const greeting = o.order.firstName ? `Hi ${o.order.firstName},` : 'Hello,';
  const intro = `We are sorry to tell you that ${o.event.name}${o.event.when ? ` (${o.event.when})` : ''} has been cancelled by ${o.organiser}.`;
  const money =
    o.order.totalAmount > 0
      ? `Your order ${o.order.orderUid} (${formatMoney(o.order.totalAmount)}) is being refunded in full to the card you paid with. Refunds usually reach your account within 5 to 10 business days.`
      : `Your order ${o.order.orderUid} is cancelled; its tickets are no longer valid.`;
  const ask = o.contactEmail ? `Questions? Reply to this e-mail or write to ${o.contactEmail}.` : 'Questions? Reply to this e-mail.';
  const paragraphs = [greeting, intro, money, ask];
  return {
    to: o.order.email,
    tenantId: o.tenantId,
    replyTo: o.contactEmail || null,
    subject: `Cancelled: ${o.event.name}`,
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n'),
  };
}
