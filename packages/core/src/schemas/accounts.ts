import { z } from 'zod';
import { M } from '../messages.js';
import { APP_TYPES, EVENT_ROLES, PLATFORM_ROLES, TENANT_ROLES } from '../roles.js';
import { zEmail, zOptionalPhone } from './common.js';

// spec: accounts-admin-fees §5 Sign-up / Change password
export const PASSWORD_MIN = 8;
const hasAllClasses = (v: string) => /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v) && /[^A-Za-z0-9]/.test(v);

export const zNewPassword = (requiredMessage: string = M.passwordRequired) =>
  z
    .string({ error: requiredMessage })
    .min(1, requiredMessage)
    .min(PASSWORD_MIN, M.passwordMin)
    .max(256, M.passwordMax)
    .refine(hasAllClasses, M.passwordComplexity);

const alphaName = (required: string, alpha: string) =>
  z.string({ error: required }).trim().min(1, required).max(80, M.nameMax).regex(/^[A-Za-z ]+$/, alpha);

// spec: accounts §5 Profile: "a strict name pattern" (letters, with single inner spaces, hyphens or apostrophes)
export const NAME_RE = /^[A-Za-z]+(?:[ '-][A-Za-z]+)*$/;
const strictName = (required: string) =>
  z.string({ error: required }).trim().min(1, required).max(80, M.nameMax).regex(NAME_RE, M.invalidFormat);

export const ZRegisterRequest = z
  .object({
    username: zEmail(M.validEmail, M.validEmail),
    password: zNewPassword(),
    password2: z.string({ error: M.confirmPasswordEnter }).min(1, M.confirmPasswordEnter),
    firstName: alphaName(M.firstNameRequired, M.firstNameAlpha),
    lastName: alphaName(M.lastNameRequired, M.lastNameAlpha),
    contactNumber: zOptionalPhone(M.invalidNumber),
    state: z.string().trim().max(60).regex(/^[A-Za-z ]*$/, M.stateAlpha).optional(),
    zip: z.string().trim().regex(/^\d{0,5}$/, M.invalidNumber).optional(),
    appType: z.enum(APP_TYPES).default('ATTENDEE'),
    groupId: z.string().max(100).optional(),
    inviteCode: z.string().max(200).optional(),
    eventId: z.string().max(100).optional(),
  })
  .refine((v) => v.password === v.password2, { message: M.passwordsMustMatch, path: ['password2'] });
export type TRegisterRequest = z.input<typeof ZRegisterRequest>;

export const ZVerifyRequest = z.object({
  username: zEmail(),
  code: z.string().trim().min(1, M.invalidCode).max(20, M.invalidCode),
});
export type TVerifyRequest = z.input<typeof ZVerifyRequest>;

export const ZLoginRequest = z.object({
  username: zEmail(),
  password: z.string({ error: M.passwordRequired }).min(1, M.passwordRequired).max(256, M.signInFailed),
});
export type TLoginRequest = z.input<typeof ZLoginRequest>;

export const ZForgotPasswordRequest = z.object({ username: zEmail() });

/** The mailed link that lifts a lock on wrong codes, confirmed on its page (issue 21, GET changes nothing). */
export const ZUnlockRequest = z.object({ username: zEmail(), token: z.string().min(1, M.unlockLinkInvalid).max(100, M.unlockLinkInvalid) });
export type TUnlockRequest = z.infer<typeof ZUnlockRequest>;

export const ZResetPasswordRequest = z
  .object({
    username: zEmail(),
    code: z.string().trim().min(1, M.invalidCode).max(20, M.invalidCode),
    password: zNewPassword(M.newPasswordRequired),
    password2: z.string({ error: M.confirmPasswordRequired }).min(1, M.confirmPasswordRequired),
  })
  .refine((v) => v.password === v.password2, { message: M.newPasswordMismatch, path: ['password2'] });
export type TResetPasswordRequest = z.input<typeof ZResetPasswordRequest>;

export const ZChangePasswordRequest = z.object({
  username: z.string().optional(),
  oldPassword: z.string({ error: M.currentPasswordRequired }).min(1, M.currentPasswordRequired).max(256),
  password: zNewPassword(M.newPasswordRequired),
});
export type TChangePasswordRequest = z.input<typeof ZChangePasswordRequest>;

/** The form adds the confirm field; the wire call is ZChangePasswordRequest. */
export const ZChangePasswordForm = z
  .object({
    oldPassword: z.string().min(1, M.currentPasswordRequired),
    password: zNewPassword(M.newPasswordRequired),
    confirmPassword: z.string().min(1, M.confirmPasswordRequired),
  })
  .refine((v) => v.password === v.confirmPassword, { message: M.newPasswordMismatch, path: ['confirmPassword'] });

// spec: accounts §5 Profile. birthDate between 100 years ago and yesterday.
export function birthDateBounds(today = new Date()): { min: string; max: string } {
  const y = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 1));
  const m = new Date(Date.UTC(today.getUTCFullYear() - 100, today.getUTCMonth(), today.getUTCDate()));
  return { min: m.toISOString().slice(0, 10), max: y.toISOString().slice(0, 10) };
}

