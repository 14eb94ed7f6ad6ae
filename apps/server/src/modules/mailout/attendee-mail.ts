import sanitizeHtml from 'sanitize-html';
import { escapeHtml, type MailMessage } from '../../platform/mail.js';

// The mail an organiser's message to attendees becomes, one per address (issue 15): their text,
// a line saying why it came, and the unsubscribe line whose link also goes in List-Unsubscribe
// (with List-Unsubscribe-Post, RFC 8058 one-click) so mail clients offer it too.

/** A plain-text part from the sanitised HTML: blocks become paragraphs, links keep their address. */
export function htmlToText(html: string): string {
  const withBreaks = html
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gis, (_m, href: string, label: string) => {
      const text = sanitizeHtml(label, { allowedTags: [], allowedAttributes: {} });
      const url = href.replace(/&amp;/g, '&');
      return text && text !== url ? `${text} (${url})` : url;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '\n- ')
    .replace(/<\/(p|h[1-6]|blockquote|pre|ul|ol)>/gi, '\n\n')
    .replace(/<hr\s*\/?>/gi, '\n---\n');
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function attendeeMail(o: {
  tenantId: string;
  to: string;
  organiser: string;
  contactEmail: string;
  eventName: string;
  subject: string;
  html: string;
  /** The attendee site's unsubscribe page. */
  unsubscribeUrl: string;
  /** The API address a mail client posts to for one-click unsubscribe (RFC 8058). */
  oneClickUrl: string;
  marketing: boolean;
}): MailMessage {
  const why = o.marketing
    ? `You receive this because you asked ${o.organiser} to keep you posted about its events when you bought tickets.`
    : `You receive this because you have tickets to ${o.eventName} from ${o.organiser}.`;
  const leave = `Unsubscribe from messages from ${o.organiser}:`;
  const text = `${htmlToText(o.html)}\n\n--\n${why}\n${leave} ${o.unsubscribeUrl}`;
  const footer = `<hr style="border:none;border-top:1px solid #ddd;margin:24px 0 12px">
<p style="color:#555;font-size:13px;margin:0 0 4px">${escapeHtml(why)}</p>
<p style="color:#555;font-size:13px;margin:0"><a href="${escapeHtml(o.unsubscribeUrl)}" style="color:#555">Unsubscribe</a> from messages from ${escapeHtml(o.organiser)}.</p>`;
  const html = `<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#222;max-width:600px">
${o.html}
${footer}
</div>`;
  return {
    to: o.to,
    tenantId: o.tenantId,
    replyTo: o.contactEmail || null,
    subject: o.subject,
    text,
    html,
    headers: { 'List-Unsubscribe': `<${o.oneClickUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
