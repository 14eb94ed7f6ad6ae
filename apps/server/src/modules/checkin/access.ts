import type { Access } from '../../platform/auth/context.js';

/**
 * Who works the door (issue 11): the tenant's admins and staff, and the event's own check-in staff and
 * manager (the guard matches :eventId). Nobody else: not platform operators, not another event's staff.
 * The scan's statement carries a copy of the guard's check of this rule (repository.ts doorScanSql).
 */
export const CHECKIN: Access = { kind: 'tenant', roles: ['tenant_admin', 'tenant_staff'], platformRoles: [], eventRoles: ['event_checkin', 'event_manager'] };
