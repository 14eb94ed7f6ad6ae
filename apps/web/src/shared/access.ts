import { BOX_OFFICE, hasAnyRole, passesEventAccess, PLATFORM_READ, PLATFORM_WRITE, type TMembership } from '@marquee/core';
import { platformRolesOf, useSession } from '../ui/session';

// The server's platform access sets (packages/core roles.ts, used by its route guards): the server
// decides, the console only hides what would be refused.
export function usePlatformAccess() {
  const { memberships } = useSession();
  const roles = platformRolesOf(memberships);
  return {
    roles,
    /** Create, edit and delete anything in the platform console. */
    canWrite: hasAnyRole(roles, PLATFORM_WRITE),
    /** Read users, policies, fees and payment settings (everyone but the reports-only role). */
    canReadConfig: hasAnyRole(roles, PLATFORM_READ),
    /** Grant or remove super_user, and send platform invites (which grant it). */
    isSuperUser: roles.includes('super_user'),
  };
}

/**
 * Whether the person has a tenant-wide role here (admin or staff), not only roles on some events
 * (or the box office: issue 23, it sees the box office and nothing else).
 */
export const isTenantWideMember = (memberships: TMembership[], tenantId: string | undefined) =>
  !!tenantId && memberships.some((m) => m.tenantId === tenantId && m.kind === 'tenant' && (m.roles.includes('tenant_admin') || m.roles.includes('tenant_staff')));

/** Whether the person may sell at this event's box office (core BOX_OFFICE, as the server's guard decides it). */
export function canSellAtBoxOffice(memberships: TMembership[], tenantId: string | undefined, eventId: string): boolean {
  return !!tenantId && passesEventAccess(memberships, BOX_OFFICE, tenantId, eventId);
}

/** Whether the person's only work on this event is the box office: their events list opens it straight away. */
export function isBoxOfficeOnly(memberships: TMembership[], tenantId: string | undefined, eventId: string): boolean {
  if (!tenantId || isTenantWideMember(memberships, tenantId)) return false;
  const roles = memberships.filter((m) => m.tenantId === tenantId && (m.kind === 'tenant' || (m.kind === 'event' && m.eventId === eventId))).flatMap((m) => m.roles);
  return (roles.includes('event_box_office') || roles.includes('tenant_box_office')) && !roles.includes('event_manager') && !roles.includes('event_checkin');
}

export const isTenantAdmin = (memberships: TMembership[], tenantId: string | undefined) =>
  !!tenantId && memberships.some((m) => m.tenantId === tenantId && m.kind === 'tenant' && m.roles.includes('tenant_admin'));

/**
 * What the signed-in person may do with this tenant's events, as the server's guard decides it
 * (modules/events/access.ts): tenant admins everything; event managers edit their own event, its
 * ticket types, discount codes and staff; tenant staff and check-in staff only read.
 */
export function useEventAccess(tenantId: string | undefined, eventId?: string) {
  const { memberships } = useSession();
  const isAdmin = isTenantAdmin(memberships, tenantId);
  const managesEvent =
    !!tenantId && !!eventId && memberships.some((m) => m.tenantId === tenantId && m.kind === 'event' && m.eventId === eventId && m.roles.includes('event_manager'));
  return {
    /** Create, cancel and delete events. */
    canManageEvents: isAdmin,
    /** Edit this event and what hangs off it. */
    canEditEvent: isAdmin || managesEvent,
  };
}

/** Whether the signed-in person administers this tenant (tenant console). */
export function useIsTenantAdmin(tenantId: string | undefined) {
  return isTenantAdmin(useSession().memberships, tenantId);
}

/**
 * Whether the person's only work on this event is the door (event_checkin, no tenant-wide role and
 * not its manager): their events list opens the check-in page straight away.
 */
export function isCheckinOnly(memberships: TMembership[], tenantId: string | undefined, eventId: string): boolean {
  if (!tenantId || isTenantWideMember(memberships, tenantId)) return false;
  const roles = memberships.filter((m) => m.tenantId === tenantId && m.kind === 'event' && m.eventId === eventId).flatMap((m) => m.roles);
  return roles.includes('event_checkin') && !roles.includes('event_manager');
}
