import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { reportsApi, type ReportListQuery } from './api';

// Every report query sits under ['reports']: an order action (void, refund) invalidates them all.
export const reportsKey = ['reports'] as const;

export function useReportList<T>(path: string | null, q: ReportListQuery) {
  return useQuery({
    queryKey: [...reportsKey, 'list', path, q],
    queryFn: ({ signal }) => reportsApi.list<T>(path!, q, signal),
    enabled: !!path,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export function useDashboard(path: string | null) {
  return useQuery({ queryKey: [...reportsKey, 'dashboard', path], queryFn: ({ signal }) => reportsApi.dashboard(path!, signal), enabled: !!path, staleTime: 30_000 });
}

export function useSalesOverTime(path: string | null) {
  return useQuery({ queryKey: [...reportsKey, 'sales-over-time', path], queryFn: ({ signal }) => reportsApi.salesOverTime(path!, signal), enabled: !!path, staleTime: 60_000 });
}

export function useTicketTypeSales(path: string | null) {
  return useQuery({ queryKey: [...reportsKey, 'ticket-types', path], queryFn: ({ signal }) => reportsApi.ticketTypes(path!, signal), enabled: !!path, staleTime: 60_000 });
}
