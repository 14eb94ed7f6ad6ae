import { z } from 'zod';
import { zListResponse, zResource } from './list.js';

// Issue 25: API keys. A key acts through the same guard as a signed-in member, limited to its scopes.

/** What a key may do; each route that a key may call names one (apps/server platform/auth/scopes.ts). */
export const API_KEY_SCOPES = ['read', 'orders:write', 'checkin', 'events:manage'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  read: 'Read events and reports',
  'orders:write': 'Write orders',
  checkin: 'Check-in',
  'events:manage': 'Manage events',
};

/** A key's secret on the wire: `mq_<prefix>_<secret>`; the prefix finds the key, the secret is compared by its hash. */
export const API_KEY_RE = /^mq_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export const API_KEY_NAME_MAX = 100;

export const ZCreateApiKeyRequest = z.object({
  details: z.object({
    name: z
      .string()
      .trim()
      .min(1, 'The Name field is required.')
      .max(API_KEY_NAME_MAX, `The Name may be at most ${API_KEY_NAME_MAX} characters.`),
    scopes: z
      .array(z.enum(API_KEY_SCOPES, { message: 'Unknown scope.' }))
      .min(1, 'Choose at least one scope.')
      .max(API_KEY_SCOPES.length),
    /** Optional; must be in the future. */
    expiresAt: z.iso.datetime({ offset: true, error: 'The Expires field must be a date and time.' }).nullable().optional(),
  }),
});
export type TCreateApiKeyRequest = z.input<typeof ZCreateApiKeyRequest>;

export const ZApiKeyDetails = z.object({
  name: z.string(),
  /** The first characters of the key (`mq_<prefix>`), so people can tell keys apart. */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  status: z.enum(['ACTIVE', 'REVOKED', 'EXPIRED']),
  createdBy: z.string().nullable(),
  dateCreated: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export const ZApiKey = zResource(ZApiKeyDetails);
export type TApiKey = z.infer<typeof ZApiKey>;
export const ZApiKeyList = zListResponse(ZApiKey);

/** The answer to creating a key: the only time its secret is shown. */
export const ZCreateApiKeyResponse = ZApiKey.extend({ secret: z.string() });
export type TCreateApiKeyResponse = z.infer<typeof ZCreateApiKeyResponse>;
