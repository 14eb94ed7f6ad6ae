import type { ListResponse } from '@marquee/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../ui/api-client';

// Every report query sits under ['reports'] (these lists, and the reports feature's dashboards and
// charts): an order action (void, refund) or a payout transfer invalidates them all.
export const reportsKey = ['reports'] as const;

export type ReportListQuery = { cursor?: string; limit: number; filters?: string[]; sort?: string };

/** One page of a report list (spec: reports-payouts-checkout §3 lists: {result, count, cursor}); null path: not yet known. */
export function useReportList<T>(path: string | null, q: ReportListQuery) {
  return useQuery({
    queryKey: [...reportsKey, 'list', path, q],
    queryFn: ({ signal }) => api.get<ListResponse<T>>(path!, { ...q }, signal),
    enabled: !!path,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
