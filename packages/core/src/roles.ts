// spec: accounts-admin-fees §6
export const PLATFORM_ROLES = ['super_user', 'platform_manager', 'platform_report', 'platform_user'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

// Tenant-side role names are not in the spec (§6 "not shown"); see docs/decisions.md.
export const TENANT_ROLES = ['tenant_admin', 'tenant_staff'] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];

export const EVENT_ROLES = ['event_manager', 'event_checkin'] as const;
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

export const PLATFORM_GROUP_ID = 'platform';
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
};

export const USER_STATUS = ['PENDING', 'ACTIVE', 'DISABLED'] as const;
export type UserStatus = (typeof USER_STATUS)[number];

/** spec: accounts-admin-fees §4 Platform user status */
export function userStatusLabel(status: string): string {
  if (status === 'PENDING') return 'Pending Verification';
  if (status === 'ACTIVE') return 'Active';
  return '-';
}
