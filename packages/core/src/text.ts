// Text that came from outside (a request body, a query, a form) must be valid Unicode before it is
// stored: a lone UTF-16 surrogate cannot be encoded as UTF-8, so PostgreSQL's JSON refuses it and
// plain text columns would silently turn it into U+FFFD. U+0000 does not fit in PostgreSQL text.

const LONE_SURROGATE = /\p{Cs}/u;

/** True when the string holds no lone surrogate and no U+0000. */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/**
 * An event description is rich text (HTML from the console's editor, sanitised by the server with
 * the policies' allow-list) when it starts with a tag; older descriptions are plain text, shown
 * escaped with their line breaks (issue 15).
 */
export function isRichDescription(description: string): boolean {
  return /^\s*<[a-z]/i.test(description);
}

/** Plain text as the editor's HTML: paragraphs on blank lines, line breaks kept, everything escaped. */
export function plainTextToHtml(text: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
  return text
    .trim()
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .map((p) => `<p>${esc(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** Where an event page template (issue 10) puts the live ticket menu: an element carrying this attribute. Here, not beside the template schemas, so the attendee site imports no zod for it. */
export const TICKET_MENU_ATTRIBUTE = 'data-marquee-tickets';
