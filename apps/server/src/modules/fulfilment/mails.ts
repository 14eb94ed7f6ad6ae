import { DEFAULT_BRAND_COLOR, formatEventDateTime, formatMoney, M } from '@marquee/core';
import sanitizeHtml from 'sanitize-html';
import { escapeHtml, type MailMessage } from '../../platform/mail.js';
import { storedCharges } from '../orders/public-order.js';
import { venueLines, type TicketEventInfo } from './pdf.js';

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

export type ReceiptOrder = {
  subtotal: number;
  discount: number;
  discountCode: string | null;
  surcharge: number;
  processingFee: number;
  vat: number;
  donation: number;
  charityName: string | null;
  totalAmount: number;
  breakdown: string | null;
};
export type ReceiptLine = { label: string; amount: number; kind: 'ticket' | 'charge' | 'discount' | 'total' };

/**
 * The itemised receipt, every figure as the order stored it (never priced again): the same lines,
 * words and order as the checkout's breakdown; zero charges are left out, as there.
 */
export function receiptLines(order: ReceiptOrder, lines: Array<{ ticketName: string; unitPrice: number; quantity: number }>): ReceiptLine[] {
  const { donationFee, channelCharge } = storedCharges(order.breakdown);
  const out: ReceiptLine[] = lines.map((l) => ({ label: `${l.ticketName} × ${l.quantity} @ ${formatMoney(l.unitPrice)}`, amount: l.unitPrice * l.quantity, kind: 'ticket' }));
  const count = lines.reduce((n, l) => n + l.quantity, 0);
  out.push({ label: `Subtotal (${count} ticket${count === 1 ? '' : 's'})`, amount: order.subtotal, kind: 'charge' });
  if (order.discount > 0) out.push({ label: `Discount${order.discountCode ? ` (${order.discountCode})` : ''}`, amount: -order.discount, kind: 'discount' });
  if (order.surcharge > 0) out.push({ label: 'Service fee', amount: order.surcharge, kind: 'charge' });
  if (order.processingFee > 0) out.push({ label: 'Processing fee', amount: order.processingFee, kind: 'charge' });
  if (order.vat > 0) out.push({ label: 'Taxes', amount: order.vat, kind: 'charge' });
  if (channelCharge > 0) out.push({ label: 'Online charge', amount: channelCharge, kind: 'charge' });
  if (order.donation > 0) out.push({ label: `Donation${order.charityName ? ` to ${order.charityName}` : ''}`, amount: order.donation, kind: 'charge' });
  if (donationFee > 0) out.push({ label: 'Donation fee', amount: donationFee, kind: 'charge' });
  out.push({ label: 'Total', amount: order.totalAmount, kind: 'total' });
  return out;
}

const moneyOf = (amount: number) => (amount < 0 ? `−${formatMoney(-amount)}` : formatMoney(amount));

/** The tenant's look in its mails: its name, its logo, and the event site's accent colour. */
export type MailBrand = { name: string; logoUrl: string | null; color: string };
/** The default accent (core); a tenant's own is its brand colour (issue 28). */
export { DEFAULT_BRAND_COLOR };

