import type { Access } from '../../platform/auth/context.js';

// Who may do what in the tenant console's events (docs/decisions.md, tenant roles): organisers and
// platform managers everywhere, tenant staff and platform reporting read-only, event staff only
// on their own event (the guard matches :eventId).

/** The tenant's event list and creating events. */
export const EVENTS_READ: Access = {
  kind: 'tenant',
  roles: ['tenant_admin', 'tenant_staff'],
  platformRoles: ['super_user', 'platform_manager', 'platform_report'],
};
export const EVENTS_WRITE: Access = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: ['super_user', 'platform_manager'] };

/** The event list: event staff see it too, with only their events in it (service.listEvents). */
export const EVENT_LIST_READ: Access = { ...EVENTS_READ, anyEventRoles: ['event_manager', 'event_checkin'] };

/** One event and what hangs off it (ticket types, discount codes). */
export const EVENT_READ: Access = { ...EVENTS_READ, eventRoles: ['event_manager', 'event_checkin'] };
export const EVENT_WRITE: Access = { ...EVENTS_WRITE, eventRoles: ['event_manager'] };
