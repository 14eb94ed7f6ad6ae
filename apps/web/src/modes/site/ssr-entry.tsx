import type { TPublicEvent, TSiteContext } from '@marquee/core';
import { renderToString } from 'react-dom/server';
import { createQueryClient } from '../../app/query-client';
import type { PublicEventList } from '../../features/attendee/public-events/api';
import { eventPages, publishedEventPage, siteRoutes } from './routes';
import { SiteApp } from './site-app';
import { preloadRoute } from './site-router';

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
  events?: PublicEventList;
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
  const client = createQueryClient();
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
  const html = renderToString(<SiteApp client={client} context={input.context} location={location} />);
  client.clear();
  return html;
}
