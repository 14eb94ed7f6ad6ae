import type { EventRole } from '@marquee/core';
import { escapeHtml, type MailMessage } from '../../platform/mail.js';

// The account mails. Plain text first (what SMTP-less outboxes show), with a simple HTML twin.
function html(paragraphs: string[], link?: { href: string; label: string }) {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('');
  const button = link
    ? `<p><a href="${escapeHtml(link.href)}" style="background:#5b3cc4;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p><p style="color:#666;font-size:12px">${escapeHtml(link.href)}</p>`
    : '';
  return `<div style="font-family:system-ui,sans-serif;max-width:560px">${body}${button}</div>`;
}

export function verificationMail(to: string, code: string, link: string): MailMessage {
  const lines = [
    'Welcome to Marquee.',
    `Your verification code is ${code}. It is valid for 30 minutes and can be used once.`,
    'Open this link to verify your e-mail address:',
  ];
  return {
    to,
    subject: `Your Marquee verification code: ${code}`,
    text: `${lines.join('\n\n')}\n${link}\n`,
    html: html(lines, { href: link, label: 'Verify my e-mail' }),
  };
}

export function alreadyRegisteredMail(to: string, loginLink: string, forgotLink: string): MailMessage {
  const lines = [
    'Someone, probably you, tried to create a Marquee account with this e-mail address, which already has one.',
    `Log in: ${loginLink}`,
    `Forgot your password? ${forgotLink}`,
    'If this was not you, you can ignore this message.',
  ];
  return { to, subject: 'You already have a Marquee account', text: lines.join('\n\n'), html: html(lines) };
}

export function resetMail(to: string, code: string, link: string): MailMessage {
  const lines = [
    `Your password reset code is ${code}. It is valid for 30 minutes and can be used once.`,
    'Open this link to choose a new password:',
  ];
  return {
    to,
    subject: 'Reset your Marquee password',
    text: `${lines.join('\n\n')}\n${link}\n\nIf you did not ask for this, ignore this message; your password stays as it is.`,
    html: html(lines, { href: link, label: 'Choose a new password' }),
  };
}

export function unlockMail(to: string, link: string): MailMessage {
  const lines = [
    'Someone entered too many wrong codes for your Marquee account, so codes for it are no longer checked.',
    'If that was you, open this link to unlock your account, then ask for a new code:',
  ];
  return {
    to,
    subject: 'Unlock your Marquee account',
    text: `${lines.join('\n\n')}\n${link}\n\nIf it was not you, someone may be trying to get into your account; your password stays as it is.`,
    html: html(lines, { href: link, label: 'Unlock my account' }),
  };
}

/**
 * A tenant's invite carries the tenant's subject and body, from Marquee's sender: both are marked as
 * to whose words they are, so they cannot pass for a message from Marquee (issue 14 §4) nor claim
 * a tenant wrote what an operator wrote (issue 21.19). `writtenBy`: who last wrote the template
 * (tenants.invite_template_by; null for templates older than that column).
 */
export function inviteMail(opts: {
  to: string;
  subject: string;
  body: string;
  link: string;
  tenantId: string | null;
  tenantName: string | null;
  writtenBy?: 'platform' | 'tenant' | null;
}): MailMessage {
  const paragraphs = opts.body.split(/\n{2,}/);
  if (!opts.tenantName) {
    return { to: opts.to, tenantId: opts.tenantId, subject: opts.subject, text: `${opts.body}\n\n${opts.link}\n`, html: html(paragraphs, { href: opts.link, label: 'Accept the invitation' }) };
  }
  const name = opts.tenantName;
  const never = 'Marquee never asks for your password by e-mail.';
  const [intro, notice] =
    opts.writtenBy === 'tenant'
      ? [`${name} wrote:`, `This invitation was written by ${name}, not by Marquee. ${never}`]
      : opts.writtenBy === 'platform'
        ? [`The Marquee team wrote, for ${name}:`, `This invitation was written by the Marquee team for ${name}. ${never}`]
        : [`An invitation to ${name}:`, `The words of this invitation are set in ${name}'s settings on Marquee. ${never}`];
  return {
    to: opts.to,
    tenantId: opts.tenantId,
    subject: `[${name}] ${opts.subject}`,
    text: `${intro}\n\n${opts.body}\n\n${opts.link}\n\n${notice}\n`,
    html: html([intro, ...paragraphs, notice], { href: opts.link, label: 'Accept the invitation' }),
  };
}

/**
 * An invite to work on one event (issue 21.14): Marquee's words for the role, naming the tenant and
 * the event, not the tenant's invite template (its words to its own team, written for an organiser).
 */
export function eventStaffInviteMail(opts: {
  to: string;
  tenantId: string;
  tenantName: string;
  eventName: string;
  roles: readonly EventRole[];
  link: string;
  /** No Marquee account yet: the link signs them up. */
  newAccount: boolean;
}): MailMessage {
  const manager = opts.roles.includes('event_manager');
  const checkin = opts.roles.includes('event_checkin');
  const boxOffice = opts.roles.includes('event_box_office');
  const { tenantName: who, eventName: event } = opts;
  const extras = [checkin && 'you check attendees in at the door', boxOffice && 'you sell tickets at the box office'].filter(Boolean).join(', and ');
  const subject = manager ? `[${who}] Help run ${event}` : boxOffice ? `[${who}] Sell tickets at ${event}` : `[${who}] Help check in attendees at ${event}`;
  const what = manager
    ? `${who} invited you to manage ${event} on Marquee: you edit the event, its ticket types and discount codes, and invite the people who work on it${extras ? `, and ${extras}` : ''}.`
    : boxOffice
      ? `${who} invited you to sell tickets for ${event} at the box office on Marquee${checkin ? ', and to check attendees in at the door' : ''}.`
      : `${who} invited you to check in attendees at ${event} on Marquee.`;
  const how = manager
    ? `You see this event only, not the rest of ${who}'s events or sales.`
    : boxOffice
      ? "At the door you open the event's box office on your phone or tablet, choose the tickets and take cash, a card on the venue's terminal, or give complimentary tickets. There is nothing to install. You see this event only."
      : "At the door you open the event's check-in page on your phone and scan each ticket's QR code with its camera, or find the attendee by name. There is nothing to install, and it keeps working if the network drops. You see this event only.";
  const next = opts.newAccount ? 'Open this link to accept and create your Marquee account:' : 'Open this link to accept with your Marquee account:';
  const notice = 'Marquee never asks for your password by e-mail.';
  const label = opts.newAccount ? 'Accept and create my account' : 'Accept the invitation';
  return {
    to: opts.to,
    tenantId: opts.tenantId,
    subject,
    text: `${what}\n\n${how}\n\n${next}\n${opts.link}\n\n${notice}\n`,
    html: html([what, how, next], { href: opts.link, label }).replace(/<\/div>$/, `<p style="color:#666;font-size:12px">${escapeHtml(notice)}</p></div>`),
  };
}
