import { Alert, Button, Loader, Stack, Title } from '@mantine/core';
import { REPORT_PATHS } from '@marquee/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../ui/api-client';
import { PageHeader } from '../../../ui/page-header';
import { useEventName, useTenantNames } from '../names';
import { useDashboard } from '../queries';
import { useReportScope } from '../../../shared/report-list/report-scope';
import { AfterRefunds } from './after-refunds';
import { ChannelSales, WaitlistFigures } from './channel-sales';
import { counterCards, salesCards, StatGrid, type DashboardLinks } from './stat-cards';

const SalesCharts = lazy(() => import('./sales-charts').then((m) => ({ default: m.SalesCharts })));

function Charts(props: { salesOverTimePath: string | null; ticketTypesPath: string | null; showEvent?: boolean }) {
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <SalesCharts {...props} />
    </Suspense>
  );
}

function Dashboard({
  path,
  links,
  level,
  charts,
  extra,
}: {
  path: string | null;
  links: DashboardLinks;
  level: 'tenant' | 'event';
  charts: ReactNode;
  extra?: ReactNode;
}) {
  const dashboard = useDashboard(path);
  const d = dashboard.data;
  return (
    <Stack gap="lg">
      {dashboard.error && (
        <Alert color="red" variant="light" title="The figures could not be loaded">
          {errorMessage(dashboard.error)}
        </Alert>
      )}
      <StatGrid cards={d ? salesCards(d, links) : null} loading={!dashboard.error} count={8} large />
      {d && <AfterRefunds dashboard={d} />}
      <StatGrid cards={d ? counterCards(d, level, links) : null} loading={!dashboard.error} count={level === 'tenant' ? 6 : 5} />
      {d && <ChannelSales channels={d.channels} />}
      {/* The event's list always; across the tenant once anyone has joined one (issue 24). */}
      {d && (level === 'event' || d.waitlist.joined > 0) && <WaitlistFigures waitlist={d.waitlist} />}
      {extra}
      <div>
        <Title order={2} fz="lg" mb="sm">
          Trends
        </Title>
        {charts}
      </div>
    </Stack>
  );
}

/**
 * spec §2 /reports/sales/{tenant_id} (platform) and /reports/sales (tenant): the tenant dashboard.
 * `embedded` is the tenant console's home, which shows it under its own header.
 */
export function TenantDashboardPage({ embedded, extra }: { embedded?: boolean; extra?: ReactNode } = {}) {
  const scope = useReportScope();
  const names = useTenantNames(scope.tenantId);
  const t = scope.tenantId;
  const links: DashboardLinks = {
    events: `${scope.base}/events`,
    taxes: `${scope.base}/taxes`,
    donations: `${scope.base}/donations`,
    refunds: `${scope.base}/refunds`,
    orders: `${scope.base}/orders`,
    subscribers: `${scope.base}/subscribers`,
  };
  const body = (
    <Dashboard
      path={t ? REPORT_PATHS.tenantDashboard(t) : null}
      links={links}
      level="tenant"
      extra={extra}
      charts={<Charts salesOverTimePath={t ? REPORT_PATHS.tenantSalesOverTime(t) : null} ticketTypesPath={t ? REPORT_PATHS.tenantTicketTypes(t) : null} showEvent />}
    />
  );
  if (embedded) return body;
  return (
    <>
      <PageHeader
        title={names.name ? `Sales: ${names.name}` : 'Sales'}
        description={scope.mode === 'platform' ? names.host : 'Sales, fees, taxes, donations and refunds across all your events.'}
        actions={
          scope.mode === 'platform' && (
            <Button component={Link} to="/reports/sales" variant="default" leftSection={<IconArrowLeft size={16} />}>
              Back To Tenant List
            </Button>
          )
        }
      />
      {body}
    </>
  );
}

/** spec §2 …/event/{event_id}: the event dashboard. */
export function EventDashboardPage() {
  const scope = useReportScope();
  const { eventId = '' } = useParams();
  const event = useEventName(scope.tenantId, eventId);
  const t = scope.tenantId;
  const ev = scope.event(eventId);
  const links: DashboardLinks = { orders: `${ev}/orders`, refunds: `${ev}/refunds`, subscribers: `${ev}/subscribers`, tickets: `${ev}/tickets` };
  const ok = !!t && !!eventId;
  return (
    <>
      <PageHeader
        title={event.name || 'Event'}
        breadcrumbs={[{ label: 'Sales', to: scope.base }, { label: 'Events', to: `${scope.base}/events` }, { label: event.name || 'Event' }]}
        actions={
          <>
            <Button component={Link} to={`${scope.base}/events`} variant="default" leftSection={<IconArrowLeft size={16} />}>
              Back To Event List
            </Button>
            <Button component={Link} to={`${ev}/orders`} variant="light">
              Orders
            </Button>
            <Button component={Link} to={`${ev}/tickets`} variant="light">
              Ticket List
            </Button>
          </>
        }
      />
      <Dashboard
        path={ok ? REPORT_PATHS.eventDashboard(t, eventId) : null}
        links={{ ...links, events: undefined }}
        level="event"
        charts={<Charts salesOverTimePath={ok ? REPORT_PATHS.eventSalesOverTime(t, eventId) : null} ticketTypesPath={ok ? REPORT_PATHS.eventTicketTypes(t, eventId) : null} />}
      />
    </>
  );
}
