import { z } from 'zod';
import { M } from '../messages.js';
import { zListResponse } from './list.js';

// spec: accounts-admin-fees §3 Policy, §5 Policy, §7 policies, §8 Policy.

/** A lowercase alphanumeric slug with optional '-' delimiters: 'refund-policy'. */
export const POLICY_ID_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Policies every tenant's checkout links to (see docs/decisions.md). */
export const REFUND_POLICY_ID = 'refund-policy';
export const TERMS_POLICY_ID = 'terms';

export const zPolicyId = z
  .string({ error: M.policyIdRequired })
  .min(1, M.policyIdRequired)
  .max(100, M.policyIdFormat)
  .regex(POLICY_ID_RE, M.policyIdFormat);

const label = z.string().trim().max(100, M.invalidFormat);

/** The rich-text detail is HTML; the server keeps a safe subset of it. */
const zDetail = z
  .string({ error: M.policyDetailsRequired })
  .max(200_000, M.invalidValue)
  .refine((v) => v.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim().length > 0, M.policyDetailsRequired);

export const ZPolicyDetailsInput = z.object({
  /** Shown as the policy's title; defaults to the id. */
  name: label.optional(),
  group: label.optional(),
  type: label.optional(),
  sk: label.optional(),
  detail: zDetail,
});

export const ZCreatePolicyRequest = z.object({
  id: zPolicyId,
  details: ZPolicyDetailsInput,
});
export type TCreatePolicyRequest = z.input<typeof ZCreatePolicyRequest>;

export const ZUpdatePolicyRequest = z.object({ details: ZPolicyDetailsInput.partial() });
export type TUpdatePolicyRequest = z.input<typeof ZUpdatePolicyRequest>;

export const ZPolicy = z.object({
  id: z.string(),
  details: z.object({
    sk: z.string(),
    name: z.string(),
    group: z.string(),
    type: z.string(),
    /** Sanitised HTML. */
    detail: z.string(),
    dateCreated: z.string(),
    dateModified: z.string(),
  }),
});
export type TPolicy = z.infer<typeof ZPolicy>;

export const ZPolicyList = zListResponse(ZPolicy);

/** What an attendee's page reads: GET /api/p/policies/:id */
export const ZPublicPolicy = z.object({ id: z.string(), details: z.object({ name: z.string(), detail: z.string(), dateModified: z.string() }) });
export type TPublicPolicy = z.infer<typeof ZPublicPolicy>;
