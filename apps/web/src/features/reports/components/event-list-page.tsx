import { Anchor, Badge, Text } from '@mantine/core';
import { M, REPORT_PATHS, type TEventSalesRow } from '@marquee/core';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '../../../ui/page-header';
import type { Column } from '../../../ui/paged-table';
import { formatCount } from '../../../shared/report-list/format';
import { useTenantNames } from '../names';
import { useReportScope } from '../../../shared/report-list/report-scope';
import { useReportList, type SearchField } from '../../../shared/report-list/use-report-list';
import { MoneyCell } from '../../../shared/report-list/cells';
import { ExportButton } from './export-button';
import { ReportListView } from '../../../shared/report-list/report-list-view';

const SEARCH: readonly SearchField[] = [{ value: 'name', label: 'Event Name', field: 'details.eventName' }];

/** spec §2 …/events: titled "Sales: tenant name"; Event Name, Gross Sales, Net Revenue. */
export function EventListPage() {
  const scope = useReportScope();
  const names = useTenantNames(scope.tenantId);
  const navigate = useNavigate();
  const list = useReportList({ searchFields: SEARCH });
  const t = scope.tenantId;
  // The row carries the event's id: names repeat across events, so no lookup by name (docs/decisions.md).
  const open = (r: TEventSalesRow) => void navigate(scope.event(r.id));

  const columns: Column<TEventSalesRow>[] = [
    {
      key: 'name',
      header: 'Event Name',
      render: (r) => (
        <Anchor component={Link} to={scope.event(r.id)} fz="sm" fw={600} onClick={(e) => e.stopPropagation()}>
          {r.details.eventName}
          {r.details.status === 'cancelled' && (
            <Badge ml="xs" size="xs" color="red" variant="light">
              Cancelled
            </Badge>
          )}
        </Anchor>
      ),
    },
    { key: 'sold', header: '# Tickets Sold', align: 'right', visibleFrom: 'sm', render: (r) => <Text fz="sm">{formatCount(r.details.ticketsSold)}</Text> },
    { key: 'gross', header: 'Gross Sales', align: 'right', render: (r) => <MoneyCell cents={r.details.grossSales} /> },
    { key: 'net', header: 'Net Revenue', align: 'right', render: (r) => <MoneyCell cents={r.details.netSales} /> },
  ];

  return (
    <>
      <PageHeader
        title={`Sales: ${names.name}`}
        breadcrumbs={[{ label: 'Sales', to: scope.base }, { label: 'Events' }]}
        actions={
          <ExportButton
            kind="event-list"
            path={!t ? null : scope.mode === 'platform' ? REPORT_PATHS.platformEventListDownload(t) : REPORT_PATHS.eventListDownload(t)}
            statusPath={(id) => (scope.mode === 'platform' ? REPORT_PATHS.platformExport(id) : REPORT_PATHS.tenantExport(t, id))}
            filters={list.filters}
            missing={M.noEventSelected}
          />
        }
      />
      <ReportListView
        label="Event sales"
        path={t ? REPORT_PATHS.eventList(t) : null}
        list={list}
        columns={columns}
        searchFields={SEARCH}
        withDateRange={false}
        minWidth={360}
        onRowClick={open}
        emptyTitle="No events yet"
        emptyDescription="Events appear here once they are created."
      />
    </>
  );
}
