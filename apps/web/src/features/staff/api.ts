import type { EventRole, TenantRole } from '@marquee/core';
import { api } from '../../ui/api-client';

export type InviteResult = { success: true; userExists: boolean };

const tenantBase = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}`;

// There is no route that lists a tenant's or an event's staff yet: these screens only invite.
export const staffApi = {
  inviteTenantStaff: (tenantId: string, body: { email: string; roles: TenantRole[] }) => api.post<InviteResult>(`${tenantBase(tenantId)}/staff/invites`, body),
  inviteEventStaff: (tenantId: string, eventId: string, body: { email: string; roles: EventRole[] }) =>
    api.post<InviteResult>(`${tenantBase(tenantId)}/events/${encodeURIComponent(eventId)}/staff/invites`, body),
};
