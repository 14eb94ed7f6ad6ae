import { z } from 'zod';
import { zResource } from './list.js';

// GET /api/platform/outbox: every message the product sent (or kept, without SMTP).
export const ZOutboxMail = zResource(
  z.object({
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string().nullable(),
    status: z.string(),
    tenantId: z.string().nullable(),
    attachments: z.array(z.object({ filename: z.string(), url: z.string() })),
    dateCreated: z.string(),
  }),
);
export type TOutboxMail = z.infer<typeof ZOutboxMail>;
