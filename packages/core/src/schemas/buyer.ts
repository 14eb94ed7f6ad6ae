import { z } from 'zod';
import { M } from '../messages.js';
import { zEmail } from './common.js';
import { ZPublicOrder } from './orders.js';

// Buyers' self-service (issue 15): the private order page and "Find my tickets".

/** The token in /orders/{token}: 256 random bits as 43 base64url characters. */
export const ORDER_LINK_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export const ZOrderPage = z.object({
  order: ZPublicOrder,
  event: z.object({
    name: z.string(),
    urlName: z.string(),
    /** published | cancelled; a page whose event is gone still shows the order. */
    status: z.string(),
    startDateTime: z.string().nullable(),
    endDateTime: z.string().nullable(),
    timeZone: z.string(),
    venue: z.array(z.string()),
  }),
  tickets: z.array(z.object({ ticketTypeName: z.string(), fullName: z.string(), price: z.number().int(), status: z.enum(['valid', 'used', 'voided']) })),
  /** Download and Resend work for a completed order with valid tickets. */
  canDownload: z.boolean(),
});
export type TOrderPage = z.infer<typeof ZOrderPage>;

export const ZFindTicketsRequest = z.object({ email: zEmail(M.checkoutEmailRequired, M.emailFormat) });
export type TFindTicketsRequest = z.infer<typeof ZFindTicketsRequest>;
