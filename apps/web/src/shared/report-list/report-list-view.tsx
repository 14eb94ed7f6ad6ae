import type { ReactNode } from 'react';
import { EmptyState } from '../../ui/empty-state';
import { fromListQuery, PagedTable, type Column } from '../../ui/paged-table';
import { useReportList as useReportListQuery } from './queries';
import type { ReportListState, SearchField } from './use-report-list';
import { ReportFilters } from './report-filters';

export type ReportListViewProps<T extends { id: string }> = {
  label: string;
  path: string | null;
  list: ReportListState;
  columns: Column<T>[];
  searchFields: readonly SearchField[];
  withDateRange?: boolean;
  dateLabel?: string;
  withUsedFilter?: boolean;
  emptyTitle: string;
  emptyDescription?: ReactNode;
  onRowClick?: (row: T) => void;
  minWidth?: number;
};

/** A report list: its filters (spec §5), the table with cursor paging, page sizes 10/25/100 and empty and loading states. */
export function ReportListView<T extends { id: string }>({
  label,
  path,
  list,
  columns,
  searchFields,
  withDateRange = true,
  dateLabel,
  withUsedFilter,
  emptyTitle,
  emptyDescription,
  onRowClick,
  minWidth = 900,
}: ReportListViewProps<T>) {
  const query = useReportListQuery<T>(path, list.query);
  const filtered = list.filters.length > 0;
  return (
    <>
      <ReportFilters list={list} searchFields={searchFields} withDateRange={withDateRange} dateLabel={dateLabel} withUsedFilter={withUsedFilter} />
      <PagedTable
        aria-label={label}
        columns={columns}
        {...fromListQuery(query)}
        rowKey={(r) => r.id}
        pager={list.pager}
        onRowClick={onRowClick}
        minWidth={minWidth}
        empty={
          <EmptyState
            bare
            title={filtered ? 'Nothing matches these filters' : emptyTitle}
            description={filtered ? 'Try another search or date range.' : emptyDescription}
          />
        }
      />
    </>
  );
}
