import { encodeFilters, type EventRole, type TenantRole, type TStaffList, type TStaffMember } from '@marquee/core';
import { api } from '../../ui/api-client';

export type InviteResult = { success: true };
export type StaffListQuery = { cursor?: string; limit: number; search?: string };

const tenantBase = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}`;
const staffBase = (tenantId: string) => `${tenantBase(tenantId)}/staff`;
const one = (tenantId: string, staffId: string) => `${staffBase(tenantId)}/${encodeURIComponent(staffId)}`;

const eventStaff = (tenantId: string, eventId: string) => `${tenantBase(tenantId)}/events/${encodeURIComponent(eventId)}/staff`;

export const staffApi = {
  /** The tenant's members and the people invited who have not joined yet; `search` matches name or e-mail. */
  list: (tenantId: string, { cursor, limit, search }: StaffListQuery, signal?: AbortSignal) =>
    api.get<TStaffList>(
      staffBase(tenantId),
      { cursor, limit, filters: search ? encodeFilters([{ field: 'details.search', op: '=', value: search }]) : undefined },
      signal,
    ),
  /** The people who work on one event: its staff and the people invited to it (issue 21.14). */
  listEvent: (tenantId: string, eventId: string, { cursor, limit, search }: StaffListQuery, signal?: AbortSignal) =>
    api.get<TStaffList>(
      eventStaff(tenantId, eventId),
      { cursor, limit, filters: search ? encodeFilters([{ field: 'details.search', op: '=', value: search }]) : undefined },
      signal,
    ),
  updateRoles: (tenantId: string, staffId: string, roles: TenantRole[]) => api.put<TStaffMember>(one(tenantId, staffId), { details: { roles } }),
  remove: (tenantId: string, staffId: string) => api.delete<{ success: true }>(one(tenantId, staffId)),
  inviteTenantStaff: (tenantId: string, body: { email: string; roles: TenantRole[] }) => api.post<InviteResult>(`${staffBase(tenantId)}/invites`, body),
  inviteEventStaff: (tenantId: string, eventId: string, body: { email: string; roles: EventRole[] }) =>
    api.post<InviteResult>(`${eventStaff(tenantId, eventId)}/invites`, body),
};
