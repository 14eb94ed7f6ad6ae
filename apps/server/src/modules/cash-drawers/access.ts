import { BOX_OFFICE, PLATFORM_ANY } from '@marquee/core';
import type { Access, TenantCtx } from '../../platform/auth/context.js';

// Who may use cash drawers (issue 23 part B, docs/box-office.md "Cash drawers"): a drawer is one
// staff member's, so opening, closing and reading one's own take a tenant role that sells at the
// box office; the tenant's admins (and platform operators, read only) see every drawer.

/** One's own drawer: open, close, the current one. */
export const DRAWER_OWN: Access = { kind: 'tenant', roles: BOX_OFFICE.roles, anyEventRoles: BOX_OFFICE.eventRoles, platformRoles: [] };

/** Every drawer of the tenant: list, CSV (a drawer's detail: its owner too, see canSeeAll). */
export const DRAWER_ALL: Access = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_ANY };

/** A drawer's detail: its owner, or whoever sees every drawer. */
export const DRAWER_DETAIL: Access = { kind: 'tenant', roles: BOX_OFFICE.roles, anyEventRoles: BOX_OFFICE.eventRoles, platformRoles: PLATFORM_ANY };

export function canSeeAll(ctx: TenantCtx): boolean {
  if (DRAWER_ALL.kind !== 'tenant') return false;
  return ctx.tenantRoles.some((r) => DRAWER_ALL.roles.includes(r)) || ctx.platformRoles.some((r) => DRAWER_ALL.platformRoles.includes(r));
}
