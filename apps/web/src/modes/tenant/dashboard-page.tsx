import { Stack } from '@mantine/core';
import { IconBuildingStore, IconCalendarEvent, IconChartBar, IconUsers } from '@tabler/icons-react';
import { Navigate } from 'react-router';
import { useSiteContext } from '../../shared/site-context';
import { FindOrderBox } from '../../features/order-admin/components/find-order';
import { TenantDashboardPage } from '../../features/reports/components/dashboard-pages';
import { isTenantWideMember } from '../../shared/access';
import { useSession } from '../../ui/session';
import { WelcomeDashboard } from '../console/welcome-dashboard';

export function DashboardPage() {
  const context = useSiteContext();
  const { memberships } = useSession();
  // Event staff work on their events alone: their console opens there.
  if (!isTenantWideMember(memberships, context.tenant?.id)) return <Navigate to="/events" replace />;
  return (
    <WelcomeDashboard
      statsTitle="Sales statistics"
      stats={
        <Stack gap="lg">
          <FindOrderBox />
          <TenantDashboardPage embedded />
        </Stack>
      }
      shortcuts={[
        { label: 'Events', to: '/events', icon: IconCalendarEvent, description: 'Create events and the tickets they sell.' },
        { label: 'Staff', to: '/staff', icon: IconUsers, description: 'Invite the people who help you run them.' },
        { label: 'Basic Information', to: '/info', icon: IconBuildingStore, description: 'Your phone, logo and invitation e-mail.' },
        { label: 'Reports', to: '/reports/sales', icon: IconChartBar, description: 'Sales, taxes, refunds and attendees.' },
      ]}
    />
  );
}
