import { formatMoney } from '@marquee/core';
import { escapeHtml, type MailMessage } from '../../platform/mail.js';
import { DEFAULT_BRAND_COLOR, type MailBrand } from './mails.js';

// Issue 21.6: what the buyer is told when the organiser refunds part or all of an order, or voids
// (or restores) one of its tickets. Our own wording (the spec has no such mails); the reason the
// organiser typed is for the order's audit trail and is not sent (docs/decisions.md).

export type NoticeTicket = { ticketTypeName: string; fullName: string; ticketUid: string };

type NoticeBase = {
  to: string;
  tenantId: string;
  brand: MailBrand;
  event: { name: string; when: string };
  order: { orderUid: string; firstName: string; totalAmount: number };
  /** Tickets of the order still valid after the change. */
  validTickets: number;
  orderLink: string;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const ticketLine = (t: NoticeTicket) => `${t.ticketTypeName}${t.fullName ? `, ${t.fullName}` : ''} (ticket ID ${t.ticketUid})`;
const eventOf = (e: NoticeBase['event']) => `${e.name}${e.when ? ` (${e.when})` : ''}`;

type Block = { text: string } | { list: string[] } | { link: { label: string; url: string } };

function compose(o: NoticeBase, subject: string, blocks: Block[]): MailMessage {
  const greeting = o.order.firstName ? `Hi ${o.order.firstName},` : 'Hello,';
  const all: Block[] = [{ text: greeting }, ...blocks, { text: 'Questions? Reply to this e-mail.' }, { text: o.brand.name }];
  const text = all
    .map((b) => ('text' in b ? b.text : 'list' in b ? b.list.map((l) => `- ${l}`).join('\n') : `${b.link.label}:\n${b.link.url}`))
    .join('\n\n');
  const color = escapeHtml(o.brand.color || DEFAULT_BRAND_COLOR);
  const header = `<div style="background:${color};color:#ffffff;padding:16px 20px;border-radius:8px 8px 0 0;font-family:Arial,sans-serif">${
    o.brand.logoUrl
      ? `<img src="${escapeHtml(o.brand.logoUrl)}" alt="${escapeHtml(o.brand.name)}" height="40" style="height:40px;vertical-align:middle;margin-right:12px;background:#ffffff;border-radius:4px;padding:2px">`
      : ''
  }<strong style="font-size:18px;vertical-align:middle">${escapeHtml(o.brand.name)}</strong></div>`;
  const body = all
    .slice(0, -1)
    .map((b) =>
      'text' in b
        ? `<p>${escapeHtml(b.text)}</p>`
        : 'list' in b
          ? `<ul>${b.list.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`
          : `<p><a href="${escapeHtml(b.link.url)}" style="display:inline-block;background:${color};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:bold">${escapeHtml(
              b.link.label,
            )}</a></p><p style="font-size:13px;color:#495057">Keep this link private: it opens your order without signing in.<br>${escapeHtml(b.link.url)}</p>`,
    )
    .join('\n');
  const html = `<div style="max-width:600px;margin:0 auto;font-family:Arial,sans-serif;color:#212529">
${header}<div style="padding:16px 20px;border:1px solid #dee2e6;border-top:0;border-radius:0 0 8px 8px">
${body}
</div></div>`;
  return { to: o.to, tenantId: o.tenantId, subject, text, html };
}

/**
 * A refund of the organiser's: how much, whether the order is now refunded in full, where the money
 * goes, and which tickets stopped being valid (those the refund voided; all of them after a full one).
 */
export function refundNoticeMail(
  o: NoticeBase & {
    refund: { amount: number };
    /** Everything given back so far, this refund included. */
    refundedTotal: number;
    /** Tickets this refund voided. */
    voided: NoticeTicket[];
  },
): MailMessage {
  const full = o.refundedTotal >= o.order.totalAmount;
  const amount = formatMoney(o.refund.amount);
  const earlier = o.refundedTotal > o.refund.amount;
  const what = full
    ? earlier
      ? `${o.brand.name} has refunded ${amount} of your order ${o.order.orderUid} for ${eventOf(o.event)}. With this refund, everything you paid (${formatMoney(o.order.totalAmount)}) has been refunded.`
      : `${o.brand.name} has refunded your order ${o.order.orderUid} for ${eventOf(o.event)} in full: ${amount}.`
    : `${o.brand.name} has refunded ${amount} of your order ${o.order.orderUid} for ${eventOf(o.event)}. In all, ${formatMoney(o.refundedTotal)} of the ${formatMoney(
        o.order.totalAmount,
      )} you paid has been refunded.`;
  const money = 'The money goes back to the card you paid with. It usually reaches your account within 5 to 10 business days.';
  const blocks: Block[] = [{ text: what }, { text: money }];
  if (o.voided.length > 0) {
    blocks.push({ text: o.voided.length === 1 ? 'This ticket is no longer valid and will not admit anyone:' : 'These tickets are no longer valid and will not admit anyone:' });
    blocks.push({ list: o.voided.map(ticketLine) });
  }
  if (o.validTickets > 0) {
    blocks.push({
      text:
        o.voided.length > 0
          ? `Your other ${plural(o.validTickets, 'ticket')} ${o.validTickets === 1 ? 'is' : 'are'} still valid.`
          : `Your ${plural(o.validTickets, 'ticket')} ${o.validTickets === 1 ? 'is' : 'are'} still valid.`,
    });
  } else if (o.voided.length > 0 || full) {
    blocks.push({ text: 'No ticket of this order is valid any more.' });
  }
  blocks.push({ link: { label: 'View your order', url: o.orderLink } });
  const subject = full ? `Your order for ${o.event.name} has been refunded` : `Refund of ${amount} for your order for ${o.event.name}`;
  return compose(o, subject, blocks);
}

/** A ticket the organiser voided (it admits no one) or restored (it admits again). */
export function ticketNoticeMail(o: NoticeBase & { ticket: NoticeTicket; voided: boolean }): MailMessage {
  const blocks: Block[] = o.voided
    ? [
        { text: `${o.brand.name} has voided a ticket of your order ${o.order.orderUid} for ${eventOf(o.event)}. It is no longer valid and will not admit anyone:` },
        { list: [ticketLine(o.ticket)] },
        {
          text:
            o.validTickets > 0
              ? `Your other ${plural(o.validTickets, 'ticket')} ${o.validTickets === 1 ? 'is' : 'are'} still valid.`
              : 'No ticket of this order is valid any more.',
        },
      ]
    : [
        { text: `${o.brand.name} has restored a ticket of your order ${o.order.orderUid} for ${eventOf(o.event)}. It is valid again:` },
        { list: [ticketLine(o.ticket)] },
        { text: 'The ticket you already have admits you again: no new ticket is needed. It is also on your order page.' },
      ];
  blocks.push({ link: { label: 'View your order', url: o.orderLink } });
  const subject = o.voided ? `A ticket for ${o.event.name} is no longer valid` : `Your ticket for ${o.event.name} is valid again`;
  return compose(o, subject, blocks);
}
