import { z } from 'zod';
import { M } from '../messages.js';
import { zEmail } from './common.js';
import { ZPublicOrder } from './orders.js';
import { ZTransferredTo } from './transfers.js';

// Buyers' self-service (issue 15): the private order page and "Find my tickets".

/** The token in /orders/{token}: 256 random bits as 43 base64url characters. */
export const ORDER_LINK_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export const ORDER_PAGE_TICKET_STATUSES = ['valid', 'used', 'voided', 'refunded', 'transferred'] as const;
export type OrderPageTicketStatus = (typeof ORDER_PAGE_TICKET_STATUSES)[number];

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
  tickets: z.array(
    z.object({
      /** The ticket's id: what a transfer names (issue 24). */
      ticketId: z.string(),
      ticketTypeName: z.string(),
      /** Issue 27: the reserved seat ('Section · Row · Seat'); null: general admission. */
      seat: z.string().nullable().default(null),
      fullName: z.string(),
      /** The list price, and what the ticket sold for after the order's discount (issue 21.8). */
      price: z.number().int(),
      paid: z.number().int(),
      /** refunded: voided by a refund (its money went back); voided: voided without one. */
      status: z.enum(ORDER_PAGE_TICKET_STATUSES),
      voidedAt: z.string().nullable(),
      /** A valid ticket of a completed order: its Ticket ID and its QR code (the PDF's signed code) as an SVG image. */
      ticketUID: z.string().nullable(),
      qrSvg: z.string().nullable(),
      /** transferred (issue 24): given to this person; the buyer no longer holds its code. */
      transferredTo: ZTransferredTo.nullable(),
      /**
       * Issue 28: where a valid ticket's wallet pass is (this site's paths): Apple's .pkpass, and a
       * redirect to Google's signed save link; null when the operator has not set that wallet up, or the ticket is not valid.
       */
      wallet: z.object({ apple: z.string().nullable(), google: z.string().nullable() }).default({ apple: null, google: null }),
    }),
  ),
  /** Issue 24: whether the buyer may pass valid tickets on now (the organiser allows it, the event is neither cancelled nor over). */
  canTransfer: z.boolean(),
  /** Download and Resend work for a completed order with valid tickets. */
  canDownload: z.boolean(),
  /** Issue 21.6: the money given back (or on its way back), newest first; failed refunds are not listed. */
  refunds: z.array(z.object({ amount: z.number().int(), date: z.string(), status: z.enum(['pending', 'succeeded']) })),
  refundedAmount: z.number().int(),
  /** full: everything paid is given back (or on its way back). */
  refundState: z.enum(['none', 'partial', 'full']),
});
export type TOrderPage = z.infer<typeof ZOrderPage>;

export const ZFindTicketsRequest = z.object({ email: zEmail(M.checkoutEmailRequired, M.emailFormat) });
export type TFindTicketsRequest = z.infer<typeof ZFindTicketsRequest>;
