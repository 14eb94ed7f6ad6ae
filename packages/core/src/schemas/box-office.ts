import { z } from 'zod';
import { M } from '../messages.js';
import { EMAIL_RE } from './common.js';
import { MAX_PER_ORDER_LIMIT, zDiscountCode, zUuid } from './events.js';
import { ZBreakdown } from './orders.js';
import { ZSeatHoldRef } from './seating.js';

// The box office (issue 23, docs/box-office.md): a sale at the door for one event, on the BACKEND
// channel, paid at once in cash, on the venue's own card terminal, or complimentary.

/** Where a ticket type is sold: online (the attendee site), at the box office, or both. */
export const TICKET_SOLD_AT = ['BOTH', 'ONLINE', 'BOX_OFFICE'] as const;
export type TicketSoldAt = (typeof TICKET_SOLD_AT)[number];
export const TICKET_SOLD_AT_LABELS: Record<TicketSoldAt, string> = {
  BOTH: 'Online and at the box office',
  ONLINE: 'Online only',
  BOX_OFFICE: 'Box office only',
};

/** Whether a ticket type sold `soldAt` is on sale on this channel (the box office is BACKEND). */
export function isSoldOn(soldAt: string, channel: 'online' | 'backend' | 'app'): boolean {
  if (soldAt === 'ONLINE') return channel !== 'backend';
  if (soldAt === 'BOX_OFFICE') return channel === 'backend';
  return true;
}

/** How a box-office order was paid (orders.payment_method). */
export const BOX_OFFICE_PAYMENT_METHODS = ['cash', 'card_terminal', 'complimentary'] as const;
export type BoxOfficePaymentMethod = (typeof BOX_OFFICE_PAYMENT_METHODS)[number];
export const BOX_OFFICE_PAYMENT_LABELS: Record<BoxOfficePaymentMethod, string> = {
  cash: 'Cash',
  card_terminal: 'Card (terminal)',
  complimentary: 'Complimentary',
};

/** The largest cash amount one sale takes ($100,000.00): anything above is a typing slip. */
export const MAX_CASH_TENDERED_CENTS = 10_000_000;

const optionalName = z.string().trim().max(100, M.invalidValue).default('');
const optionalEmail = z
  .string()
  .trim()
  .max(254, M.emailFormat)
  .default('')
  .refine((v) => v === '' || EMAIL_RE.test(v), M.emailFormat);

export const ZBoxOfficeLine = z.object({
  ticketTypeId: zUuid(M.invalidInputBody),
  quantity: z.number({ error: M.invalidValue }).int(M.invalidValue).min(1, M.invalidValue).max(MAX_PER_ORDER_LIMIT, M.invalidValue),
});

export const ZBoxOfficeSaleRequest = z.object({
  /** A fresh random key per sale, kept on retries: the same key never sells twice. */
  idempotencyKey: z.string({ error: M.invalidValue }).trim().min(8, M.invalidValue).max(100, M.invalidValue),
  lines: z.array(ZBoxOfficeLine).min(1, M.invalidInputBody).max(50, M.invalidInputBody),
  discountCode: zDiscountCode.optional().nullable(),
  firstName: optionalName,
  lastName: optionalName,
  email: optionalEmail,
  paymentMethod: z.enum(BOX_OFFICE_PAYMENT_METHODS, { error: M.invalidValue }),
  /** Cash only: what the buyer handed over, in cents. */
  cashTendered: z.number({ error: M.invalidValue }).int(M.invalidValue).min(0, M.invalidValue).max(MAX_CASH_TENDERED_CENTS, M.invalidValue).optional().nullable(),
  /** Card on the venue's terminal only: the terminal's reference for the payment. */
  terminalReference: z.string().trim().max(100, M.invalidValue).optional().nullable(),
  /** Mark the tickets used at once (the buyer walks in). */
  admit: z.boolean().default(false),
  /** Issue 27: a seated event's seats, held first through the box office's seat holds (best available or picked). */
  seatHold: ZSeatHoldRef.optional().nullable(),
});
export type TBoxOfficeSaleRequest = z.input<typeof ZBoxOfficeSaleRequest>;

