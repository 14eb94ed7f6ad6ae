import type { TPublicEvent, TSiteContext } from '@marquee/core';
import { renderToString } from 'react-dom/server';
import { TICKET_MENU_ATTRIBUTE } from '@marquee/core';
import { SSR_MENU_ATTRIBUTE, SSR_MENU_END_ATTRIBUTE } from '../../features/attendee/event-site/components/published-page-markers';
import type { TPublicEventList } from '@marquee/core';
import { eventPages, publishedEventPage, siteRoutes } from './routes';
import { createSiteClient, SiteApp } from './site-app';
import { preloadRoute } from '../../features/attendee/site/site-router';

// The attendee site rendered on the server (issue 13 "Server-rendered event pages"): built by
// `npm run build` into apps/web/dist-ssr and loaded by the server (modules/event-pages/ssr.ts). The
// tree and the data are the browser's own (main.tsx seeds the same query keys from the boot data),
// so the client hydrates this HTML without a change.

export type SsrInput = {
  /** The request's path and query, e.g. /summer-jam/tickets. */
  url: string;
  context: TSiteContext;
  event?: TPublicEvent;
  /** The event home's published page (issue 10), or null when it has none. */
  page?: { version: number; html: string; css: string } | null;
  events?: TPublicEventList;
};

/** The source modules each server-rendered page needs beyond the entry, as the client build's manifest names them. */
export const PAGE_SOURCES: Record<keyof typeof eventPages, string[]> = {
  home: ['src/modes/site/site-app.tsx', 'src/features/attendee/event-site/components/event-home-page.tsx'],
  tickets: ['src/modes/site/site-app.tsx', 'src/features/attendee/event-site/components/ticket-menu-page.tsx'],
  cart: ['src/modes/site/site-app.tsx', 'src/features/attendee/cart/components/cart-page.tsx'],
  checkout: ['src/modes/site/site-app.tsx', 'src/features/attendee/checkout/components/checkout-page.tsx'],
  events: ['src/modes/site/site-app.tsx', 'src/features/attendee/public-events/components/public-events-page.tsx'],
};

/** The HTML of #root for this page. */
export async function renderSitePage(input: SsrInput): Promise<string> {
  const client = createSiteClient();
  client.setQueryData(['site', 'context'], input.context);
  if (input.event) {
    const key = input.event.details.urlName.toLowerCase();
    client.setQueryData(['site', 'event', key], input.event);
    if (input.page !== undefined) client.setQueryData(['site', 'page', key], input.page);
  }
  if (input.events) client.setQueryData(['site', 'events'], input.events);
  const url = new URL(input.url, 'http://ssr.invalid');
  await preloadRoute(siteRoutes, url.pathname);
  if (input.page) await publishedEventPage.load();
  const location = { pathname: url.pathname, search: url.search, hash: '', state: null, key: 'default' };
  // The page's module is loaded (preloadRoute): nothing suspends, so one synchronous pass renders it all.
  let html = renderToString(<SiteApp client={client} context={input.context} location={location} />);
  if (input.page && input.event) {
    // A published page's ticket menu goes into the template's slot on the server too (second pass),
    // so that the page does not move when the browser takes over (published-event-page.tsx).
    const withMenu = menuInSlot(input.page.html, html);
    if (withMenu !== null) {
      client.setQueryData(['site', 'page', input.event.details.urlName.toLowerCase()], { ...input.page, html: withMenu, menuInSlot: true });
      html = renderToString(<SiteApp client={client} context={input.context} location={location} />);
    }
  }
  client.clear();
  return html;
}

/** The page's HTML with the first pass's menu markup inside its slot; null when either is missing. */
function menuInSlot(pageHtml: string, firstPass: string): string | null {
  const begin = firstPass.indexOf(`<div ${SSR_MENU_ATTRIBUTE}`);
  const end = firstPass.indexOf(`<span hidden="" ${SSR_MENU_END_ATTRIBUTE}`, begin);
  const at = pageHtml.indexOf(TICKET_MENU_ATTRIBUTE);
  if (begin < 0 || end < 0 || at < 0) return null;
  const open = pageHtml.indexOf('>', at);
  if (open < 0) return null;
  return pageHtml.slice(0, open + 1) + firstPass.slice(begin, end) + pageHtml.slice(open + 1);
}
