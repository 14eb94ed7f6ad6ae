import { PLATFORM_ANY, PLATFORM_WRITE } from '@marquee/core';
import type { Access, TenantCtx } from '../../platform/auth/context.js';

// Who may see and act on orders (docs/decisions.md "Order management: who may do what"). The
// spec's §6 says only "further role checks: not shown". Organisers everywhere; tenant staff and
// an event's manager look after attendees (view, void, resend, download) but do not move money;
// check-in staff only scan; platform operators view with any role and act only with write roles.

/** The order page and the cancellation progress. */
export const ORDER_VIEW: Access = {
  kind: 'tenant',
  roles: ['tenant_admin', 'tenant_staff'],
  platformRoles: PLATFORM_ANY,
  eventRoles: ['event_manager'],
};

/** Void / unvoid, resend, download. */
export const ORDER_ATTEND: Access = {
  kind: 'tenant',
  roles: ['tenant_admin', 'tenant_staff'],
  platformRoles: PLATFORM_WRITE,
  eventRoles: ['event_manager'],
};

/** Refunds: money leaves the organiser's account. */
export const ORDER_REFUND: Access = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_WRITE };

/**
 * Whether the caller holds a role that can move this tenant's money (ORDER_REFUND): sending an
 * order's tickets to an address that is not the buyer's needs it (docs/decisions.md "Issue 21.3").
 */
export function canMoveMoney(ctx: TenantCtx): boolean {
  if (ORDER_REFUND.kind !== 'tenant') return false;
  return ctx.tenantRoles.some((r) => ORDER_REFUND.roles.includes(r)) || ctx.platformRoles.some((r) => ORDER_REFUND.platformRoles.includes(r));
}
