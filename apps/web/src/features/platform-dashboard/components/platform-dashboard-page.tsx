import { Alert, Anchor, Avatar, Grid, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { greetingName, M, type TPlatformDashboard } from '@marquee/core';
import {
  IconArrowRight,
  IconBuildingStore,
  IconCalendarEvent,
  IconCash,
  IconGift,
  IconHeart,
  IconPercentage,
  IconReceipt,
  IconReceiptRefund,
  IconTicket,
  IconTrendingUp,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { domainCodeOf, errorMessage } from '../../../ui/api-client';
import { EmptyState } from '../../../ui/empty-state';
import { formatMoney } from '../../../ui/money';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { useSession } from '../../../ui/session';
import { ChannelSales } from '../../reports/components/channel-sales';
import { TenantStatusBadge } from '../../tenants/components/tenant-status-badge';
import { useNewActiveTenants, usePlatformDashboard } from '../queries';

const count = new Intl.NumberFormat('en-US');

type Stat = { label: string; value: string; icon: Icon; color: string };

function statsOf(d: TPlatformDashboard): { main: Stat[]; more: Stat[] } {
  const s = d.sales;
  return {
    main: [
      { label: 'Gross Sales', value: formatMoney(s.gross_sales), icon: IconTrendingUp, color: 'brand' },
      { label: 'Net Sales', value: formatMoney(s.net_sales), icon: IconCash, color: 'teal' },
      { label: 'Tickets Sold', value: count.format(s.tickets_sold), icon: IconTicket, color: 'blue' },
      { label: 'Tenants', value: count.format(d.tenants), icon: IconBuildingStore, color: 'grape' },
    ],
    more: [
      { label: 'Service Fees', value: formatMoney(s.total_service_fees), icon: IconReceipt, color: 'brand' },
      { label: 'Processing Fees', value: formatMoney(s.total_processing_fees), icon: IconPercentage, color: 'gray' },
      { label: 'Taxes', value: formatMoney(s.total_taxes), icon: IconReceipt, color: 'gray' },
      { label: 'Donations', value: formatMoney(s.total_donations), icon: IconHeart, color: 'pink' },
      { label: 'Discounts', value: formatMoney(s.total_discounts), icon: IconPercentage, color: 'orange' },
      { label: 'Refunds', value: formatMoney(s.refunds), icon: IconReceiptRefund, color: 'red' },
      { label: 'Complimentary Tickets', value: count.format(s.complimentary_tickets), icon: IconGift, color: 'cyan' },
      { label: 'Events', value: count.format(d.events), icon: IconCalendarEvent, color: 'indigo' },
      { label: 'Attendees', value: count.format(d.attendees), icon: IconUsers, color: 'teal' },
    ],
  };
}

function StatCard({ stat, large }: { stat: Stat; large?: boolean }) {
  const I = stat.icon;
  return (
    <Paper withBorder radius="lg" p={large ? 'lg' : 'md'} data-testid={`stat-${stat.label.toLowerCase().replace(/\s+/g, '-')}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Text fz="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.4 }}>
            {stat.label}
          </Text>
          <Text fz={large ? 28 : 20} fw={700} lh={1.15} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {stat.value}
          </Text>
        </Stack>
        <ThemeIcon variant="light" color={stat.color} size={large ? 40 : 32} radius="md">
          <I size={large ? 22 : 18} stroke={1.7} />
        </ThemeIcon>
      </Group>
    </Paper>
  );
}

function NewActiveTenants() {
  const tenants = useNewActiveTenants();
  return (
    <Paper withBorder radius="lg" p="lg" h="100%">
      <Group justify="space-between" mb="md">
        <Title order={3} fz="md">
          New Active Tenants
        </Title>
        <Anchor component={Link} to="/tenants" fz="sm" fw={600}>
          <Group gap={4} component="span">
            See all
            <IconArrowRight size={14} />
          </Group>
        </Anchor>
      </Group>
      {tenants.data ? (
        tenants.data.result.length === 0 ? (
          <EmptyState bare title="No active tenants yet" description="Tenants appear here once their site is set up." />
        ) : (
          <Stack gap="sm">
            {tenants.data.result.map((t) => (
              <Anchor key={t.id} component={Link} to={`/tenant/${t.id}/info`} underline="never" c="inherit">
                <Group gap="sm" wrap="nowrap">
                  <Avatar src={t.details.logo} radius="md" size={36} color="brand" alt="">
                    {t.details.name.slice(0, 2).toUpperCase()}
                  </Avatar>
                  <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                    <Text fz="sm" fw={600} truncate>
                      {t.details.name}
                    </Text>
                    <Text fz="xs" c="dimmed" truncate>
                      Joined {new Date(t.details.dateCreated).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })}
                    </Text>
                  </Stack>
                  <TenantStatusBadge status={t.details.status} />
                </Group>
              </Anchor>
            ))}
          </Stack>
        )
      ) : tenants.error ? (
        <Text fz="sm" c="red.7">
          {errorMessage(tenants.error)}
        </Text>
      ) : (
        <Stack gap="sm">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={36} radius="md" />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** spec: accounts §2 screen 8: the platform dashboard. */
export function PlatformDashboardPage() {
  const { user } = useSession();
  const dashboard = usePlatformDashboard();

  useEffect(() => {
    // spec: accounts §8 Dashboard: 'Invalid user session' / 'Please login first'.
    if (domainCodeOf(dashboard.error) === 'NOT_SIGNED_IN')
      notify.error(M.invalidSessionTitle, M.invalidSessionBody, { id: 'invalid-session' });
  }, [dashboard.error]);

  const stats = dashboard.data ? statsOf(dashboard.data) : null;
  // The person's first name; none for the seeded admin's 'Platform Admin' label (issue 21.19).
  const greeted = greetingName(user);
  const loading = !stats && !dashboard.error;

  return (
    <>
      <PageHeader title="Dashboard" description={`Welcome back${greeted ? `, ${greeted}` : ''}. Here is how Marquee is doing across every tenant.`} />
      <Stack gap="lg">
        {dashboard.error && domainCodeOf(dashboard.error) !== 'NOT_SIGNED_IN' && (
          <Alert color="red" variant="light" title="The statistics could not be loaded">
            {errorMessage(dashboard.error)}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
          {stats ? stats.main.map((s) => <StatCard key={s.label} stat={s} large />) : loading && [0, 1, 2, 3].map((i) => <Skeleton key={i} height={104} radius="lg" />)}
        </SimpleGrid>
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="md" data-testid="more-stats">
              {stats ? stats.more.map((s) => <StatCard key={s.label} stat={s} />) : loading && Array.from({ length: 9 }, (_, i) => <Skeleton key={i} height={84} radius="lg" />)}
            </SimpleGrid>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <NewActiveTenants />
          </Grid.Col>
        </Grid>
        {dashboard.data && <ChannelSales channels={dashboard.data.channels} platform />}
      </Stack>
    </>
  );
}
