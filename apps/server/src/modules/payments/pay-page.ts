import { formatMoney, M } from '@marquee/core';
import { escapeHtml } from '../../platform/mail.js';
import { standInPage } from '../../platform/payments/stand-in-page.js';
import type { TestSession } from './service.js';

// The test gateway's hosted pay page: one self-contained HTML document, no scripts and no external
// assets (the CSP allows neither), a plain form POST, styles inline.

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2328}
main{max-width:440px;margin:40px auto;padding:28px;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin:.25rem 0 0}.badge{display:inline-block;padding:2px 10px;border-radius:999px;background:#fff4e5;color:#8a4b00;font-size:.8rem;font-weight:600}
.muted{color:#59636e;margin:.25rem 0}.alert{padding:12px 14px;border-radius:8px;margin:16px 0;background:#ffebe9;color:#82071e;border:1px solid #ffcecb}
.ok{background:#dafbe1;color:#116329;border-color:#aceebb}label{display:block;font-weight:600;font-size:.9rem;margin-top:14px}
input{display:block;width:100%;margin-top:4px;padding:10px 12px;font:inherit;border:1px solid #d0d7de;border-radius:8px}
.row{display:flex;gap:12px}.row label{flex:1}button{margin-top:20px;width:100%;padding:12px;font:inherit;font-weight:700;color:#fff;background:#0b5cff;border:0;border-radius:8px;cursor:pointer}
.hint{font-size:.85rem;color:#59636e}a{color:#0b5cff}
@media (max-width:768px){main{margin:0;border-radius:0;min-height:100vh}}`;

const layout = (title: string, body: string) => standInPage(title, STYLE, body);

export type PayPageView =
  | { kind: 'form'; session: TestSession; message?: string }
  | { kind: 'expired'; session: TestSession }
  | { kind: 'complete'; session: TestSession }
  | { kind: 'missing' };

export function renderPayPage(view: PayPageView): string {
  if (view.kind === 'missing') return layout(M.paymentSessionNotFound, `<h1>${escapeHtml(M.paymentSessionNotFound)}</h1>`);
  const s = view.session;
  const amount = escapeHtml(formatMoney(s.amount));
  const head = `<span class="badge">${escapeHtml(M.testPayNotice)}</span>
<h1>${amount}</h1>
<p class="muted">${escapeHtml(s.description)}</p>
${s.email ? `<p class="muted">${escapeHtml(s.email)}</p>` : ''}`;
  const back = `<p><a href="${escapeHtml(s.cancelUrl)}">${escapeHtml(M.backToCheckout)}</a></p>`;
  if (view.kind === 'expired') {
    return layout(M.paymentSessionExpired, `${head}<p class="alert" role="alert">${escapeHtml(M.paymentSessionExpired)}</p>${back}`);
  }
  if (view.kind === 'complete') {
    return layout(
      M.paymentComplete,
      `${head}<p class="alert ok" role="status">${escapeHtml(M.paymentComplete)}</p><p><a href="${escapeHtml(s.successUrl)}">${escapeHtml(M.payContinue)}</a></p>`,
    );
  }
  const alert = view.message ? `<p class="alert" role="alert">${escapeHtml(view.message)}</p>` : '';
  return layout(
    `Pay ${formatMoney(s.amount)}`,
    `${head}${alert}
<form method="post" action="/pay/${encodeURIComponent(s.id)}" autocomplete="off" novalidate>
<label for="cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
<div class="row">
<label>Expiry (MM/YY)<input name="expiry" autocomplete="cc-exp" placeholder="12/34"></label>
<label>CVC<input name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123"></label>
</div>
<button type="submit">Pay ${amount}</button>
</form>
<p class="hint">${escapeHtml(M.testPayCards)}</p>
${back}`,
  );
}

/** A CSP for the page: nothing but inline styles, and the form may only post here or land on success. */
export function payPageCsp(session: TestSession | null): string {
  let success = '';
  try {
    if (session) success = new URL(session.successUrl).origin;
  } catch {
    success = '';
  }
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `form-action 'self'${success ? ` ${success}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}
