import type { EventRole, TenantRole } from '@marquee/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTenantId } from '../../shared/tenant';
import { isApiError } from '../../ui/api-client';
import { sessionQueryKey, useSession } from '../../ui/session';
import { staffApi } from './api';
import { staffKeys } from './queries';

/** Refreshes the staff list, and the session when the change was one's own (it may take this console away). */
function useRefresh() {
  const client = useQueryClient();
  const tenantId = useTenantId();
  const { user } = useSession();
  return async (staffId?: string) => {
    await client.invalidateQueries({ queryKey: staffKeys.all(tenantId) });
    if (staffId && staffId === user?.id) await client.invalidateQueries({ queryKey: sessionQueryKey });
  };
}

export function useInviteTenantStaff() {
  const tenantId = useTenantId();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { email: string; roles: TenantRole[] }) => staffApi.inviteTenantStaff(tenantId, body),
    onSuccess: () => refresh(),
  });
}

export function useUpdateStaffRoles() {
  const tenantId = useTenantId();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ staffId, roles }: { staffId: string; roles: TenantRole[] }) => staffApi.updateRoles(tenantId, staffId, roles),
    onSuccess: (_data, { staffId }) => refresh(staffId),
  });
}

export function useRemoveStaff() {
  const tenantId = useTenantId();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (staffId: string) => staffApi.remove(tenantId, staffId),
    onSuccess: (_data, staffId) => refresh(staffId),
  });
}

export function useInviteEventStaff(eventId: string) {
  const tenantId = useTenantId();
  const refresh = useRefresh();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; roles: EventRole[] }) => staffApi.inviteEventStaff(tenantId, eventId, body),
    onSuccess: () => refresh(),
    // Cancelled meanwhile (in another tab, by another admin): the page reloads the event and turns read-only.
    onError: (e) => {
      if (isApiError(e) && e.domainCode === 'EVENT_CANCELLED') void client.invalidateQueries({ queryKey: ['events', tenantId, 'one', eventId] });
    },
  });
}
