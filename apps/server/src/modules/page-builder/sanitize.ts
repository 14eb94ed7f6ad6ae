import { TICKET_MENU_ATTRIBUTE } from '@marquee/core';
import sanitizeHtml from 'sanitize-html';

// Tenant-authored pages never run script on the tenant's host (issue 10): what an organiser
// publishes passes this allow-list, and the page is served under a strict Content-Security-Policy
// (render.ts) as a second wall. Anything not listed is dropped: <script>, <iframe>, <object>,
// forms, every on* attribute, and URLs other than http(s), mailto and tel.

const TAGS = [
  'a', 'abbr', 'article', 'aside', 'b', 'blockquote', 'br', 'caption', 'cite', 'code', 'col', 'colgroup', 'dd', 'del', 'details',
  'div', 'dl', 'dt', 'em', 'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'i', 'img', 'ins',
  'kbd', 'li', 'main', 'mark', 'nav', 'ol', 'p', 'picture', 'pre', 'q', 's', 'section', 'small', 'source', 'span', 'strong', 'sub',
  'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'u', 'ul',
];

const COMMON = ['id', 'class', 'style', 'title', 'lang', 'dir', 'role', 'aria-*', TICKET_MENU_ATTRIBUTE];

export function sanitizePageHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: TAGS,
    allowedAttributes: {
      '*': COMMON,
      a: ['href', 'target', 'rel'],
      img: ['src', 'srcset', 'alt', 'width', 'height', 'loading'],
      source: ['srcset', 'media', 'type'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan', 'scope'],
      time: ['datetime'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
    // Dropped with their content, not just unwrapped.
    nonTextTags: ['script', 'style', 'textarea', 'noscript', 'iframe', 'object', 'embed', 'template', 'svg', 'math'],
    transformTags: {
      // A link that opens a new tab cannot reach back into this page.
      a: (tagName, attribs) => ({ tagName, attribs: attribs.target ? { ...attribs, rel: 'noopener noreferrer' } : attribs }),
    },
  });
}

/**
 * The page's stylesheet: kept as CSS, but nothing that loads code or other stylesheets, and nothing
 * that could close the <style> element it is served in.
 */
export function sanitizePageCss(css: string): string {
  return css
    .replace(/<\/?style/gi, '')
    .replace(/<!--|-->/g, '')
    .replace(/@import[^;]*;?/gi, '')
    .replace(/expression\s*\(/gi, '(')
    .replace(/-moz-binding\s*:[^;}]*/gi, '')
    .replace(/behavior\s*:[^;}]*/gi, '')
    .replace(/url\(\s*['"]?\s*(javascript|vbscript|data:text\/html)[^;}]*/gi, 'url()')
    .replace(/[<>]/g, '');
}
