import { PLATFORM_OUTBOX, PLATFORM_READ, PLATFORM_WRITE, type PlatformRole } from '@marquee/core';
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';
import { accountPageRoutes, publicAccountRoutes, staticRoutes } from '../console/account-routes';
import { ConsoleNotFound } from '../console/console-not-found';
import { FullPageLoader } from '../console/full-page-loader';
import { RouteError } from '../console/route-error';
import type { RouteHandle } from '../console/route-handle';
import { tenantReportRoutes } from '../console/report-routes';
import { payoutRoutes } from '../console/payout-routes';

// The platform console (platform host). One line a page; a page a later issue builds replaces its
// `comingSoon(...)` with `{ path, handle, lazy: lazyPage(() => import('...'), 'XPage') }`.
const consolePage = (title: string, platformRoles?: readonly PlatformRole[]): RouteHandle => ({ title, consoleOnly: true, platformRoles });

export const platformRoutes: RouteObject[] = [
  {
    path: '/',
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      publicAccountRoutes,
      staticRoutes,
      {
        lazy: lazyPage(() => import('./platform-console'), 'PlatformConsole'),
        children: [
          { index: true, handle: consolePage('Dashboard'), lazy: lazyPage(() => import('../../features/platform-dashboard/components/platform-dashboard-page'), 'PlatformDashboardPage') },
          { path: 'tenants', handle: consolePage('Tenants'), lazy: lazyPage(() => import('../../features/tenants/components/tenants-page'), 'TenantsPage') },
          {
            path: 'tenant/:tenantId',
            handle: consolePage('Tenant'),
            lazy: lazyPage(() => import('../../features/tenants/components/tenant-detail-layout'), 'TenantDetailLayout'),
            children: [
              { index: true, Component: () => <Navigate to="info" replace /> },
              { path: 'info', lazy: lazyPage(() => import('../../features/tenant-info/components/tenant-info-tab'), 'TenantInfoTab') },
              { path: 'fees', handle: consolePage('Tenant Fees'), lazy: lazyPage(() => import('../../features/tenants/components/tenant-fees-tab'), 'TenantFeesTab') },
              { path: 'payment-settings', handle: consolePage('Payment/Payouts'), lazy: lazyPage(() => import('../../features/tenants/components/tenant-payment-tab'), 'TenantPaymentTab') },
            ],
          },
          { path: 'platform-users', handle: consolePage('Platform Users', PLATFORM_READ), lazy: lazyPage(() => import('../../features/platform-users/components/platform-users-page'), 'PlatformUsersPage') },
          { path: 'policies', handle: consolePage('Global Policies', PLATFORM_READ), lazy: lazyPage(() => import('../../features/policies/components/policies-page'), 'PoliciesPage') },
          { path: 'global-fees', handle: consolePage('Global Fees', PLATFORM_READ), lazy: lazyPage(() => import('../../features/fees/components/global-fees-page'), 'GlobalFeesPage') },
          { path: 'templates', handle: consolePage('Sitebuilder Templates', PLATFORM_READ), lazy: lazyPage(() => import('../../features/templates/components/templates-page'), 'TemplatesPage') },
          { path: 'charities', handle: consolePage('Charities', PLATFORM_READ), lazy: lazyPage(() => import('../../features/charities/components/charities-page'), 'CharitiesPage') },
          { path: 'reports/sales', handle: consolePage('Platform Sales'), lazy: lazyPage(() => import('../../features/reports/components/platform-sales-pages'), 'PlatformSalesPage') },
          { path: 'reports/taxes', handle: consolePage('Platform Taxes'), lazy: lazyPage(() => import('../../features/reports/components/platform-sales-pages'), 'PlatformTaxesPage') },
          { path: 'reports/donations', handle: consolePage('Platform Donations'), lazy: lazyPage(() => import('../../features/reports/components/platform-sales-pages'), 'PlatformDonationsPage') },
          ...tenantReportRoutes('reports/sales/:tenantId'),
          ...payoutRoutes(consolePage),
          { path: 'api-keys', handle: consolePage('API Keys', ['super_user']), lazy: lazyPage(() => import('../../features/api-keys/components/tenant-api-keys-page'), 'PlatformApiKeysPage') },
          { path: 'audit-log', handle: consolePage('Audit Log', PLATFORM_WRITE), lazy: lazyPage(() => import('../../features/audit/components/tenant-audit-log-page'), 'PlatformAuditLogPage') },
          { path: 'settings/webhooks', handle: consolePage('Webhooks', PLATFORM_WRITE), lazy: lazyPage(() => import('../../features/webhooks/components/webhooks-page'), 'WebhooksPage') },
          { path: 'outbox', handle: consolePage('Outbox', PLATFORM_OUTBOX), lazy: lazyPage(() => import('../../features/outbox/components/outbox-page'), 'OutboxPage') },
          ...accountPageRoutes,
          { path: '*', handle: { title: 'Not found' }, Component: ConsoleNotFound },
        ],
      },
    ],
  },
];
