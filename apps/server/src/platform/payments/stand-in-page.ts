import { escapeHtml } from '../mail.js';

/**
 * A page of the test gateway's stand-ins (the hosted pay page, the Connect onboarding): one
 * self-contained HTML document, no scripts and no external assets (the CSP allows neither), styles
 * inline, not indexed.
 */
export function standInPage(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}
