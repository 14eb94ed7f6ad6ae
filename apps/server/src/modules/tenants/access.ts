import { PLATFORM_ROLES, type PlatformRole } from '@marquee/core';

// Who may do what in the platform console (see docs/decisions.md, "Platform console roles").
/** Every platform role: dashboard, tenant list and detail. */
export const PLATFORM_ANY: readonly PlatformRole[] = PLATFORM_ROLES;
/** Read the console's configuration (users, policies, fees, payment settings): not the reports-only role. */
export const PLATFORM_READ: readonly PlatformRole[] = ['super_user', 'platform_manager', 'platform_user'];
/** Change anything in the console. */
export const PLATFORM_WRITE: readonly PlatformRole[] = ['super_user', 'platform_manager'];

export const isPlatformWriter = (roles: readonly PlatformRole[]) => roles.some((r) => PLATFORM_WRITE.includes(r));
