import { PLATFORM_ANY } from '@marquee/core';
import type { Access } from '../../platform/auth/context.js';

// Who reads which reports (docs/decisions.md "Who reads the reports"): the tenant's admins and staff
// read all of their tenant's, an event manager only their own event's (event routes only, the guard
// matching :eventId), check-in staff none, and every platform role every tenant's.

export const TENANT_REPORTS: Access = { kind: 'tenant', roles: ['tenant_admin', 'tenant_staff'], platformRoles: PLATFORM_ANY };
export const EVENT_REPORTS: Access = { ...TENANT_REPORTS, eventRoles: ['event_manager'] };
export const PLATFORM_REPORTS: Access = { kind: 'platform', roles: PLATFORM_ANY };