export const ZBoxOfficeTicket = z.object({
  ticketUid: z.string(),
  ticketTypeName: z.string(),
  /** What the QR code carries (the door's scanner reads it); the console draws the QR code from it, to show and print. */
  code: z.string(),
  used: z.boolean(),
  /** Issue 27: the ticket's seat ("Stalls · Row B · Seat 3"), or null for general admission. */
  seat: z.string().nullable(),
});

export const ZBoxOfficeSaleResponse = z.object({
  orderId: z.string(),
  orderUID: z.string(),
  paymentMethod: z.enum(BOX_OFFICE_PAYMENT_METHODS),
  totalAmount: z.number().int(),
  cashTendered: z.number().int().nullable(),
  /** Cash: what to hand back. */
  changeDue: z.number().int().nullable(),
  terminalReference: z.string().nullable(),
  email: z.string(),
  /** true when this answer is a retry of a sale already made with the same key. */
  replayed: z.boolean(),
  breakdown: ZBreakdown,
  tickets: z.array(ZBoxOfficeTicket),
});
export type TBoxOfficeSaleResponse = z.infer<typeof ZBoxOfficeSaleResponse>;

export const ZBoxOfficeQuoteRequest = z.object({
  lines: z.array(ZBoxOfficeLine).min(1, M.invalidInputBody).max(50, M.invalidInputBody),
  discountCode: zDiscountCode.optional().nullable(),
  paymentMethod: z.enum(BOX_OFFICE_PAYMENT_METHODS, { error: M.invalidValue }),
});
export type TBoxOfficeQuoteRequest = z.input<typeof ZBoxOfficeQuoteRequest>;

/** The sale screen's menu: the ticket types sold at the box office, with what is left, and the comps left. */
export const ZBoxOfficeMenu = z.object({
  event: z.object({ id: z.string(), name: z.string(), status: z.string(), timeZone: z.string(), startsAt: z.string().nullable() }),
  ticketTypes: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      price: z.number().int(),
      remaining: z.number().int(),
      maxPerOrder: z.number().int(),
      soldAt: z.enum(TICKET_SOLD_AT),
      /** Issue 27: sold as seats of the event's seating plan (the screen holds seats for it first). */
      seated: z.boolean(),
    }),
  ),
  /** The event's capacity left, or null when it has none. */
  remainingCapacity: z.number().int().nullable(),
  /** Complimentary tickets: the event's limit and how many are left (null: unlimited). */
  complimentary: z.object({ limit: z.number().int().nullable(), left: z.number().int().nullable() }),
});
export type TBoxOfficeMenu = z.infer<typeof ZBoxOfficeMenu>;

export const ZGuestListRequest = z.object({
  ticketTypeId: zUuid(M.invalidInputBody),
  /** One complimentary order per guest, its tickets mailed. */
  guests: z
    .array(
      z.object({
        firstName: z.string().trim().min(1, M.firstNameRequired).max(100, M.invalidValue),
        lastName: z.string().trim().max(100, M.invalidValue).default(''),
        email: z.string().trim().max(254, M.emailFormat).refine((v) => EMAIL_RE.test(v), M.emailFormat),
        quantity: z.number({ error: M.invalidValue }).int(M.invalidValue).min(1, M.invalidValue).max(MAX_PER_ORDER_LIMIT, M.invalidValue).default(1),
      }),
    )
    .min(1, M.invalidInputBody)
    .max(200, M.invalidInputBody),
  idempotencyKey: z.string({ error: M.invalidValue }).trim().min(8, M.invalidValue).max(100, M.invalidValue),
});
export type TGuestListRequest = z.input<typeof ZGuestListRequest>;
export const ZGuestListResponse = z.object({ orders: z.array(z.object({ orderUID: z.string(), email: z.string(), tickets: z.number().int() })) });
export type TGuestListResponse = z.infer<typeof ZGuestListResponse>;
