import { z } from 'zod';
import { M } from '../messages.js';
import { phoneDigits } from '../phone.js';

import { EMAIL_RE } from '../email.js';
export { EMAIL_RE };

export const zEmail = (requiredMessage: string = M.validEmail, formatMessage: string = M.validEmail) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(254, formatMessage)
    .regex(EMAIL_RE, formatMessage)
    .transform((v) => v.toLowerCase());

/** A phone typed as +1 (###) ### #### (or its digits); stored as +1XXXXXXXXXX. */
export const zPhone = (requiredMessage: string, incompleteMessage: string) =>
  z
    .string({ error: requiredMessage })
    .min(1, requiredMessage)
    .refine((v) => phoneDigits(v) !== null, incompleteMessage)
    .transform((v) => `+1${phoneDigits(v)}`);

export const zOptionalPhone = (incompleteMessage: string) =>
  z
    .string()
    .optional()
    .nullable()
    .refine((v) => !v || v.replace(/\D/g, '').length <= 1 || phoneDigits(v) !== null, incompleteMessage)
    .transform((v) => (v && phoneDigits(v) ? `+1${phoneDigits(v)}` : null));

export const noTrailingSpaces = (v: string) => v === v.trimEnd() && v === v.trimStart();

export const zId = z.string().min(1).max(200);
