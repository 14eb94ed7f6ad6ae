import { IconBuildingStore, IconChartBar, IconMail, IconUsersGroup } from '@tabler/icons-react';
import { WelcomeDashboard } from '../console/welcome-dashboard';

export function DashboardPage() {
  return (
    <WelcomeDashboard
      statsTitle="Platform statistics"
      shortcuts={[
        { label: 'Tenants', to: '/tenants', icon: IconBuildingStore, description: 'The organisers selling tickets on Marquee.' },
        { label: 'Platform Users', to: '/platform-users', icon: IconUsersGroup, description: 'Invite and manage the Marquee team.' },
        { label: 'Sales', to: '/reports/sales', icon: IconChartBar, description: 'Sales across every tenant.' },
        { label: 'Outbox', to: '/outbox', icon: IconMail, description: 'Every e-mail Marquee has sent.' },
      ]}
    />
  );
}
