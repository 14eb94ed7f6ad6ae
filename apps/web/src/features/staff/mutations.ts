import type { EventRole, TenantRole } from '@marquee/core';
import { useMutation } from '@tanstack/react-query';
import { useTenantId } from '../events/tenant';
import { staffApi } from './api';

export function useInviteTenantStaff() {
  const tenantId = useTenantId();
  return useMutation({ mutationFn: (body: { email: string; roles: TenantRole[] }) => staffApi.inviteTenantStaff(tenantId, body) });
}

export function useInviteEventStaff(eventId: string) {
  const tenantId = useTenantId();
  return useMutation({ mutationFn: (body: { email: string; roles: EventRole[] }) => staffApi.inviteEventStaff(tenantId, eventId, body) });
}
