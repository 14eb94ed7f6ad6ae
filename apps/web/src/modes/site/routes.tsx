import { Outlet, type RouteObject } from 'react-router';
import { EventLayout } from '../../features/attendee/event-site/components/event-layout';
import { Toaster } from '../../features/attendee/event-site/kit/toast';
import { lazyPage } from '../../ui/lazy-page';
import { SiteFallback } from './site-fallback';

function SiteRoot() {
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}

// The attendee site on a tenant's host: /{eventName}/... (spec: reports-payouts-checkout §2
// Attendee routes). This bundle must never import console code (modes/console, modes/platform,
// modes/tenant) nor Mantine: bench/first-load.ts measures what it costs (budget 150 KB gzipped).
export const siteRoutes: RouteObject[] = [
  {
    path: '/',
    Component: SiteRoot,
    hydrateFallbackElement: <SiteFallback kind="loading" />,
    errorElement: <SiteFallback kind="error" />,
    children: [
      // Issue 15: a buyer's private order page, opened from the link in their mails.
      { path: 'orders/:token', lazy: lazyPage(() => import('../../features/attendee/order-link/components/order-link-page'), 'OrderLinkPage') },
      // Issue 15: the unsubscribe link of messages to attendees.
      { path: 'unsubscribe/:token', lazy: lazyPage(() => import('../../features/attendee/unsubscribe/components/unsubscribe-page'), 'UnsubscribePage') },
      { path: 'policies/:policyId', lazy: lazyPage(() => import('../../features/attendee/event-site/components/policy-page'), 'PolicyPage') },
      {
        path: ':eventName',
        Component: EventLayout,
        children: [
          { index: true, lazy: lazyPage(() => import('../../features/attendee/event-site/components/event-home-page'), 'EventHomePage') },
          { path: 'tickets', lazy: lazyPage(() => import('../../features/attendee/event-site/components/ticket-menu-page'), 'TicketMenuPage') },
          { path: 'cart', lazy: lazyPage(() => import('../../features/attendee/cart/components/cart-page'), 'CartPage') },
          { path: 'account', lazy: lazyPage(() => import('../../features/attendee/checkout/components/checkout-page'), 'CheckoutPage') },
          { path: 'line', lazy: lazyPage(() => import('../../features/attendee/waiting-room/components/waiting-room-page'), 'WaitingRoomPage') },
          { path: 'find-tickets', lazy: lazyPage(() => import('../../features/attendee/order-link/components/find-tickets-page'), 'FindTicketsPage') },
          { path: 'success', lazy: lazyPage(() => import('../../features/attendee/checkout/components/success-page'), 'SuccessPage') },
          { path: '*', Component: () => <SiteFallback kind="not-found" /> },
        ],
      },
      { path: '*', Component: () => <SiteFallback kind="not-found" /> },
    ],
  },
];
