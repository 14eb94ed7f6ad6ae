import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

// Issue 28: the embeddable pages (/embed/{eventName}/...) are the web app's own document, served
// with a Content-Security-Policy whose frame-ancestors are the tenant's allowed websites, and with
// those websites in a <meta> the widget reads to check its parent (docs/embed.md).

let cached: { file: string; mtimeMs: number; html: string } | null = null;

/** The built index.html, read again only when the build changed it. Null when the web app is not built. */
export async function appDocument(webDist: string): Promise<string | null> {
  const file = path.join(webDist, 'index.html');
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(file)).mtimeMs;
  } catch {
    return null;
  }
  if (cached?.file !== file || cached.mtimeMs !== mtimeMs) cached = { file, mtimeMs, html: await readFile(file, 'utf8') };
  return cached.html;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The document with the allowed websites for the widget's own check (space-separated origins). */
export function embedDocument(html: string, origins: readonly string[]): string {
  const meta = `<meta name="mq-embed-origins" content="${escapeAttr(origins.join(' '))}">`;
  return html.includes('</head>') ? html.replace('</head>', `${meta}</head>`) : `${meta}${html}`;
}

/**
 * The site's CSP with `frame-ancestors` naming the allowed websites ('none' when there are none):
 * these pages only; every other page keeps `frame-ancestors 'none'`.
 */
export function embedCsp(siteCsp: string, origins: readonly string[]): string {
  const ancestors = `frame-ancestors ${origins.length ? origins.join(' ') : "'none'"}`;
  const parts = siteCsp
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p && !/^frame-ancestors\b/i.test(p));
  return [...parts, ancestors].join(';');
}
