import { useQuery } from '@tanstack/react-query';
import { reportsKey } from '../../shared/report-list/queries';
import { reportsApi } from './api';

// The report lists' query (and the key every report query sits under) is shared/report-list's.

export function useDashboard(path: string | null) {
  return useQuery({ queryKey: [...reportsKey, 'dashboard', path], queryFn: ({ signal }) => reportsApi.dashboard(path!, signal), enabled: !!path, staleTime: 30_000 });
}

export function useSalesOverTime(path: string | null) {
  return useQuery({ queryKey: [...reportsKey, 'sales-over-time', path], queryFn: ({ signal }) => reportsApi.salesOverTime(path!, signal), enabled: !!path, staleTime: 60_000 });
}

export function useTicketTypeSales(path: string | null) {
  return useQuery({ queryKey: [...reportsKey, 'ticket-types', path], queryFn: ({ signal }) => reportsApi.ticketTypes(path!, signal), enabled: !!path, staleTime: 60_000 });
}
