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

/**
 * The event list: event staff see it too, with only their events in it (service.listEvents); the
 * box office (issue 23) too, to pick the event it sells for (a tenant-wide box office sees them all).
 */
export const EVENT_LIST_READ: Access = {
  ...EVENTS_READ,
  roles: [...EVENTS_READ.roles, 'tenant_box_office'],
  anyEventRoles: ['event_manager', 'event_checkin', 'event_box_office'],
};

/** One event and what hangs off it (ticket types, discount codes); the box office reads the event it sells for. */
export const EVENT_READ: Access = { ...EVENTS_READ, roles: [...EVENTS_READ.roles, 'tenant_box_office'], eventRoles: ['event_manager', 'event_checkin', 'event_box_office'] };
export const EVENT_WRITE: Access = { ...EVENTS_WRITE, eventRoles: ['event_manager'] };
