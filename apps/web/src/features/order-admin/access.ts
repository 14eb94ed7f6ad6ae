import { useSiteContext } from '../../shared/site-context';
import { useSession } from '../../ui/session';
import { usePlatformAccess } from '../../shared/access';

/**
 * What the signed-in person may do on an order, as the server's guard decides it
 * (apps/server/src/modules/order-admin/access.ts): tenant admins and staff and the event's manager
 * void, unvoid, resend and download; only tenant admins refund; platform operators act with write
 * roles only. The page hides what would be refused.
 */
export function useOrderPermissions(tenantId: string, eventId: string) {
  const context = useSiteContext();
  const { memberships } = useSession();
  const platform = usePlatformAccess();
  if (context.mode === 'platform') return { canAttend: platform.canWrite, canRefund: platform.canWrite };
  const tenantRoles = memberships.filter((m) => m.tenantId === tenantId && m.kind === 'tenant').flatMap((m) => m.roles as readonly string[]);
  const managesEvent = memberships.some((m) => m.tenantId === tenantId && m.kind === 'event' && m.eventId === eventId && (m.roles as readonly string[]).includes('event_manager'));
  const isAdmin = tenantRoles.includes('tenant_admin');
  return { canAttend: isAdmin || tenantRoles.includes('tenant_staff') || managesEvent, canRefund: isAdmin };
}
