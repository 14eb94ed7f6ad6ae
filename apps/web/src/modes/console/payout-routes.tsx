import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';
import type { RouteHandle } from './route-handle';

// spec: reports-payouts-checkout §2 Payouts: the payout pages of both consoles.
const pending = () => import('../../features/payouts/components/pending-payouts-page');
const completed = () => import('../../features/payouts/components/completed-payouts-page');
const detail = () => import('../../features/payouts/components/payout-detail-page');
const redirect = () => import('../../features/payouts/components/payout-order-redirect');

export function payoutRoutes(handleOf: (title: string) => RouteHandle): RouteObject[] {
  return [
    { path: 'reports/payouts/pending', handle: handleOf('Pending Payouts'), lazy: lazyPage(pending, 'PendingPayoutsPage') },
    { path: 'reports/payouts/completed', handle: handleOf('Completed Payouts'), lazy: lazyPage(completed, 'CompletedPayoutsPage') },
    { path: 'reports/payouts/completed/:payoutId', handle: handleOf('Payout'), lazy: lazyPage(detail, 'PayoutDetailPage') },
    { path: 'reports/payouts/order-details', handle: handleOf('Order'), lazy: lazyPage(redirect, 'PayoutOrderRedirect') },
    { path: 'reports/sales/:tenantId/payouts/pending', handle: handleOf('Pending Payouts'), lazy: lazyPage(pending, 'PendingPayoutsPage') },
    { path: 'reports/sales/:tenantId/payouts/completed', handle: handleOf('Completed Payouts'), lazy: lazyPage(completed, 'CompletedPayoutsPage') },
    { path: 'reports/sales/:tenantId/payouts/completed/:payoutId', handle: handleOf('Payout'), lazy: lazyPage(detail, 'PayoutDetailPage') },
    { path: 'reports/sales/:tenantId/payouts/order-details', handle: handleOf('Order'), lazy: lazyPage(redirect, 'PayoutOrderRedirect') },
  ];
}

export function tenantPayoutRoutes(handleOf: (title: string) => RouteHandle): RouteObject[] {
  return [
    { path: 'reports/payouts/completed', handle: handleOf('Payouts'), lazy: lazyPage(completed, 'CompletedPayoutsPage') },
    { path: 'reports/payouts/completed/:payoutId', handle: handleOf('Payout'), lazy: lazyPage(detail, 'PayoutDetailPage') },
    { path: 'reports/payouts/order-details', handle: handleOf('Order'), lazy: lazyPage(redirect, 'PayoutOrderRedirect') },
  ];
}
