import { EventLayout } from '../../features/attendee/event-site/components/event-layout';
import { lazyPage, type SiteRoute } from '../../features/attendee/site/site-router';
import { SiteFallback } from './site-fallback';

const NotFound = () => <SiteFallback kind="not-found" />;

/** The event pages the server renders (modules/event-pages), by the page kind it names them with. */
export const eventPages = {
  home: lazyPage(() => import('../../features/attendee/event-site/components/event-home-page'), 'EventHomePage'),
  tickets: lazyPage(() => import('../../features/attendee/event-site/components/ticket-menu-page'), 'TicketMenuPage'),
  cart: lazyPage(() => import('../../features/attendee/cart/components/cart-page'), 'CartPage'),
  checkout: lazyPage(() => import('../../features/attendee/checkout/components/checkout-page'), 'CheckoutPage'),
  events: lazyPage(() => import('../../features/attendee/public-events/components/public-events-page'), 'PublicEventsPage'),
};

export { publishedEventPage } from '../../features/attendee/event-site/published-page';

// The attendee site on a tenant's host: /{eventName}/... (spec: reports-payouts-checkout §2
// Attendee routes). This bundle must never import console code (modes/console, modes/platform,
// modes/tenant), Mantine, react-router or zod: bench/first-load.ts measures what it costs
// (budget 100 KB gzipped, issue 13). First match wins.
export const siteRoutes: SiteRoute[] = [
  // Issue 15: a buyer's private order page, opened from the link in their mails.
  { pattern: '/orders/:token', page: lazyPage(() => import('../../features/attendee/order-link/components/order-link-page'), 'OrderLinkPage') },
  // Issue 24: a transferred ticket's new holder's own page, opened from their mail.
  { pattern: '/tickets/:token', page: lazyPage(() => import('../../features/attendee/order-link/components/ticket-link-page'), 'TicketLinkPage') },
  // The organiser's public list of events (issue 13): only when the server rendered it here (main.tsx; a console path otherwise).
  // Issue 15: the unsubscribe link of messages to attendees.
  { pattern: '/unsubscribe/:token', page: lazyPage(() => import('../../features/attendee/unsubscribe/components/unsubscribe-page'), 'UnsubscribePage') },
  { pattern: '/events', page: eventPages.events },
  { pattern: '/policies/:policyId', page: lazyPage(() => import('../../features/attendee/event-site/components/policy-page'), 'PolicyPage') },
  { pattern: '/:eventName', layout: EventLayout, page: eventPages.home },
  { pattern: '/:eventName/tickets', layout: EventLayout, page: eventPages.tickets },
  { pattern: '/:eventName/cart', layout: EventLayout, page: eventPages.cart },
  { pattern: '/:eventName/account', layout: EventLayout, page: eventPages.checkout },
  { pattern: '/:eventName/line', layout: EventLayout, page: lazyPage(() => import('../../features/attendee/waiting-room/components/waiting-room-page'), 'WaitingRoomPage') },
  { pattern: '/:eventName/find-tickets', layout: EventLayout, page: lazyPage(() => import('../../features/attendee/order-link/components/find-tickets-page'), 'FindTicketsPage') },
  // Issue 24: the claim link of a waiting-list offer.
  { pattern: '/:eventName/waitlist/claim', layout: EventLayout, page: lazyPage(() => import('../../features/attendee/waitlist/components/claim-page'), 'WaitlistClaimPage') },
  { pattern: '/:eventName/success', layout: EventLayout, page: lazyPage(() => import('../../features/attendee/checkout/components/success-page'), 'SuccessPage') },
  { pattern: '/:eventName/*', layout: EventLayout, page: NotFound },
  { pattern: '/*', page: NotFound },
];
