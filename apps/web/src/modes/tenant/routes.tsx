import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';
import { accountPageRoutes, publicAccountRoutes, staticRoutes } from '../console/account-routes';
import { ConsoleNotFound } from '../console/console-not-found';
import { FullPageLoader } from '../console/full-page-loader';
import { tenantPayoutRoutes } from '../console/payout-routes';
import { RouteError } from '../console/route-error';
import type { RouteHandle } from '../console/route-handle';
import { tenantReportRoutes } from '../console/report-routes';

// The tenant console (a tenant's host: '/' and the reserved first segments; everything else is
// the attendee site). One line a page; replace a `comingSoon(...)` with the real page's route.
const consolePage = (title: string): RouteHandle => ({ title, consoleOnly: true });
/** The tenant's own pages: event-only staff read that they have no access (they work in Events). */
const tenantPage = (title: string): RouteHandle => ({ title, consoleOnly: true, tenantWide: true });

export const tenantRoutes: RouteObject[] = [
  {
    path: '/',
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      publicAccountRoutes,
      staticRoutes,
      {
        lazy: lazyPage(() => import('./tenant-console'), 'TenantConsole'),
        children: [
          { index: true, handle: consolePage('Dashboard'), lazy: lazyPage(() => import('./dashboard-page'), 'DashboardPage') },
          { path: 'events', handle: consolePage('Events'), lazy: lazyPage(() => import('../../features/events/components/events-page'), 'EventsPage') },
          { path: 'events/new', handle: consolePage('Create Event'), lazy: lazyPage(() => import('../../features/events/components/event-editor-page'), 'EventCreatePage') },
          { path: 'events/:eventId/check-in', handle: { title: 'Check-in', consoleOnly: true, fullScreen: true }, lazy: lazyPage(() => import('../../features/checkin/components/checkin-page'), 'CheckinPage') },
          { path: 'events/:eventId/box-office', handle: { title: 'Box office', consoleOnly: true, fullScreen: true }, lazy: lazyPage(() => import('../../features/box-office/components/box-office-page'), 'BoxOfficePage') },
          { path: 'events/:eventId/:tab?', handle: consolePage('Event'), lazy: lazyPage(() => import('../../features/events/components/event-editor-page'), 'EventEditorPage') },
          { path: 'staff', handle: tenantPage('Staff'), lazy: lazyPage(() => import('../../features/staff/components/staff-page'), 'StaffPage') },
          { path: 'info', handle: tenantPage('Basic Information'), lazy: lazyPage(() => import('../../features/tenant-info/components/tenant-info-page'), 'TenantInfoPage') },
          { path: 'fees', handle: tenantPage('Fees'), lazy: lazyPage(() => import('../../features/fees/components/tenant-fees-page'), 'TenantFeesPage') },
          ...tenantReportRoutes('reports/sales', tenantPage),
          { path: 'reports/orders', handle: tenantPage('Find an Order'), lazy: lazyPage(() => import('../../features/order-admin/components/find-order'), 'FindOrderPage') },
          { path: 'event/:eventId/order/:orderUID', handle: consolePage('Order'), lazy: lazyPage(() => import('../../features/order-admin/components/order-detail-page'), 'ConsoleOrderPage') },
          ...tenantPayoutRoutes(tenantPage),
          { path: 'event-series', handle: tenantPage('Event series'), lazy: lazyPage(() => import('../../features/series/components/series-list-page'), 'SeriesListPage') },
          { path: 'event-series/new', handle: tenantPage('New event series'), lazy: lazyPage(() => import('../../features/series/components/series-editor-page'), 'SeriesEditorPage') },
          { path: 'event-series/:seriesId', handle: tenantPage('Event series'), lazy: lazyPage(() => import('../../features/series/components/series-detail-page'), 'SeriesDetailPage') },
          { path: 'venue-layouts', handle: tenantPage('Venue layouts'), lazy: lazyPage(() => import('../../features/seating/components/layout-editor-page'), 'LayoutEditorPage') },
          { path: 'api-keys', handle: tenantPage('API Keys'), lazy: lazyPage(() => import('../../features/api-keys/components/tenant-api-keys-page'), 'TenantApiKeysPage') },
          { path: 'audit-log', handle: tenantPage('Audit Log'), lazy: lazyPage(() => import('../../features/audit/components/tenant-audit-log-page'), 'TenantAuditLogPage') },
          { path: 'settings/website', handle: tenantPage('Sell on your website'), lazy: lazyPage(() => import('../../features/embed/components/sell-on-website-page'), 'SellOnWebsitePage') },
          { path: 'settings/webhooks', handle: tenantPage('Webhooks'), lazy: lazyPage(() => import('../../features/webhooks/components/webhooks-page'), 'WebhooksPage') },

          { path: 'cash-drawer', handle: consolePage('Cash drawer'), lazy: lazyPage(() => import('../../features/cash-drawers/components/my-drawer-page'), 'MyDrawerPage') },
          { path: 'cash-drawers', handle: tenantPage('Cash drawers'), lazy: lazyPage(() => import('../../features/cash-drawers/components/drawers-page'), 'DrawersPage') },
          { path: 'charities', handle: tenantPage('Charities'), lazy: lazyPage(() => import('../../features/charities/components/tenant-charities-page'), 'TenantCharitiesPage') },
          ...accountPageRoutes,
          { path: '*', handle: { title: 'Not found' }, Component: ConsoleNotFound },
        ],
      },
    ],
  },
];
