import { Badge } from '@mantine/core';
import { M, REPORT_PATHS, type TReportRefund } from '@marquee/core';
import { useParams } from 'react-router';
import { PageHeader } from '../../../ui/page-header';
import type { Column } from '../../../ui/paged-table';
import { formatLongDate, refundStatusLabel } from '../../../shared/report-list/format';
import { useEventName, useTenantNames } from '../names';
import { useReportScope } from '../../../shared/report-list/report-scope';
import { useReportList, type SearchField } from '../../../shared/report-list/use-report-list';
import { IdLink, MoneyCell, PhoneCell, TextCell } from '../../../shared/report-list/cells';
import { ExportButton } from './export-button';
import { ReportListView } from '../../../shared/report-list/report-list-view';

// spec §2 Refunds: search by Order ID, Payment ID, Event Name, Name, Email, Phone #, Ticket ID; §5 status lowercased.
const SEARCH: readonly SearchField[] = [
  { value: 'order', label: 'Order ID', field: 'details.orderUID' },
  { value: 'payment', label: 'Payment ID', field: 'details.chargeId' },
  { value: 'event', label: 'Event Name', field: 'details.eventName' },
  { value: 'name', label: 'Name', field: 'details.fullName' },
  { value: 'email', label: 'Email', field: 'details.userId' },
  { value: 'phone', label: 'Phone #', field: 'details.phone' },
  { value: 'ticket', label: 'Ticket ID', field: 'details.ticketId' },
  { value: 'status', label: 'Status', field: 'details.status', transform: 'refundStatus' },
];

const STATUS_COLOR: Record<string, string> = { succeeded: 'teal', failed: 'red', pending: 'yellow' };

function Refunds({ level }: { level: 'tenant' | 'event' }) {
  const scope = useReportScope();
  const { eventId = '' } = useParams();
  const names = useTenantNames(scope.tenantId);
  const event = useEventName(scope.tenantId, level === 'event' ? eventId : '');
  const list = useReportList({ searchFields: SEARCH, dateField: 'details.transactionDate' });
  const t = scope.tenantId;
  const ok = !!t && (level === 'tenant' || !!eventId);

  const columns: Column<TReportRefund>[] = [
    { key: 'date', header: 'Refund Date', render: (r) => <TextCell>{formatLongDate(r.details.transactionDate)}</TextCell> },
    // spec §2: a refund link adds ?refunded=true.
    { key: 'order', header: 'Order ID', render: (r) => <IdLink to={`${scope.order(r.details.eventId, r.details.orderUID)}?refunded=true`}>{r.details.orderUID}</IdLink> },
    { key: 'payment', header: 'Payment ID', render: (r) => <TextCell>{r.details.chargeId ?? 'N/A'}</TextCell> },
    { key: 'event', header: 'Event Name', render: (r) => <TextCell>{r.details.eventName}</TextCell> },
    { key: 'name', header: 'Name', render: (r) => <TextCell>{r.details.fullName}</TextCell> },
    { key: 'email', header: 'Email', render: (r) => <TextCell>{r.details.userId}</TextCell> },
    { key: 'phone', header: 'Phone Number', render: (r) => <PhoneCell phone={r.details.phone} /> },
    {
      key: 'status',
      header: 'Status',
      render: (r) => (
        <Badge variant="light" color={STATUS_COLOR[r.details.status.split('#')[0]!] ?? 'gray'}>
          {refundStatusLabel(r.details.status)}
        </Badge>
      ),
    },
    { key: 'amount', header: 'Refund Amount', align: 'right', render: (r) => <MoneyCell cents={r.details.refundAmount} /> },
    { key: 'reason', header: 'Reason', render: (r) => <TextCell wrap>{r.details.refundReason}</TextCell> },
  ];

  // spec §2 'Refunds: tenant URL': the tenant by its name, its URL beneath (issue 21.19).
  const title = level === 'tenant' ? `Refunds: ${names.name}` : `Refunds: ${event.name}`;
  const crumbs =
    level === 'tenant'
      ? [{ label: 'Sales', to: scope.base }, { label: 'Refunds' }]
      : [{ label: 'Sales', to: scope.base }, { label: 'Events', to: `${scope.base}/events` }, { label: event.name || 'Event', to: scope.event(eventId) }, { label: 'Refunds' }];

  return (
    <>
      <PageHeader
        title={title}
        description={level === 'tenant' && scope.mode === 'platform' ? names.host : undefined}
        breadcrumbs={crumbs}
        actions={
          <ExportButton
            kind="refunds"
            path={!ok ? null : level === 'tenant' ? REPORT_PATHS.tenantRefundsDownload(t) : REPORT_PATHS.eventRefundsDownload(t, eventId)}
            missing={t ? M.noEventId : M.noEventSelected}
            statusPath={(id) => (level === 'tenant' ? REPORT_PATHS.tenantExport(t, id) : REPORT_PATHS.eventExport(t, eventId, id))}
            filters={list.filters}
          />
        }
      />
      <ReportListView
        label="Refunds"
        path={!ok ? null : level === 'tenant' ? REPORT_PATHS.tenantRefunds(t) : REPORT_PATHS.eventRefunds(t, eventId)}
        list={list}
        columns={columns}
        searchFields={SEARCH}
        dateLabel="Refund date range"
        minWidth={1250}
        emptyTitle="No refunds"
        emptyDescription="Refunds made from an order page appear here."
      />
    </>
  );
}

/** spec §2 Refunds at tenant level, titled "Refunds: tenant URL". */
export const TenantRefundsPage = () => <Refunds level="tenant" />;
/** spec §2 …/event/{event_id}/refunds. */
export const EventRefundsPage = () => <Refunds level="event" />;
