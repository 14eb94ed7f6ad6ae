import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';
import type { RouteHandle } from './route-handle';

const reports = () => import('../../features/reports/components/dashboard-pages');
const orders = () => import('../../features/reports/components/orders-page');
const refunds = () => import('../../features/reports/components/refunds-page');
const subscribers = () => import('../../features/reports/components/subscribers-page');

/**
 * spec: reports-payouts-checkout §2 Reports: the tenant dashboard and everything under it, the same
 * pages in both consoles. `base` is 'reports/sales/:tenantId' on the platform, 'reports/sales' in a
 * tenant's console.
 */
export function tenantReportRoutes(base: string, handleOf: (title: string) => RouteHandle = (title) => ({ title, consoleOnly: true })): RouteObject[] {
  const ev = `${base}/event/:eventId`;
  return [
    { path: base, handle: handleOf('Sales'), lazy: lazyPage(reports, 'TenantDashboardPage') },
    { path: `${base}/events`, handle: handleOf('Event Sales'), lazy: lazyPage(() => import('../../features/reports/components/event-list-page'), 'EventListPage') },
    { path: `${base}/orders`, handle: handleOf('Orders'), lazy: lazyPage(orders, 'TenantOrdersPage') },
    { path: `${base}/taxes`, handle: handleOf('Taxes'), lazy: lazyPage(orders, 'TenantTaxesPage') },
    { path: `${base}/donations`, handle: handleOf('Donations'), lazy: lazyPage(orders, 'TenantDonationsPage') },
    { path: `${base}/refunds`, handle: handleOf('Refunds'), lazy: lazyPage(refunds, 'TenantRefundsPage') },
    { path: `${base}/subscribers`, handle: handleOf('Subscribers'), lazy: lazyPage(subscribers, 'TenantSubscribersPage') },
    { path: ev, handle: handleOf('Event Sales'), lazy: lazyPage(reports, 'EventDashboardPage') },
    { path: `${ev}/orders`, handle: handleOf('Orders'), lazy: lazyPage(orders, 'EventOrdersPage') },
    { path: `${ev}/orders/:orderUID`, handle: handleOf('Order'), lazy: lazyPage(() => import('../../features/order-admin/components/order-detail-page'), 'ReportOrderPage') },
    { path: `${ev}/tickets`, handle: handleOf('Ticket List'), lazy: lazyPage(() => import('../../features/reports/components/tickets-page'), 'TicketsPage') },
    { path: `${ev}/refunds`, handle: handleOf('Refunds'), lazy: lazyPage(refunds, 'EventRefundsPage') },
    { path: `${ev}/subscribers`, handle: handleOf('Subscribers'), lazy: lazyPage(subscribers, 'EventSubscribersPage') },
  ];
}
