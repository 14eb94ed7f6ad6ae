import { z } from 'zod';
import { M } from '../messages.js';
import { zEmail, zPhone } from './common.js';
import { zListResponse } from './list.js';
import { zBrandColor } from '../brand.js';

// spec: accounts-admin-fees §3 Tenant, §4 Tenant status, §5 New tenant / Tenant edit, §7 Add tenant.

/** spec: accounts §4: active and pending are editable; any other status is shown disabled. */
export const EDITABLE_TENANT_STATUSES = ['active', 'pending'] as const;
export function isTenantEditable(status: string): boolean {
  return (EDITABLE_TENANT_STATUSES as readonly string[]).includes(status);
}

/**
 * Host labels no tenant may take: they name the platform's own services or are easily confused
 * with them. A tenant's site lives at {url}.{BASE_DOMAIN}.
 */
export const RESERVED_TENANT_URLS = [
  'www', 'api', 'app', 'apps', 'admin', 'administrator', 'platform', 'console', 'dashboard', 'static',
  'assets', 'cdn', 'files', 'uploads', 'media', 'img', 'images', 'mail', 'email', 'smtp', 'imap', 'pop',
  'ftp', 'ns', 'ns1', 'ns2', 'dns', 'status', 'health', 'help', 'support', 'docs', 'blog', 'billing',
  'payments', 'pay', 'checkout', 'login', 'signup', 'auth', 'sso', 'account', 'accounts', 'secure', 'test',
  'dev', 'staging', 'demo-platform', 'localhost', 'marquee', 'outbox', 'webhooks', 'root', 'system',
] as const;

const reservedUrls = new Set<string>(RESERVED_TENANT_URLS);
export const isReservedTenantUrl = (url: string) => reservedUrls.has(url.toLowerCase());

/** A DNS label: 1-63 of a-z, 0-9 and '-', not starting or ending with '-'. */
export const TENANT_URL_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * spec: accounts §5: the URL is derived from the name: lower-case, special characters removed,
 * spaces become hyphens ('Acme Events!' -> 'acme-events'). Runs of spaces or hyphens collapse.
 */
export function tenantUrlFromName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/g, '');
}

const noSurroundingSpaces = (v: string) => v === v.trim();

/** A DNS label is at most 63 characters (RFC 1035 §2.3.4): the tenant's host is {url}.{BASE_DOMAIN}. */
export const TENANT_URL_MAX = 63;
/** The characters of a DNS label, at any length: a-z, 0-9 and '-', not starting or ending with '-'. */
const TENANT_URL_CHARS_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

// Each problem gets its own message, in this order: spaces, length, characters, reserved.
export const zTenantUrl = z
  .string({ error: M.urlRequired })
  .min(1, M.urlRequired)
  .refine((v) => !/\s/.test(v), M.urlNoSpaces)
  .refine((v) => v.length <= TENANT_URL_MAX, M.tenantUrlLength)
  .refine((v) => /\s/.test(v) || TENANT_URL_CHARS_RE.test(v), M.tenantUrlFormat)
  .refine((v) => !isReservedTenantUrl(v), M.tenantUrlReserved);

/** spec: accounts §5: no trailing spaces and no special characters except hyphens (spaces allowed inside). */
export const TENANT_NAME_RE = /^[A-Za-z0-9 -]+$/;
const zTenantName = z
  .string({ error: M.tenantNameRequired })
  .min(1, M.tenantNameRequired)
  .max(100, M.tenantNameFormat)
  .refine((v) => v.trim().length > 0, M.tenantNameRequired)
  .refine((v) => TENANT_NAME_RE.test(v) && noSurroundingSpaces(v), M.tenantNameFormat);

const zTemplateText = (required: string, max: number) =>
  z
    .string({ error: required })
    .min(1, required)
    .max(max, required)
    .refine((v) => v.trim().length > 0, required)
    .refine(noSurroundingSpaces, M.noTrailingSpaces);

export const ZCreateTenantRequest = z.object({
  details: z.object(
    {
      name: zTenantName,
      email: zEmail(M.emailRequired, M.emailFormat),
      phone: zPhone(M.phoneRequired, M.phoneCorrect),
      inviteTemplateSubject: zTemplateText(M.subjectRequired, 200),
      inviteTemplateBody: zTemplateText(M.messageRequired, 5000),
      url: zTenantUrl,
    },
    { error: M.inputValidationError },
  ),
});
export type TCreateTenantRequest = z.input<typeof ZCreateTenantRequest>;

/** spec: accounts §5 Tenant edit: phone required and complete; subject and body 'This field is required'. */
export const ZUpdateTenantRequest = z.object({
  details: z
    .object({
      phone: zPhone(M.fieldRequired, M.phoneIncomplete),
      inviteTemplateSubject: zTemplateText(M.fieldRequired, 200),
      inviteTemplateBody: zTemplateText(M.fieldRequired, 5000),
      url: zTenantUrl,
      /** Issue 28: the brand colour, #rrggbb with contrast for white text; null: the default. */
      brandColor: zBrandColor,
    })
    .partial(),
});
export type TUpdateTenantRequest = z.input<typeof ZUpdateTenantRequest>;

export const ZTenantDetails = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  /** active | pending; anything else is disabled. */
  status: z.string(),
  /** The host label: the tenant's site is at {url}.{BASE_DOMAIN}. */
  url: z.string(),
  inviteTemplateSubject: z.string(),
  inviteTemplateBody: z.string(),
  /** A signed, expiring URL of the logo/thumbnail, or null. */
  logo: z.string().nullable(),
  /** Issue 28: the brand colour (#rrggbb), or null for the default. */
  brandColor: z.string().nullable(),
  /** The tenant's site origin, e.g. https://acme.example.com */
  siteUrl: z.string(),
  dateCreated: z.string(),
});
export const ZTenant = z.object({ id: z.string(), details: ZTenantDetails });
export type TTenant = z.infer<typeof ZTenant>;

export const ZTenantList = zListResponse(ZTenant);
export type TTenantList = z.infer<typeof ZTenantList>;

/** spec: accounts §3 Bucket status (the tenant's site provisioning). */
// CREATE_IN_PROGRESS (a CloudFormation status, like the other two) tells the set-up timer the site is
// still being prepared; NOT_FOUND means there is none (never made, or the last attempt failed).
export const BUCKET_STATUSES = ['create_complete', 'CREATE_IN_PROGRESS', 'NOT_FOUND'] as const;
export type BucketStatus = (typeof BUCKET_STATUSES)[number];
export const ZBucketStatus = z.object({ CFStatus: z.object({ status: z.enum(BUCKET_STATUSES) }) });
export type TBucketStatus = z.infer<typeof ZBucketStatus>;

/** spec: accounts §4 / §9 tenant bucket set-up timer. */
export const BUCKET_TIMER = { ceiling: 100, checkEvery: 5, resetAt: 59, resetTo: 54, failAt: 60, storageKey: 'tenantBucketRetryTimer' } as const;

export const TENANT_LOGO_MAX_BYTES = 5 * 1024 * 1024;
