import { M } from '@marquee/core';
import { escapeHtml } from '../../platform/mail.js';
import type { TestOnboarding } from '../../platform/payments/test-driver.js';

// The test gateway's stand-in for Stripe's hosted Connect onboarding (issue 21.18): one
// self-contained HTML page, no scripts, no external assets, styles inline; a plain form POST that
// finishes the onboarding or leaves it, then sends the holder back to the return URL.

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2328}
main{max-width:480px;margin:40px auto;padding:28px;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.4rem;line-height:1.3;margin:.5rem 0 .25rem}.badge{display:inline-block;padding:2px 10px;border-radius:999px;background:#fff4e5;color:#8a4b00;font-size:.8rem;font-weight:600}
.muted{color:#59636e;margin:.25rem 0}dl{margin:18px 0;padding:14px 16px;border:1px solid #d0d7de;border-radius:8px;display:grid;grid-template-columns:auto 1fr;gap:6px 16px}
dt{color:#59636e;font-size:.9rem}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
button{display:block;width:100%;margin-top:12px;padding:12px;font:inherit;font-weight:700;border-radius:8px;cursor:pointer}
.primary{color:#fff;background:#0b5cff;border:0}.secondary{color:#1f2328;background:#fff;border:1px solid #d0d7de}
.hint{font-size:.85rem;color:#59636e}
@media (max-width:768px){main{margin:0;border-radius:0;min-height:100vh}}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

export function renderOnboardingPage(onboarding: TestOnboarding | null): string {
  if (!onboarding) return layout(M.onboardingLinkNotFound, `<h1>${escapeHtml(M.onboardingLinkNotFound)}</h1><p class="muted">Start the onboarding again from the tenant's Payment/Payouts page.</p>`);
  const o = onboarding;
  const name = o.businessName || 'this tenant';
  return layout(
    `Set up payouts for ${name}`,
    `<span class="badge">${escapeHtml(M.testOnboardingNotice)}</span>
<h1>Set up payouts for ${escapeHtml(name)}</h1>
<p class="muted">With Stripe, the account holder gives their business, identity and bank details here. The test gateway fills them in for you.</p>
<dl>
<dt>Account</dt><dd>${escapeHtml(o.accountId)}</dd>
${o.email ? `<dt>E-mail</dt><dd>${escapeHtml(o.email)}</dd>` : ''}
<dt>Country</dt><dd>United States</dd>
<dt>Bank account</dt><dd>Test Bank &bull;&bull;&bull;&bull; 6789</dd>
</dl>
<form method="post" action="${escapeHtml(`/connect/onboard/${encodeURIComponent(o.linkId)}`)}">
<button class="primary" type="submit" name="action" value="finish">Finish onboarding</button>
<button class="secondary" type="submit" name="action" value="later">Leave for now</button>
</form>
<p class="hint">Finishing enables payouts to the account at once; Stripe would check the details first.</p>`,
  );
}

/** Nothing but inline styles; the form may only post here (and its answer lands on the console, same origin). */
export const ONBOARDING_PAGE_CSP = ["default-src 'none'", "style-src 'unsafe-inline'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"].join('; ');
