import { z } from 'zod';

// GET /api/site/context: which face of Marquee a host serves (platform console, or a tenant's
// console and attendee site).
export const ZSiteContext = z.object({
  mode: z.enum(['platform', 'tenant']),
  /** brandColor (issue 28): the tenant's accent, #rrggbb, or null for the default. */
  tenant: z.object({ id: z.string(), name: z.string(), url: z.string(), status: z.string(), brandColor: z.string().nullable() }).nullable(),
  mailOutbox: z.boolean(),
});
export type TSiteContext = z.infer<typeof ZSiteContext>;
