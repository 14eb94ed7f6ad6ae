import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTenantId } from '../../shared/tenant';
import { staffApi, type StaffListQuery } from './api';

export const staffKeys = {
  all: (tenantId: string) => ['staff', tenantId] as const,
  list: (tenantId: string, q: StaffListQuery) => ['staff', tenantId, 'list', q] as const,
  event: (tenantId: string, eventId: string, q: StaffListQuery) => ['staff', tenantId, 'event', eventId, q] as const,
};

/** The people who work on one event (its Staff tab). */
export function useEventStaff(eventId: string, q: StaffListQuery, enabled = true) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: staffKeys.event(tenantId, eventId, q),
    queryFn: ({ signal }) => staffApi.listEvent(tenantId, eventId, q, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    enabled,
  });
}

export function useStaff(q: StaffListQuery) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: staffKeys.list(tenantId, q),
    queryFn: ({ signal }) => staffApi.list(tenantId, q, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}
