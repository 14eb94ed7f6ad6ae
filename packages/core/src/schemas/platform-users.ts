import { z } from 'zod';
import { M } from '../messages.js';
import { PLATFORM_GROUP_ID, PLATFORM_ROLES } from '../roles.js';
import { zListResponse } from './list.js';

// spec: accounts-admin-fees §3 Platform user, §4 Platform user status, §7 platform users.

/** PENDING (invited, not verified) shows Pending Verification, ACTIVE shows Active, anything else a dash. */
export const ZPlatformUser = z.object({
  /** The e-mail address. */
  id: z.string(),
  group: z.object({
    id: z.literal(PLATFORM_GROUP_ID),
    /** The person's name; empty while they have not signed up. */
    name: z.string(),
    status: z.string(),
    lastLogin: z.string().nullable(),
    roles: z.array(z.string()),
  }),
});
export type TPlatformUser = z.infer<typeof ZPlatformUser>;

export const ZPlatformUserList = zListResponse(ZPlatformUser);
export type TPlatformUserList = z.infer<typeof ZPlatformUserList>;

export const ZPlatformUserParams = z.object({ id: z.string().min(1).max(254) });

/** Edit Platform User: the name and the roles (at least one). */
export const ZUpdatePlatformUserRequest = z.object({
  group: z
    .object({
      name: z.string().trim().min(1, M.fieldRequired).max(160, M.invalidFormat),
      roles: z.array(z.enum(PLATFORM_ROLES, { error: M.invalidValue })).min(1, M.rolesRequired),
    })
    .partial(),
});
export type TUpdatePlatformUserRequest = z.input<typeof ZUpdatePlatformUserRequest>;
