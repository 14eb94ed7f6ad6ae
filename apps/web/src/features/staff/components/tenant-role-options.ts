import type { TenantRole } from '@marquee/core';
import type { RoleOption } from './invite-staff-form';

// What each tenant role may do, as the server grants it (docs/decisions.md, "Tenant roles").
export const TENANT_ROLE_OPTIONS: RoleOption<TenantRole>[] = [
  { value: 'tenant_admin', description: 'Everything in this console: events, staff, fees, payouts and reports.' },
  { value: 'tenant_staff', description: 'Sees every event and its reports and handles orders; cannot change events or invite.' },
  { value: 'tenant_box_office', description: 'Sells tickets at the box office for every event, and nothing else.' },
];
