import { PLATFORM_OUTBOX, PLATFORM_READ, PLATFORM_WRITE, type PlatformRole, type TMembership } from '@marquee/core';
import {
  IconHistory,
  IconKey,
  IconBuildingStore,
  IconCash,
  IconChartBar,
  IconFileText,
  IconGauge,
  IconHeartHandshake,
  IconMail,
  IconReceipt2,
  IconTemplate,
  IconUsersGroup,
  IconWebhook,
} from '@tabler/icons-react';
import { hasPlatformRole, isPlatformMember } from '../../ui/session';
import type { ConsoleArea } from '../console/console-area';

/** Shown to the roles the server lets read the page's data (the routes check the same set). */
const forRoles = (allowed: readonly PlatformRole[]) => (memberships: TMembership[]) => hasPlatformRole(memberships, allowed);

export const platformArea: ConsoleArea = {
  key: 'platform',
  subtitle: () => 'Platform console',
  hasAccess: (memberships) => isPlatformMember(memberships),
  nav: [
    { label: 'Dashboard', to: '/', icon: IconGauge, end: true },
    { label: 'Tenants', to: '/tenants', icon: IconBuildingStore },
    { label: 'Platform Users', to: '/platform-users', icon: IconUsersGroup, visible: forRoles(PLATFORM_READ) },
    { label: 'Global Policies', to: '/policies', icon: IconFileText, visible: forRoles(PLATFORM_READ) },
    { label: 'Global Fees', to: '/global-fees', icon: IconReceipt2, visible: forRoles(PLATFORM_READ) },
    { label: 'Sitebuilder Templates', to: '/templates', icon: IconTemplate, visible: forRoles(PLATFORM_READ) },
    { label: 'Charities', to: '/charities', icon: IconHeartHandshake, visible: forRoles(PLATFORM_READ) },
    {
      label: 'Reports',
      to: '/reports',
      icon: IconChartBar,
      children: [
        { label: 'Sales', to: '/reports/sales' },
        { label: 'Taxes', to: '/reports/taxes' },
        { label: 'Donations', to: '/reports/donations' },
      ],
    },
    {
      label: 'Payouts',
      to: '/reports/payouts',
      icon: IconCash,
      children: [
        { label: 'Pending', to: '/reports/payouts/pending' },
        { label: 'Completed', to: '/reports/payouts/completed' },
      ],
    },
    // The server lets super users alone read the outbox: its mails hold sign-in codes.
    { label: 'Audit Log', to: '/audit-log', icon: IconHistory, visible: forRoles(PLATFORM_WRITE) },
    { label: 'API Keys', to: '/api-keys', icon: IconKey, visible: forRoles(['super_user']) },
    { label: 'Webhooks', to: '/settings/webhooks', icon: IconWebhook, visible: forRoles(PLATFORM_WRITE) },
    { label: 'Outbox', to: '/outbox', icon: IconMail, visible: forRoles(PLATFORM_OUTBOX) },
  ],
};
