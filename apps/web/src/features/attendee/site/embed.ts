import { EMBED_PREFIX, EMBED_RETURN_PARAMS, EMBED_TOKEN_PARAM, type EmbedMessage } from '@marquee/core';

// Issue 28: the attendee site inside an organiser's page (/embed/{eventName}/..., docs/embed.md).
// The server lets only the tenant's allowed websites frame these pages (CSP frame-ancestors) and
// names them in <meta name="mq-embed-origins">; the widget checks its parent against that list
// too before it tells it anything (postMessage to that exact origin only).

const SESSION_KEY = 'mq-embed';
type EmbedSession = { widget: boolean; page: string | null };

/** '/embed' when the page is one of the embeddable pages, '' otherwise. */
export function embedBasename(pathname: string): string {
  return pathname === EMBED_PREFIX || pathname.startsWith(`${EMBED_PREFIX}/`) ? EMBED_PREFIX : '';
}

export const isEmbedded = () => typeof window !== 'undefined' && embedBasename(window.location.pathname) !== '';

function allowedOrigins(): string[] {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="mq-embed-origins"]');
  return (meta?.content ?? '').split(/\s+/).filter(Boolean);
}

/** The origin of the page this frame is in, as the browser tells it (null at the top). */
function parentOrigin(): string | null {
  if (window.parent === window) return null;
  const ancestors = (window.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors?.length) return ancestors[0] ?? null;
  try {
    return document.referrer ? new URL(document.referrer).origin : null;
  } catch {
    return null;
  }
}

/** The parent's origin when it is one of the tenant's allowed websites; null when not framed or not allowed. */
export function allowedParent(): string | null {
  const parent = parentOrigin();
  return parent && allowedOrigins().includes(parent) ? parent : null;
}

/** Framed by a website the tenant did not allow (the CSP should have stopped it: this is the widget's own check). */
export const isForeignParent = () => isEmbedded() && parentOrigin() !== null && allowedParent() === null;

let session: EmbedSession | null = null;

/** The page that opened this frame (document.referrer) when it is on one of the tenant's allowed websites. */
function allowedReferrer(): URL | null {
  if (window.parent === window || !document.referrer) return null;
  try {
    const url = new URL(document.referrer);
    return allowedOrigins().includes(url.origin) ? url : null;
  } catch {
    return null;
  }
}

/**
 * Back from the payment page in a plain <iframe> (no snippet script to read the address): the
 * organiser's page, reached again as `?mq_event={eventName}&orderID=…` (or `&mq_step=account`
 * after a cancelled payment), is this frame's referrer, so the widget opens on the paid order (or
 * the checkout again) itself. The address to open, or null.
 */
export function plainFrameReturnPath(pathname: string): string | null {
  if (new URLSearchParams(window.location.search).has('mq_widget')) return null;
  const referred = allowedReferrer();
  const eventName = pathname.slice(EMBED_PREFIX.length + 1).split('/')[0] ?? '';
  if (!referred || !eventName || referred.searchParams.get(EMBED_RETURN_PARAMS.event) !== eventName) return null;
  const order = referred.searchParams.get(EMBED_RETURN_PARAMS.order) ?? '';
  if (/^[A-Za-z0-9-]{1,64}$/.test(order)) return `${EMBED_PREFIX}/${eventName}/success?${new URLSearchParams({ orderID: order }).toString()}`;
  if (referred.searchParams.get(EMBED_RETURN_PARAMS.step) === 'account') return `${EMBED_PREFIX}/${eventName}/account?payment=cancelled`;
  return null;
}

/**
 * What the snippet told the widget on its first page (?mq_widget=1&mq_page=…), kept for the tab:
 * the pages after it are reached in place, without those parameters.
 */
export function embedSession(): EmbedSession {
  if (session) return session;
  const search = new URLSearchParams(window.location.search);
  if (search.has('mq_page') || search.has('mq_widget')) {
    session = { widget: search.get('mq_widget') === '1', page: search.get('mq_page') };
    try {
      sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
    } catch {
      // Storage refused (a strict browser): this page still knows it.
    }
    return session;
  }
  // The plain <iframe> snippet (no script): its referrerpolicy gives the frame the organiser's page
  // as its referrer, which is where the buyer comes back to when it is an allowed website.
  const referred = allowedReferrer();
  if (referred) {
    for (const key of Object.values(EMBED_RETURN_PARAMS)) referred.searchParams.delete(key);
    referred.hash = '';
    session = { widget: false, page: referred.href };
    try {
      sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
    } catch {
      // Storage refused: this page still knows it.
    }
    return session;
  }
  try {
    const kept = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as EmbedSession | null;
    if (kept && typeof kept === 'object') return (session = { widget: kept.widget === true, page: typeof kept.page === 'string' ? kept.page : null });
  } catch {
    // Nothing kept.
  }
  return (session = { widget: false, page: null });
}

/** Posts to the organiser's page, only when it is an allowed website, and to that origin only. */
export function postToParent(message: EmbedMessage): void {
  const parent = allowedParent();
  if (parent) window.parent.postMessage(message, parent);
}

/**
 * Where the payment page sends the buyer back: the organiser's page (the snippet's address for it,
 * or the page the frame was opened from), when it is on an allowed website; the server checks it
 * again. Null outside the widget (the site's own success and checkout pages).
 */
export function embedReturnUrls(eventName: string): { successUrl: string; cancelUrl: string } | null {
  if (!isEmbedded()) return null;
  const origins = allowedOrigins();
  const candidates = [embedSession().page, document.referrer];
  for (const candidate of candidates) {
    if (!candidate) continue;
    let page: URL;
    try {
      page = new URL(candidate);
    } catch {
      continue;
    }
    if (!origins.includes(page.origin)) continue;
    page.hash = '';
    for (const key of Object.values(EMBED_RETURN_PARAMS)) page.searchParams.delete(key);
    page.searchParams.set(EMBED_RETURN_PARAMS.event, eventName);
    const success = page.toString();
    page.searchParams.set(EMBED_RETURN_PARAMS.step, 'account');
    return { successUrl: success, cancelUrl: page.toString() };
  }
  return null;
}

/**
 * Goes to the payment page. The gateway's page may not be framed, so from the widget it opens in
 * the top window: the snippet does it (marquee:pay), or, in a plain <iframe>, the frame itself
 * (allowed right after the buyer's click). False when neither could: the page offers a link.
 */
export function goToPayment(url: string, order?: { uid: string; token: string }): boolean {
  if (!isEmbedded() || window.parent === window) {
    window.location.assign(url);
    return true;
  }
  if (embedSession().widget && allowedParent()) {
    postToParent({ type: 'marquee:pay', url, ...(order ? { order } : {}) });
    return true;
  }
  try {
    window.top!.location.href = url;
    return true;
  } catch {
    return false;
  }
}

/** Tells the organiser's page how tall the widget is, whenever that changes. */
export function startEmbedResize(root: HTMLElement): void {
  if (!allowedParent()) return;
  let last = 0;
  const report = () => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height > 0 && height !== last) {
      last = height;
      postToParent({ type: 'marquee:resize', height });
    }
  };
  new ResizeObserver(report).observe(root);
  report();
}

/** The order's view token the snippet gave back in this page's address (#mq_token=…), or ''. */
export function embedOrderToken(): string {
  if (!isEmbedded()) return '';
  return new URLSearchParams(window.location.hash.replace(/^#/, '')).get(EMBED_TOKEN_PARAM) ?? '';
}
