import type { PlatformRole } from '@marquee/core';
import { useSession } from '../../ui/session';

// Mirrors the server's platform access sets (modules/tenants/access.ts); the server decides, the
// console only hides what would be refused.
const WRITERS: readonly PlatformRole[] = ['super_user', 'platform_manager'];
const CONFIG_READERS: readonly PlatformRole[] = ['super_user', 'platform_manager', 'platform_user'];

export function usePlatformAccess() {
  const { memberships } = useSession();
  const roles = memberships.filter((m) => m.kind === 'platform').flatMap((m) => m.roles) as PlatformRole[];
  return {
    roles,
    /** Create, edit and delete anything in the platform console. */
    canWrite: roles.some((r) => WRITERS.includes(r)),
    /** Read users, policies, fees and payment settings (everyone but the reports-only role). */
    canReadConfig: roles.some((r) => CONFIG_READERS.includes(r)),
  };
}

/** Whether the signed-in person administers this tenant (tenant console). */
export function useIsTenantAdmin(tenantId: string | undefined) {
  const { memberships } = useSession();
  return !!tenantId && memberships.some((m) => m.tenantId === tenantId && m.kind === 'tenant' && m.roles.includes('tenant_admin'));
}
