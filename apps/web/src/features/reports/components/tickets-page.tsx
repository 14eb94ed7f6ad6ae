import { Badge, Text } from '@mantine/core';
import { M, paymentMethodLabelOf, REPORT_PATHS, saleChannelLabelOf, type TReportTicket } from '@marquee/core';
import { useParams } from 'react-router';
import { PageHeader } from '../../../ui/page-header';
import type { Column } from '../../../ui/paged-table';
import { ticketStatusLabel, ticketUsedLabel } from '../../../shared/report-list/format';
import { useEventName } from '../names';
import { useReportScope } from '../../../shared/report-list/report-scope';
import { useReportList, type SearchField } from '../../../shared/report-list/use-report-list';
import { DateCell, IdLink, MoneyCell, PhoneCell, TextCell } from '../../../shared/report-list/cells';
import { ExportButton } from './export-button';
import { ReportListView } from '../../../shared/report-list/report-list-view';

// spec §2 Ticket List: search by Ticket ID, Order ID, Name, Email, Phone #, Ticket Type; §5 Ticket Used yes/no.
const SEARCH: readonly SearchField[] = [
  { value: 'ticket', label: 'Ticket ID', field: 'details.ticketId' },
  { value: 'order', label: 'Order ID', field: 'details.orderId' },
  { value: 'name', label: 'Name', field: 'details.fullName' },
  { value: 'email', label: 'Email', field: 'details.email' },
  { value: 'phone', label: 'Phone #', field: 'details.contactNumber' },
  { value: 'type', label: 'Ticket Type', field: 'details.ticketTypeName' },
  { value: 'used', label: 'Ticket Used', field: 'details.used', transform: 'used' },
  // Issue 23: the order's channel (ONLINE, BACKEND, APP) and payment method.
  { value: 'channel', label: 'Channel', field: 'details.channel' },
  { value: 'payment', label: 'Payment Method', field: 'details.paymentMethod', transform: 'lower' },
];

/** spec §2 …/event/{event_id}/tickets: the Ticket List. */
export function TicketsPage() {
  const scope = useReportScope();
  const { eventId = '' } = useParams();
  const event = useEventName(scope.tenantId, eventId);
  const list = useReportList({ searchFields: SEARCH, dateField: 'details.dateCreated', usedField: 'details.used' });
  const t = scope.tenantId;
  const ok = !!t && !!eventId;

  const columns: Column<TReportTicket>[] = [
    { key: 'date', header: 'Date', render: (r) => <DateCell value={r.details.dateCreated} /> },
    { key: 'ticket', header: 'Ticket ID', render: (r) => <Text fz="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>{r.details.ticketId}</Text> },
    { key: 'order', header: 'Order ID', render: (r) => <IdLink to={scope.order(eventId, r.details.orderId)}>{r.details.orderId}</IdLink> },
    { key: 'name', header: 'Name', render: (r) => <TextCell>{r.details.fullName}</TextCell> },
    { key: 'email', header: 'Email', render: (r) => <TextCell>{r.details.email}</TextCell> },
    { key: 'phone', header: 'Phone number', render: (r) => <PhoneCell phone={r.details.contactNumber} /> },
    { key: 'type', header: 'Ticket Type', render: (r) => <TextCell>{r.details.ticketTypeName}</TextCell> },
    { key: 'price', header: 'Ticket Price', align: 'right', render: (r) => <MoneyCell cents={r.details.ticketPrice} /> },
    { key: 'channel', header: 'Channel', render: (r) => <TextCell>{saleChannelLabelOf(r.details.channel)}</TextCell> },
    { key: 'method', header: 'Payment Method', visibleFrom: 'md', render: (r) => <TextCell>{paymentMethodLabelOf(r.details.paymentMethod) || 'N/A'}</TextCell> },
    { key: 'used', header: 'Ticket Used', render: (r) => <Text fz="sm">{ticketUsedLabel(r.details.used)}</Text> },
    {
      key: 'status',
      header: 'Status',
      render: (r) => (
        <Badge variant="light" color={r.details.vioded ? 'red' : 'teal'}>
          {ticketStatusLabel(r.details.vioded)}
        </Badge>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={`Ticket List: ${event.name}`}
        breadcrumbs={[{ label: 'Sales', to: scope.base }, { label: 'Events', to: `${scope.base}/events` }, { label: event.name || 'Event', to: scope.event(eventId) }, { label: 'Ticket List' }]}
        actions={
          <ExportButton
            kind="tickets"
            path={ok ? REPORT_PATHS.eventTicketsDownload(t, eventId) : null}
            missing={t ? M.noEventId : M.noEventSelected}
            statusPath={(id) => REPORT_PATHS.eventExport(t, eventId, id)}
            filters={list.filters}
          />
        }
      />
      <ReportListView
        label="Ticket List"
        path={ok ? REPORT_PATHS.eventTickets(t, eventId) : null}
        list={list}
        columns={columns}
        searchFields={SEARCH}
        withUsedFilter
        minWidth={1200}
        emptyTitle="No tickets yet"
        emptyDescription="Tickets appear here as soon as they are bought."
      />
    </>
  );
}
