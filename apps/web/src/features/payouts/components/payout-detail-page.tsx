import { PayoutLineBadge } from './netting';
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { encodeFilters, PAYOUT_ORDER_PAGE_SIZE, PAYOUT_PATHS, type TPayoutBreakdownList } from '@marquee/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useSiteContext } from '../../../shared/site-context';
import { PageHeader } from '../../../ui/page-header';
import { PagedTable, fromListQuery, useCursorPager, type Column } from '../../../ui/paged-table';
import { MoneyCell, TextCell } from '../../../shared/report-list/cells';
import { formatDateTime, formatMoney } from '../../../shared/report-list/format';
import { ReportFilters } from '../../../shared/report-list/report-filters';
import { useReportList, type SearchField } from '../../../shared/report-list/use-report-list';
import { payoutsApi } from '../api';
import { payoutPaths } from '../paths';
import { usePayoutExport } from '../use-payout-export';

// spec: reports-payouts-checkout §2 Payout detail: Payout ID, Date, Order Total, Credit Card Fees,
// Net Amount, Tenant Total, Platform Total, its order list (Search Order ID, CSV, 10/25/100 with
// 100 by default) and the back link by who looks and from where.

const SEARCH: readonly SearchField[] = [{ value: 'order', label: 'Order ID', field: 'details.orderUID' }];
type Breakdown = TPayoutBreakdownList['result'][number];

