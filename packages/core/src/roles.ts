// spec: accounts-admin-fees §6
export const PLATFORM_ROLES = ['super_user', 'platform_manager', 'platform_report', 'platform_user'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

// Tenant-side role names are not in the spec (§6 "not shown"); see docs/decisions.md.
export const TENANT_ROLES = ['tenant_admin', 'tenant_staff', 'tenant_box_office'] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];

export const EVENT_ROLES = ['event_manager', 'event_checkin', 'event_box_office'] as const;
export type EventRole = (typeof EVENT_ROLES)[number];

export const APP_TYPES = ['PLATFORM', 'TENANT', 'ATTENDEE'] as const;
export type AppType = (typeof APP_TYPES)[number];

/**
 * Who may use what in the platform console (docs/decisions.md, "Platform roles in practice"). The
 * server's route guards and the console's navigation both read these, so they cannot drift apart.
 */
/** Every platform role: dashboard, tenant list and detail, reports. */
export const PLATFORM_ANY: readonly PlatformRole[] = PLATFORM_ROLES;
/** Read the console's configuration (users, policies, fees, templates, charities, payment settings). */
export const PLATFORM_READ: readonly PlatformRole[] = ['super_user', 'platform_manager', 'platform_user'];
/** Change anything in the console. */
export const PLATFORM_WRITE: readonly PlatformRole[] = ['super_user', 'platform_manager'];
/** The outbox holds sign-in codes: super users only. */
export const PLATFORM_OUTBOX: readonly PlatformRole[] = ['super_user'];

/** Whether someone holding `roles` passes a guard that allows `allowed`. */
export const hasAnyRole = (roles: readonly string[], allowed: readonly string[]) => roles.some((r) => allowed.includes(r));

/**
 * Who passes a tenant guard on an event's resource: members holding one of the tenant-wide
 * `roles`, staff of that event holding one of `eventRoles`, platform operators holding one of
 * `platformRoles`. The server's route guard and the console's tabs read the same set.
 */
export type EventAccessRoles = { roles: readonly TenantRole[]; eventRoles: readonly EventRole[]; platformRoles: readonly PlatformRole[] };

/** Messages to an event's attendees (issue 15): the history. Check-in staff only scan, so neither this nor sending. */
export const ATTENDEE_MESSAGES_READ: EventAccessRoles = { roles: ['tenant_admin', 'tenant_staff'], eventRoles: ['event_manager'], platformRoles: PLATFORM_ANY };
/** Compose and send them: the same, with platform write roles only. */
/**
 * The box office (issue 23): sell at the door for one event. Tenant admins, and whoever holds the
 * box office role tenant-wide or for that event; nobody else (tenant staff and check-in staff only
 * read and scan). The server's guard and the console's navigation read the same set.
 */
export const BOX_OFFICE: EventAccessRoles = { roles: ['tenant_admin', 'tenant_box_office'], eventRoles: ['event_box_office'], platformRoles: [] };
/** Comps from the console as a guest list (issue 23): the event's organisers, not the door. */
export const GUEST_LIST: EventAccessRoles = { roles: ['tenant_admin'], eventRoles: ['event_manager'], platformRoles: [] };
export const ATTENDEE_MESSAGES_SEND: EventAccessRoles = { roles: ['tenant_admin', 'tenant_staff'], eventRoles: ['event_manager'], platformRoles: PLATFORM_WRITE };

type MembershipLike = { kind: string; tenantId: string | null; eventId: string | null; roles: readonly string[] };

/** Whether someone with these memberships passes `allowed` on the tenant's event, as the server's guard decides it. */
export function passesEventAccess(memberships: readonly MembershipLike[], allowed: EventAccessRoles, tenantId: string, eventId: string): boolean {
  return memberships.some((m) => {
    if (m.kind === 'platform') return hasAnyRole(m.roles, allowed.platformRoles);
    if (m.tenantId !== tenantId) return false;
    if (m.kind === 'tenant') return hasAnyRole(m.roles, allowed.roles);
    return m.kind === 'event' && m.eventId === eventId && hasAnyRole(m.roles, allowed.eventRoles);
  });
}

export const PLATFORM_GROUP_ID = 'platform';

/**
 * The name the first platform admin is seeded with (apps/server seed.ts): a label for menus, not a
 * person's name, so greetings do not use it ("Welcome back, Platform." read oddly: issue 21.19).
 */
export const SEED_ADMIN_NAME = { firstName: 'Platform', lastName: 'Admin' } as const;

/** The first name to greet someone by, or null when there is none (or only the seed's label). */
export function greetingName(user: { firstName: string; lastName: string } | null | undefined): string | null {
  const first = user?.firstName.trim() ?? '';
  if (!first) return null;
  if (first === SEED_ADMIN_NAME.firstName && user!.lastName.trim() === SEED_ADMIN_NAME.lastName) return null;
  return first;
}
export const PLATFORM_ADMIN_LABEL = 'Platform Admin';

export const ROLE_LABELS: Record<PlatformRole | TenantRole | EventRole, string> = {
  super_user: 'Super User',
  platform_manager: 'Platform Manager',
  platform_report: 'Platform Reports',
  platform_user: 'Platform User',
  tenant_admin: 'Tenant Admin',
  tenant_staff: 'Tenant Staff',
  event_manager: 'Event Manager',
  event_checkin: 'Event Check-in',
  tenant_box_office: 'Box Office',
  event_box_office: 'Box Office',
};

export const USER_STATUS = ['PENDING', 'ACTIVE', 'DISABLED'] as const;
export type UserStatus = (typeof USER_STATUS)[number];

/** spec: accounts-admin-fees §4 Platform user status */
export function userStatusLabel(status: string): string {
  if (status === 'PENDING') return 'Pending Verification';
  if (status === 'ACTIVE') return 'Active';
  return '-';
}
