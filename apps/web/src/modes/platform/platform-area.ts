import {
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
} from '@tabler/icons-react';
import { isPlatformMember } from '../../ui/session';
import type { ConsoleArea } from '../console/console-area';

export const platformArea: ConsoleArea = {
  key: 'platform',
  subtitle: () => 'Platform console',
  hasAccess: (memberships) => isPlatformMember(memberships),
  nav: [
    { label: 'Dashboard', to: '/', icon: IconGauge, end: true },
    { label: 'Tenants', to: '/tenants', icon: IconBuildingStore },
    { label: 'Platform Users', to: '/platform-users', icon: IconUsersGroup },
    { label: 'Global Policies', to: '/policies', icon: IconFileText },
    { label: 'Global Fees', to: '/global-fees', icon: IconReceipt2 },
    { label: 'Sitebuilder Templates', to: '/templates', icon: IconTemplate },
    { label: 'Charities', to: '/charities', icon: IconHeartHandshake },
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
    { label: 'Outbox', to: '/outbox', icon: IconMail, visible: (ms) => ms.some((m) => m.kind === 'platform' && m.roles.includes('super_user')) },
  ],
};
