import { PayoutBalancePanel } from './netting';
import { Button } from '@mantine/core';
import { PAYOUT_PATHS, payoutTypeLabel, type TCompletedPayout } from '@marquee/core';
import { useNavigate, useParams } from 'react-router';
import { useSiteContext } from '../../../shared/site-context';
import { PageHeader } from '../../../ui/page-header';
import type { Column } from '../../../ui/paged-table';
import { DateCell, MoneyCell, TenantCell, TextCell } from '../../../shared/report-list/cells';
import { ReportListView } from '../../../shared/report-list/report-list-view';
import { useTenantNames } from '../../reports/names';
import { useReportList, type SearchField } from '../../../shared/report-list/use-report-list';
import { payoutPaths } from '../paths';
import { usePayoutExport } from '../use-payout-export';

// spec: reports-payouts-checkout §2 Payouts: Completed Payouts of every tenant (platform), of one
// tenant (platform, titled with the tenant's name) and the tenant console's own ('Payouts: {url}').

const SEARCH: readonly SearchField[] = [
  { value: 'payout', label: 'Payout ID', field: 'details.payoutId' },
  { value: 'event', label: 'Event Name', field: 'details.eventName' },
  { value: 'order', label: 'Order ID', field: 'details.orderUID' },
];

export function CompletedPayoutsPage() {
  const context = useSiteContext();
  const platform = context.mode === 'platform';
  const { tenantId: tenantParam } = useParams();
  const tenantId = platform ? tenantParam : context.tenant?.id;
  const names = useTenantNames(tenantId ?? '');
  const navigate = useNavigate();
  const list = useReportList({ searchFields: SEARCH, dateField: 'details.dateCreated' });
  const exporter = usePayoutExport();

  // spec §2: rows open /reports/payouts/completed/{payoutId}?tenant_id= (all tenants),
  // /reports/sales/{tenantId}/payouts/completed/{payoutId} (one tenant) or /reports/payouts/completed/{payoutId} (tenant console).
  const open = (r: TCompletedPayout) =>
    navigate(platform ? (tenantParam ? payoutPaths.tenantPayout(tenantParam, r.id) : payoutPaths.payout(r.id, r.details.tenantId)) : payoutPaths.payout(r.id));

  const columns: Column<TCompletedPayout>[] = [
    { key: 'date', header: 'Date', render: (r) => <DateCell value={r.details.dateCreated} /> },
    { key: 'id', header: 'Payout ID', render: (r) => <TextCell wrap={false}>{r.details.payoutId.slice(0, 8)}…</TextCell> },
    ...(platform && !tenantParam
      ? [{ key: 'tenant', header: 'Tenant', render: (r: TCompletedPayout) => <TenantCell to={payoutPaths.tenantCompleted(r.details.tenantId)} name={r.details.tenantName} url={r.details.tenantURL} /> }]
      : []),
    { key: 'event', header: 'Event Name', visibleFrom: 'sm', render: (r) => <TextCell>{r.details.eventName}</TextCell> },
    { key: 'orders', header: 'Orders', align: 'right', render: (r) => <TextCell>{r.details.orderUIDs.length}</TextCell> },
    { key: 'tickets', header: 'Tickets', align: 'right', visibleFrom: 'md', render: (r) => <TextCell>{r.details.ticketCount}</TextCell> },
    { key: 'type', header: 'Type', visibleFrom: 'md', render: (r) => <TextCell>{payoutTypeLabel(r.details.facilitator)}</TextCell> },
    { key: 'gross', header: 'Order Total', align: 'right', render: (r) => <MoneyCell cents={r.details.grossAmount} /> },
    { key: 'fee', header: 'Credit Card Fees', align: 'right', visibleFrom: 'md', render: (r) => <MoneyCell cents={r.details.creditCardProcessingFee} /> },
    { key: 'tenantTotal', header: 'Tenant Total', align: 'right', render: (r) => <MoneyCell cents={r.details.tenantTotal} /> },
    { key: 'platformTotal', header: 'Platform Total', align: 'right', visibleFrom: 'md', render: (r) => <MoneyCell cents={r.details.platformTotal} /> },
  ];

  const path = platform ? (tenantParam ? PAYOUT_PATHS.tenantCompleted(tenantParam) : PAYOUT_PATHS.completed()) : tenantId ? PAYOUT_PATHS.tenantCompleted(tenantId) : null;
  // spec §2 'Payouts: {tenant url}': the tenant by its name, its site beneath (issue 21.19).
  const title = platform ? (tenantParam ? `Completed Payouts: ${names.name}` : 'Completed Payouts') : `Payouts: ${names.name}`;
  const exportButton =
    platform && !tenantParam ? (
      <Button variant="default" loading={exporter.running} onClick={() => void exporter.start({ kind: 'list', path: PAYOUT_PATHS.collectionDownload(), statusPath: PAYOUT_PATHS.platformExport, filters: list.filters })}>
        Export to CSV
      </Button>
    ) : tenantId ? (
      <Button
        variant="default"
        loading={exporter.running}
        onClick={() =>
          void exporter.start({
            kind: 'transactions',
            path: PAYOUT_PATHS.tenantTransactionsDownload(tenantId),
            statusPath: (id) => PAYOUT_PATHS.tenantExport(tenantId, id),
            filters: [],
          })
        }
      >
        Export transactions
      </Button>
    ) : null;

  return (
    <>
      <PageHeader
        title={title}
        description={platform ? (tenantParam ? names.host : 'Transfers made to tenants, newest first.') : `${names.host} · The payouts made to your account and the orders in each.`}
        breadcrumbs={platform && tenantParam ? [{ label: 'Sales', to: `/reports/sales/${tenantParam}` }, { label: 'Completed Payouts' }] : undefined}
        actions={exportButton}
      />
      {tenantId && <PayoutBalancePanel tenantId={tenantId} />}
      <ReportListView
        label="Completed payouts"
        path={path}
        list={list}
        columns={columns}
        searchFields={SEARCH}
        minWidth={900}
        onRowClick={open}
        emptyTitle="No payouts yet"
        emptyDescription="Payouts appear here once a transfer is made."
      />
    </>
  );
}
