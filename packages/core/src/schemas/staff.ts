import { z } from 'zod';
import { M } from '../messages.js';
import { TENANT_ROLES } from '../roles.js';
import { zListResponse } from './list.js';

// A tenant's staff: the people with tenant-wide roles, and those invited to them who have not
// joined yet (docs/decisions.md, "Tenant staff"). Event-only staff belong to their event.

/**
 * `status`: ACTIVE for a member (their account's status), PENDING for someone invited who has not
 * joined yet while the invite is live, EXPIRED once it has lapsed. Shown as on the Platform Users
 * page: Pending Verification, Active.
 */
export const ZStaffMember = z.object({
  /** A member's user id; for someone only invited, the id of their newest open invite. */
  id: z.string(),
  details: z.object({
    email: z.string(),
    /** Empty while an invitee has not signed up. */
    firstName: z.string(),
    lastName: z.string(),
    roles: z.array(z.string()),
    status: z.string(),
  }),
});
export type TStaffMember = z.infer<typeof ZStaffMember>;

export const ZStaffList = zListResponse(ZStaffMember);
export type TStaffList = z.infer<typeof ZStaffList>;

export const ZStaffParams = z.object({ tenantId: z.string(), staffId: z.uuid() });

/** Change a staff member's tenant roles (at least one). */
export const ZUpdateStaffRequest = z.object({
  details: z.object({
    roles: z.array(z.enum(TENANT_ROLES, { error: M.invalidValue })).min(1, M.rolesRequired),
  }),
});
export type TUpdateStaffRequest = z.input<typeof ZUpdateStaffRequest>;