export const ZProfileUpdate = z
  .object({
    firstName: strictName(M.firstNameRequired),
    lastName: strictName(M.lastNameRequired),
    contactNumber: zOptionalPhone(M.phoneIncomplete),
    birthDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, M.birthDateRange)
      .refine((v) => {
        const { min, max } = birthDateBounds();
        // A calendar date (no 1990-13-45) inside the range; strings compare as dates in this form.
        const real = new Date(`${v}T00:00:00Z`);
        return !Number.isNaN(real.getTime()) && real.toISOString().slice(0, 10) === v && v >= min && v <= max;
      }, M.birthDateRange)
      .nullable(),
    address1: z.string().trim().max(200).nullable(),
    address2: z.string().trim().max(200).nullable(),
    city: z.string().trim().max(100).nullable(),
    state: z.string().trim().max(100).nullable(),
    zip: z.string().trim().max(5, M.zipMax).nullable(),
    country: z.string().trim().max(100).nullable(),
  })
  .partial()
  .strict();
export type TProfileUpdate = z.input<typeof ZProfileUpdate>;

export const ZProfile = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  contactNumber: z.string().nullable(),
  birthDate: z.string().nullable(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  country: z.string().nullable(),
  profile: z.string().nullable(),
});
export type TProfile = z.infer<typeof ZProfile>;

export const ZLinkAccountRequest = z.object({
  username: zEmail(),
  targetGroupId: z.string().min(1).max(100),
  inviteCode: z.string().min(1).max(200),
  password: z.string().min(1, M.passwordRequired).max(256),
  eventId: z.string().max(100).optional(),
  roles: z.string().max(200).optional(),
});
export type TLinkAccountRequest = z.input<typeof ZLinkAccountRequest>;

export const ALL_ROLES = [...PLATFORM_ROLES, ...TENANT_ROLES, ...EVENT_ROLES] as const;

export const ZMembership = z.object({
  groupId: z.string(),
  kind: z.enum(['platform', 'tenant', 'event']),
  tenantId: z.string().nullable(),
  tenantName: z.string().nullable(),
  tenantUrl: z.string().nullable(),
  eventId: z.string().nullable(),
  roles: z.array(z.string()),
});

export const ZSession = z.object({
  user: ZProfile,
  memberships: z.array(ZMembership),
  csrfToken: z.string(),
});
export type TSession = z.infer<typeof ZSession>;
/** Who is signed in on this host, or null: the attendee site's question, answered 200 either way (no 401 in a buyer's console). */
export const ZCurrentSession = z.object({ session: ZSession.nullable() });
export type TCurrentSession = z.infer<typeof ZCurrentSession>;
export type TMembership = z.infer<typeof ZMembership>;

export const ZInviteInfo = z.object({
  email: z.string(),
  groupId: z.string(),
  groupName: z.string(),
  appType: z.enum(APP_TYPES),
  eventId: z.string().nullable(),
  roles: z.array(z.string()),
  userExists: z.boolean(),
  targetUrl: z.string(),
});
export type TInviteInfo = z.infer<typeof ZInviteInfo>;