/**
 * The tickets mail; the event's delivery wording arrives as plain text (see plainVerbiage).
 * spec: reports-payouts-checkout §9, the only delivery option is Print At Home (Email).
 * Issue 15: branded, with the itemised receipt, the private order link and an .ics attachment.
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
  receipt?: ReceiptLine[];
  orderLink?: string;
  /** Issue 28: each ticket's "Add to … Wallet" links; empty or absent when no wallet is set up. */
  wallet?: Array<{ label: string; apple: string | null; google: string | null }>;
  icsKey?: string;
  brand?: MailBrand;
}): MailMessage {
  const { event, order } = o;
  const when = formatEventDateTime(event.startDateTime, event.timeZone) + (event.startDateTime ? ` (${event.timeZone.replace(/_/g, ' ')} time)` : '');
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
  const linkText = o.orderLink
    ? `View your order, download your tickets or have them sent again at any time (keep this link private, it opens your order without signing in):\n${o.orderLink}`
    : null;
  const wallet = o.wallet ?? [];
  const walletText = wallet.length
    ? [
        'Add your tickets to your phone’s wallet:',
        ...wallet.map((w) => [w.label, ...(w.apple ? [`${M.addToAppleWallet}: ${w.apple}`] : []), ...(w.google ? [`${M.addToGoogleWallet}: ${w.google}`] : [])].join('\n')),
      ].join('\n\n')
    : null;
  const receiptText = o.receipt?.length ? ['Receipt', ...o.receipt.map((l) => `${l.label}: ${moneyOf(l.amount)}`)].join('\n') : null;
  const calendarText = o.icsKey ? 'Add the event to your calendar with the attached invite.ics.' : null;
  const paragraphs = [
    greeting,
    intro,
    ...(thanks ? [thanks] : []),
    facts.map(([k, v]) => `${k}: ${v}`).join('\n'),
    ...(linkText ? [linkText] : []),
    ...(walletText ? [walletText] : []),
    ...(receiptText ? [receiptText] : []),
    howTo,
    ...(calendarText ? [calendarText] : []),
    ...(verbiage ? [verbiage] : []),
    ...(o.brand ? [`${o.brand.name}`] : []),
  ];
  const text = paragraphs.join('\n\n');
  const color = o.brand?.color ?? DEFAULT_BRAND_COLOR;
  const header = o.brand
    ? `<div style="background:${escapeHtml(color)};color:#ffffff;padding:16px 20px;border-radius:8px 8px 0 0;font-family:Arial,sans-serif">${
        o.brand.logoUrl ? `<img src="${escapeHtml(o.brand.logoUrl)}" alt="${escapeHtml(o.brand.name)}" height="40" style="height:40px;vertical-align:middle;margin-right:12px;background:#ffffff;border-radius:4px;padding:2px">` : ''
      }<strong style="font-size:18px;vertical-align:middle">${escapeHtml(o.brand.name)}</strong></div>`
    : '';
  const button = o.orderLink
    ? `<p><a href="${escapeHtml(o.orderLink)}" style="display:inline-block;background:${escapeHtml(color)};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:bold">View your order</a></p>
<p style="font-size:13px;color:#495057">Download your tickets or have them sent again at any time. Keep this link private: it opens your order without signing in.<br>${escapeHtml(o.orderLink)}</p>`
    : '';
  // Black buttons, as Apple's and Google's own badges are; their artwork is theirs to ship, not ours.
  const walletButton = (href: string, label: string) =>
    `<a href="${escapeHtml(href)}" style="display:inline-block;background:#000000;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:8px;font-weight:bold;font-size:14px;margin:4px 8px 4px 0">${escapeHtml(label)}</a>`;
  const walletHtml = wallet.length
    ? `<h2 style="font-size:16px;margin:20px 0 8px">Add to your phone’s wallet</h2>
${wallet
  .map(
    (w) =>
      `<p style="margin:0 0 12px"><span style="display:block;font-size:13px;color:#495057;margin-bottom:2px">${escapeHtml(w.label)}</span>${w.apple ? walletButton(w.apple, M.addToAppleWallet) : ''}${w.google ? walletButton(w.google, M.addToGoogleWallet) : ''}</p>`,
  )
  .join('\n')}`
    : '';
  const receiptHtml = o.receipt?.length
    ? `<h2 style="font-size:16px;margin:20px 0 8px">Receipt</h2>
<table cellpadding="6" cellspacing="0" style="border-collapse:collapse;min-width:320px">${o.receipt
        .map((l) => {
          const style = l.kind === 'total' ? 'border-top:2px solid #212529;font-weight:bold' : l.kind === 'ticket' ? 'color:#212529' : 'color:#343a40';
          return `<tr><td style="${style}">${escapeHtml(l.label)}</td><td align="right" style="${style}">${escapeHtml(moneyOf(l.amount))}</td></tr>`;
        })
        .join('')}</table>`
    : '';
  const html = `<div style="max-width:600px;margin:0 auto;font-family:Arial,sans-serif;color:#212529">
${header}<div style="padding:16px 20px;border:1px solid #dee2e6;border-top:0;border-radius:0 0 8px 8px">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
${thanks ? `<p>${escapeHtml(thanks)}</p>` : ''}
<table cellpadding="4" cellspacing="0">${facts.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
${button}
${walletHtml}
${receiptHtml}
<p>${escapeHtml(howTo)}</p>
${calendarText ? `<p>${escapeHtml(calendarText)}</p>` : ''}
${verbiage ? `<p>${escapeHtml(verbiage).replace(/\n/g, '<br>')}</p>` : ''}
</div></div>`;
  return {
    to: o.to,
    tenantId: o.tenantId,
    subject: o.claim ? `Claim your tickets for ${event.name}` : `Your tickets for ${event.name}`,
    text,
    html,
    attachments: [
      { filename, contentType: 'application/pdf', key: o.pdfKey },
      ...(o.icsKey ? [{ filename: 'invite.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', key: o.icsKey }] : []),
    ],
  };
}

/** "Find my tickets": one mail listing the links of the address's orders with this tenant. */
export function findMyTicketsMail(o: { to: string; tenantId: string; tenantName: string; orders: Array<{ eventName: string; when: string; orderUid: string; link: string }> }): MailMessage {
  const intro = `You asked for the tickets bought with ${o.to} from ${o.tenantName}. Each link below opens an order, where you can download its tickets or have them sent again. Keep these links private: they open your orders without signing in.`;
  const text = [intro, ...o.orders.map((x) => `${x.eventName} (${x.when}), order ${x.orderUid}:\n${x.link}`), "If you did not ask for this e-mail, you can ignore it."].join('\n\n');
  const html = `<p>${escapeHtml(intro)}</p>
<ul>${o.orders.map((x) => `<li><a href="${escapeHtml(x.link)}">${escapeHtml(x.eventName)}</a>, ${escapeHtml(x.when)}, order ${escapeHtml(x.orderUid)}</li>`).join('')}</ul>
<p>If you did not ask for this e-mail, you can ignore it.</p>`;
  return { to: o.to, tenantId: o.tenantId, subject: `Your tickets from ${o.tenantName}`, text, html };
}
