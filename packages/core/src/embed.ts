// Issue 28, "Selling on the organiser's website": the websites a tenant lets embed its ticket
// widget, and the messages the widget and the organiser's page exchange. docs/embed.md.
// No zod here: the attendee site's bundle imports this file (its first-load budget, issue 13).

/** Messages of the embed settings (not in the spec; docs/decisions.md "Issue 28: the embeddable widget"). */
export const M_EMBED = {
  originInvalid: 'Enter a website address such as https://www.example.com (the scheme and host only, no path).',
  originHttps: 'The website must use https:// (http:// is allowed for localhost only, on a development server).',
  originsTooMany: 'At most 20 websites can embed your events.',
  saved: 'Websites saved.',
} as const;

export const EMBED_ORIGINS_MAX = 20;

const LOOPBACK = /^(localhost|[a-z0-9-]+(\.[a-z0-9-]+)*\.localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/**
 * A website allowed to embed, as the browser names an origin: `https://host[:port]`, lower case,
 * without the default port or a trailing slash. Paths, queries, fragments and credentials are
 * refused (an origin has none). `http:` only for a loopback host, and only when `allowHttpLoopback`
 * (a development or test server, PUBLIC_SCHEME=http).
 */
export function normaliseEmbedOrigin(raw: string, opts: { allowHttpLoopback: boolean }): { ok: true; origin: string } | { ok: false; message: string } {
  const text = raw.trim();
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(text)) return { ok: false, message: M_EMBED.originInvalid };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: M_EMBED.originInvalid };
  }
  if (url.username || url.password || !url.hostname || url.pathname !== '/' || url.search || url.hash) return { ok: false, message: M_EMBED.originInvalid };
  if (url.protocol === 'http:' && !(opts.allowHttpLoopback && LOOPBACK.test(url.hostname))) return { ok: false, message: M_EMBED.originHttps };
  return { ok: true, origin: url.origin };
}

/** The path prefix of the embeddable pages: /embed/{eventName}/tickets and the rest of the sale. */
export const EMBED_PREFIX = '/embed';

/**
 * What the widget (in the iframe) posts to the organiser's page. The snippet accepts a message only
 * from the iframe it made, from Marquee's origin, and only in one of these shapes.
 */
export type EmbedMessage =
  | { type: 'marquee:resize'; height: number }
  /**
   * To the payment page, in the top window. `order`: the order and its view token, which the snippet
   * keeps for the tab and gives back to the widget on return (in the iframe address's fragment),
   * for a browser that refuses the widget storage of its own (third-party cookies blocked).
   */
  | { type: 'marquee:pay'; url: string; order?: { uid: string; token: string } }
  | { type: 'marquee:analytics'; event: string; ecommerce: Record<string, unknown> };

/** The query parameters the organiser's page carries back from the payment (the snippet reads them). */
export const EMBED_RETURN_PARAMS = { event: 'mq_event', step: 'mq_step', order: 'orderID' } as const;

/** The fragment parameter of the widget's address that carries the order's view token back (see marquee:pay). */
export const EMBED_TOKEN_PARAM = 'mq_token';
