import { useQuery } from '@tanstack/react-query';
import { dashboardKey } from '../../shared/query-keys';
import { dashboardApi } from './api';

export { dashboardKey };

export const usePlatformDashboard = () => useQuery({ queryKey: dashboardKey, queryFn: ({ signal }) => dashboardApi.get(signal), staleTime: 60_000 });

export const useNewActiveTenants = () =>
  useQuery({ queryKey: [...dashboardKey, 'new-active-tenants'], queryFn: ({ signal }) => dashboardApi.newActiveTenants(signal), staleTime: 60_000 });
