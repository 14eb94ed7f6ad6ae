import { z } from 'zod';
import { M } from '../messages.js';
import { EMAIL_RE } from './common.js';

// POST /api/tenants/{tenant_id}/events/{event_id}/resend and .../download
// spec: reports-payouts-checkout §7 (payload orderUID, email)
export const ZTicketsRequest = z.object({
  orderUID: z.string({ error: M.invalidValue }).trim().min(1, M.invalidValue).max(64, M.invalidValue),
  /** resend: where to send them (the order's e-mail when absent); download: not used. */
  email: z
    .string()
    .trim()
    .max(254, M.validEmail)
    .nullish()
    .refine((v) => !v || EMAIL_RE.test(v), M.validEmail)
    .transform((v) => (v ? v.toLowerCase() : null)),
});
export type TTicketsRequest = z.infer<typeof ZTicketsRequest>;

export const ZResendTicketsResponse = z.object({ success: z.literal(true), message: z.string() });
export type TResendTicketsResponse = z.infer<typeof ZResendTicketsResponse>;
