import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTenantId } from '../../shared/tenant';
import { staffApi, type StaffListQuery } from './api';

export const staffKeys = {
  all: (tenantId: string) => ['staff', tenantId] as const,
  list: (tenantId: string, q: StaffListQuery) => ['staff', tenantId, 'list', q] as const,
};

export function useStaff(q: StaffListQuery) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: staffKeys.list(tenantId, q),
    queryFn: ({ signal }) => staffApi.list(tenantId, q, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}
