import { formatPhone, REPORT_PATHS, M, type TReportSubscriber } from '@marquee/core';
import { useParams } from 'react-router';
import { PageHeader } from '../../../ui/page-header';
import type { Column } from '../../../ui/paged-table';
import { useEventName, useTenantNames } from '../names';
import { useReportScope } from '../../../shared/report-list/report-scope';
import { useReportList, type SearchField } from '../../../shared/report-list/use-report-list';
import { DateCell, TextCell } from '../../../shared/report-list/cells';
import { ExportButton } from './export-button';
import { ReportListView } from '../../../shared/report-list/report-list-view';

const SEARCH: readonly SearchField[] = [{ value: 'email', label: 'Email', field: 'details.email' }];

function Subscribers({ level }: { level: 'tenant' | 'event' }) {
  const scope = useReportScope();
  const { eventId = '' } = useParams();
  const names = useTenantNames(scope.tenantId);
  const event = useEventName(scope.tenantId, level === 'event' ? eventId : '');
  // spec §9: subscriber timestamps are milliseconds; the date range filters on them.
  const list = useReportList({ searchFields: SEARCH, dateField: 'details.timestamp' });
  const t = scope.tenantId;
  const ok = !!t && (level === 'tenant' || !!eventId);

  const columns: Column<TReportSubscriber>[] = [
    { key: 'date', header: 'Subscription Date', render: (r) => <DateCell value={r.details.timestamp} /> },
    { key: 'email', header: 'Subscription Email', render: (r) => <TextCell>{r.details.email}</TextCell> },
    // Issue 21: the checkout's two opt-ins, e-mail news and text messages (to the number given).
    { key: 'optInEmail', header: 'Email Updates', render: (r) => <TextCell>{r.details.optInEmail ? 'Yes' : 'No'}</TextCell> },
    { key: 'optInText', header: 'Text Messages', render: (r) => <TextCell>{r.details.optInText && r.details.phone ? formatPhone(r.details.phone) : 'No'}</TextCell> },
  ];
  if (level === 'tenant') columns.push({ key: 'event', header: 'Event Name', render: (r) => <TextCell>{r.details.eventName}</TextCell> });

  return (
    <>
      <PageHeader
        title={level === 'tenant' ? `Subscribers: ${names.name}` : `Subscribers: ${event.name}`}
        description="People who asked for news when they bought their tickets."
        breadcrumbs={
          level === 'tenant'
            ? [{ label: 'Sales', to: scope.base }, { label: 'Subscribers' }]
            : [{ label: 'Sales', to: scope.base }, { label: 'Events', to: `${scope.base}/events` }, { label: event.name || 'Event', to: scope.event(eventId) }, { label: 'Subscribers' }]
        }
        actions={
          <ExportButton
            kind="subscribers"
            path={!ok ? null : level === 'tenant' ? REPORT_PATHS.tenantSubscribersDownload(t) : REPORT_PATHS.eventSubscribersDownload(t, eventId)}
            missing={t ? M.noEventId : M.noEventSelected}
            statusPath={(id) => (level === 'tenant' ? REPORT_PATHS.tenantExport(t, id) : REPORT_PATHS.eventExport(t, eventId, id))}
            filters={list.filters}
          />
        }
      />
      <ReportListView
        label="Subscribers"
        path={!ok ? null : level === 'tenant' ? REPORT_PATHS.tenantSubscribers(t) : REPORT_PATHS.eventSubscribers(t, eventId)}
        list={list}
        columns={columns}
        searchFields={SEARCH}
        minWidth={720}
        emptyTitle="No subscribers yet"
        emptyDescription="Buyers who opt in to e-mail news or text messages at checkout appear here."
      />
    </>
  );
}

export const TenantSubscribersPage = () => <Subscribers level="tenant" />;
export const EventSubscribersPage = () => <Subscribers level="event" />;