export function PayoutDetailPage() {
  const context = useSiteContext();
  const platform = context.mode === 'platform';
  const { payoutId = '', tenantId: tenantParam } = useParams();
  const [params] = useSearchParams();
  const tenantQuery = params.get('tenant_id') ?? undefined;
  const consoleTenant = platform ? undefined : context.tenant?.id;
  const navigate = useNavigate();

  // The platform reads any tenant's payout; the tenant console only its own.
  const detailPath = platform ? PAYOUT_PATHS.payout(payoutId) : consoleTenant ? PAYOUT_PATHS.tenantPayout(consoleTenant, payoutId) : null;
  const ordersPath = platform ? PAYOUT_PATHS.payoutOrders(payoutId) : consoleTenant ? PAYOUT_PATHS.tenantPayoutOrders(consoleTenant, payoutId) : null;
  const payout = useQuery({ queryKey: ['payouts', 'payout', detailPath], queryFn: ({ signal }) => payoutsApi.payout(detailPath!, signal), enabled: !!detailPath });

  const list = useReportList({ searchFields: SEARCH });
  const pager = useCursorPager({ defaultPageSize: PAYOUT_ORDER_PAGE_SIZE, resetKey: list.filters.join('|') });
  const orders = useQuery({
    queryKey: ['payouts', 'orders', ordersPath, pager.cursor, pager.limit, list.filters],
    queryFn: ({ signal }) => payoutsApi.payoutOrders(ordersPath!, { cursor: pager.cursor, limit: pager.limit, filters: list.filters.length ? list.filters : undefined }, signal),
    enabled: !!ordersPath,
    placeholderData: keepPreviousData,
  });
  const exporter = usePayoutExport();

  // spec §2: back to /reports/payouts/completed for a tenant and for a platform user who came from
  // the completed-payouts list; otherwise to /reports/sales/{tenant_id}/payouts/completed.
  const back = !platform || !tenantParam ? payoutPaths.completed : payoutPaths.tenantCompleted(tenantParam);
  const tenantOfPayout = payout.data?.details.tenantId ?? tenantParam ?? tenantQuery ?? '';
  const openOrder = (r: Breakdown) =>
    navigate(
      !platform
        ? payoutPaths.orderDetails({ eventId: r.details.eventId, payoutId, orderId: r.details.orderUID })
        : tenantParam
          ? payoutPaths.tenantOrderDetails(tenantParam, { eventId: r.details.eventId, payoutId, orderId: r.details.orderUID })
          : payoutPaths.orderDetails({ tenantId: tenantOfPayout, eventId: r.details.eventId, payoutId, orderId: r.details.orderUID }),
    );

  const columns: Column<Breakdown>[] = [
    {
      key: 'order',
      header: 'Order ID',
      render: (r) => (
        <Group gap={6} wrap="nowrap">
          <TextCell wrap={false}>{r.details.orderUID}</TextCell>
          <PayoutLineBadge kind={r.details.kind} paymentMethod={r.details.paymentMethod} tenantTotal={r.details.tenantTotal} />
        </Group>
      ),
    },
    { key: 'event', header: 'Event Name', visibleFrom: 'sm', render: (r) => <TextCell>{r.details.eventName}</TextCell> },
    { key: 'gross', header: 'Order Total', align: 'right', render: (r) => <MoneyCell cents={r.details.grossAmount} /> },
    { key: 'fee', header: 'Card Fees', align: 'right', visibleFrom: 'sm', render: (r) => <MoneyCell cents={r.details.gatewayFee} /> },
    { key: 'net', header: 'Net Amount', align: 'right', visibleFrom: 'md', render: (r) => <MoneyCell cents={r.details.netAmount} /> },
    { key: 'tenant', header: 'Tenant Total', align: 'right', render: (r) => <MoneyCell cents={r.details.tenantTotal} /> },
    { key: 'platform', header: 'Platform Total', align: 'right', visibleFrom: 'md', render: (r) => <MoneyCell cents={r.details.platformTotal} /> },
  ];

  const d = payout.data?.details;
  const exportPath = platform ? PAYOUT_PATHS.payoutDownload(payoutId) : consoleTenant ? PAYOUT_PATHS.tenantTransactionsDownload(consoleTenant) : null;
  return (
    <>
      <Anchor component={Link} to={back} fz="sm" mb="xs" display="inline-block">
        ← Back to payouts
      </Anchor>
      <PageHeader
        title={`Payout ${payoutId.slice(0, 8)}`}
        description={d ? `${d.tenantName} (${d.tenantURL})` : undefined}
        actions={
          exportPath && (
            <Button
              variant="default"
              loading={exporter.running}
              onClick={() =>
                void exporter.start({
                  kind: 'payout',
                  path: exportPath,
                  statusPath: platform ? PAYOUT_PATHS.platformExport : (id) => PAYOUT_PATHS.tenantExport(consoleTenant!, id),
                  filters: platform ? list.filters : [...encodeFilters([{ field: 'details.payoutId', op: '=', value: payoutId }]), ...list.filters],
                })
              }
            >
              Export to CSV
            </Button>
          )
        }
      />
      {payout.error ? (
        <Text c="red">This payout could not be found.</Text>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} mb="lg">
          <Figure label="Payout ID" value={d?.payoutId ?? ''} mono />
          <Figure label="Date" value={d ? formatDateTime(d.dateCreated) : ''} />
          <Figure label="Order Total" value={d ? formatMoney(d.grossAmount) : ''} />
          <Figure label="Credit Card Fees" value={d ? formatMoney(d.creditCardProcessingFee) : ''} />
          <Figure label="Net Amount" value={d ? formatMoney(d.netAmount) : ''} />
          <Figure label="Tenant Total" value={d ? formatMoney(d.tenantTotal) : ''} />
          <Figure label="Platform Total" value={d ? formatMoney(d.platformTotal) : ''} />
        </SimpleGrid>
      )}
      <ReportFilters list={list} searchFields={SEARCH} withDateRange={false} />
      <PagedTable
        aria-label="Payout orders"
        columns={columns}
        {...fromListQuery(orders)}
        rowKey={(r) => r.id}
        pager={pager}
        onRowClick={openOrder}
        minWidth={640}
        empty={<Text c="dimmed" ta="center" py="lg">No orders match.</Text>}
      />
    </>
  );
}

function Figure({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap={2}>
        <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
          {label}
        </Text>
        <Text fw={600} ff={mono ? 'monospace' : undefined} fz={mono ? 'xs' : 'md'} style={mono ? { wordBreak: 'break-all' } : undefined}>
          {value}
        </Text>
      </Stack>
    </Paper>
  );
}
