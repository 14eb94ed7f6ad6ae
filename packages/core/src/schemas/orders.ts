import { ZSeatHoldRef } from './seating.js';
import { z } from 'zod';
import { ORDER_UID_RE } from '../order-id.js';
import { isUsa, usStateCode } from '../address.js';
import { MAX_DONATION_CENTS } from '../donation.js';
import { type CartBlockReason, type CartProblemKind } from '../availability.js';
import { M } from '../messages.js';
import { zEmail } from './common.js';
import { QUESTION_LIMITS } from '../attendee-answers.js';
import { ZAnswerMap, ZAttendeeInput } from './questions.js';
import { DEFAULT_COUNTRY, MAX_PER_ORDER_LIMIT, zDiscountCode, zUuid } from './events.js';

// spec: reports-payouts-checkout §3 (Cart line, breakdown, Contact, Order creation payload),
// §5 (Checkout fields, Cart validation), §7 (Create order), §8 (Cart, Checkout).

// Moved to ../address.ts (zod-free, for the attendee site's bundle); re-exported for existing importers.
export { US_STATES, isUsa, usStateCode } from '../address.js';

// ---- cart ------------------------------------------------------------------------------------

export const MAX_CART_LINES = 50;

export const ZCartLine = z.object({
  ticketTypeId: zUuid(M.ticketsNoLongerAvailable),
  quantity: z.number({ error: M.invalidValue }).int(M.invalidValue).min(0, M.invalidValue).max(MAX_PER_ORDER_LIMIT * 10, M.invalidValue),
});
export type TCartLine = z.infer<typeof ZCartLine>;

export const ZCartRequest = z.object({ lines: z.array(ZCartLine).max(MAX_CART_LINES, M.invalidValue) });
export type TCartRequest = z.input<typeof ZCartRequest>;

/** The §8 title the web shows for each kind of cart problem. */
export function cartProblemTitle(kind: CartProblemKind): string {
  return kind === 'unavailable' ? M.ticketsRemoved : M.quantityLimitExceeded;
}

export function cartBlockTitle(reason: CartBlockReason | null): string | null {
  switch (reason) {
    case 'noCapacity':
    case 'overCapacity':
      return M.insufficientCapacity;
    case 'lineProblems':
      return M.ticketAvailabilityIssue;
    default:
      return null;
  }
}

export const ZCartProblem = z.object({
  ticketTypeId: z.string(),
  ticketName: z.string(),
  kind: z.enum(['unavailable', 'exceedsRemaining', 'belowMinimum', 'aboveMaximum']),
  requested: z.number().int(),
  available: z.number().int(),
  excess: z.number().int(),
  /** 'Tickets Removed' or 'Quantity Limit Exceeded' (spec §8). */
  title: z.string(),
});
export type TCartProblem = z.infer<typeof ZCartProblem>;

export const ZCartValidation = z.object({
  valid: z.boolean(),
  blocked: z.boolean(),
  blockReason: z.enum(['empty', 'noCapacity', 'overCapacity', 'lineProblems']).nullable(),
  /** 'Insufficient Capacity' or 'Ticket Availability Issue' when blocked for those reasons. */
  title: z.string().nullable(),
  totalQuantity: z.number().int(),
  remainingCapacity: z.number().int(),
  problems: z.array(ZCartProblem),
});
export type TCartValidation = z.infer<typeof ZCartValidation>;

// ---- price breakdown -------------------------------------------------------------------------

/**
 * The optional donation to the event's charity, in cents (docs/decisions.md "Donations at checkout"):
 * a whole number from 0 to $10,000.00; anything else, a string included, is a 400 with our message.
 */
export const zDonation = z
  .number({ error: M.donationInvalid })
  .int(M.donationInvalid)
  .min(0, M.donationInvalid)
  .max(MAX_DONATION_CENTS, M.donationMax);

export const ZPriceRequest = z.object({
  lines: z.array(ZCartLine).min(1, M.invalidValue).max(MAX_CART_LINES, M.invalidValue),
  discountCode: zDiscountCode.optional().nullable(),
  /** Cents; refused (400) unless the event has a charity. */
  donation: zDonation.optional().default(0),
});
export type TPriceRequest = z.input<typeof ZPriceRequest>;

/** spec: reports-payouts-checkout §3 Cart/checkout breakdown. Amounts in cents. */
export const ZBreakdown = z.object({
  ticketCount: z.number().int(),
  subtotal: z.number().int(),
  surcharge: z.number().int(),
  processingFee: z.number().int(),
  gatewayProcessingFee: z.number().int(),
  discount: z.number().int(),
  vat: z.number().int(),
  /** The donation and the fee on it, both paid by the customer (docs/pricing.md); 0 without a donation. */
  donation: z.number().int(),
  donationFee: z.number().int(),
  /** The per-order online charge (ticket settings chargeOnline); 0 when off. */
  channelCharge: z.number().int(),
  /** subtotal - discount + surcharge + processingFee + vat + donation + donationFee + channelCharge. */
  totalAmount: z.number().int(),
  discountCode: z.string().nullable(),
  orderDetails: z.array(
    z.object({ order: z.object({ ticketId: z.string() }), ticketName: z.string(), price: z.number().int(), quantity: z.number().int() }),
  ),
});
export type TBreakdown = z.infer<typeof ZBreakdown>;

// ---- checkout --------------------------------------------------------------------------------

const required = (message: string) => z.string({ error: message }).trim().min(1, message).max(200, M.invalidValue);

/**
 * spec §5 "phone sent as digits with a plus prefix": +1 and ten digits, or nothing (the field is
 * optional). Too few or too many digits is the spec's incomplete-mask message; anything but a plus
 * and digits (letters, the mask's spaces and brackets) is refused with ours. The checkout form checks
 * the masked text turned into what it sends (web phone-mask.ts).
 */
const zCheckoutPhone = z
  .string()
  .max(40, M.phoneWireFormat)
  .optional()
  .nullable()
  .superRefine((v, ctx) => {
    if (!v) return;
    if (!/^\+\d+$/.test(v)) ctx.addIssue({ code: 'custom', message: M.phoneWireFormat });
    else if (!/^\+1\d{10}$/.test(v)) ctx.addIssue({ code: 'custom', message: M.mobileRequired });
  })
  .transform((v) => v || null);

/**
 * spec §5 Checkout fields. The phone is optional but, once typed, must be a complete
 * +1 (###) ### #### (sent as +1 and ten digits). State is required; for the USA it must be a state.
 */
export const ZCheckoutContact = z
  .object({
    email: zEmail(M.checkoutEmailRequired, M.emailFormat),
    name: z.string().trim().max(200, M.invalidValue).optional(),
    firstName: z.string().trim().max(100, M.invalidValue).optional(),
    lastName: z.string().trim().max(100, M.invalidValue).optional(),
    phone: zCheckoutPhone,
    address1: required(M.addressRequired),
    address2: required(M.addressRequired),
    city: z
      .string({ error: M.cityRequired })
      .min(1, M.cityRequired)
      .max(100, M.invalidValue)
      .refine((v) => v.trim().length > 0, M.cityRequired)
      .refine((v) => v === v.trimEnd(), M.noTrailingSpaces),
    state: z.string().trim().max(100, M.invalidValue).optional().default(''),
    zipCode: z
      .string({ error: M.zipRequired })
      .trim()
      .min(1, M.zipRequired)
      .regex(/^\d+$/, M.zipDigits)
      .max(5, M.zipMax),
    country: z.string({ error: M.countryRequired }).trim().max(100, M.invalidValue).default(DEFAULT_COUNTRY).refine((v) => v.length > 0, M.countryRequired),
    optInEmail: z.boolean().default(false),
    optInText: z.boolean().default(false),
    discountCode: z.string().trim().max(40, M.invalidInputBody).optional().nullable(),
    /** The donation to the event's charity in cents (our addition to spec §3's payload); refused unless the event has one. */
    donation: zDonation.optional().default(0),
  })
  .superRefine((v, ctx) => {
    const usa = isUsa(v.country);
    if (!v.state) ctx.addIssue({ code: 'custom', path: ['state'], message: M.stateRequired });
    else if (usa && !usStateCode(v.state)) ctx.addIssue({ code: 'custom', path: ['state'], message: M.stateRequired });
    const full = v.name?.trim();
    if (!full && !v.firstName) ctx.addIssue({ code: 'custom', path: ['firstName'], message: M.firstNameRequired });
    if (!full && !v.lastName) ctx.addIssue({ code: 'custom', path: ['lastName'], message: M.lastNameRequired });
    // Issue 21: text messages need a number to go to.
    if (v.optInText && !v.phone) ctx.addIssue({ code: 'custom', path: ['phone'], message: M.optInTextNeedsPhone });
  })
  .transform((v) => {
    const usa = isUsa(v.country);
    let firstName = v.firstName ?? '';
    let lastName = v.lastName ?? '';
    if (!firstName && !lastName && v.name) {
      const [first, ...rest] = v.name.trim().split(/\s+/);
      firstName = first ?? '';
      lastName = rest.join(' ');
    }
    return {
      ...v,
      firstName,
      lastName,
      country: usa ? DEFAULT_COUNTRY : v.country,
      state: usa ? (usStateCode(v.state) ?? v.state) : v.state,
      discountCode: v.discountCode ? v.discountCode.toUpperCase() : null,
    };
  });
export type TCheckoutContact = z.output<typeof ZCheckoutContact>;


/** spec §3 Order creation payload. Only the event site's own channel is open to the public. */
export const ZCreateOrderRequest = z.object({
  order: ZCheckoutContact,
  lines: z.array(ZCartLine).min(1, M.ticketsNoLongerAvailable).max(MAX_CART_LINES, M.invalidValue),
  cancelUrl: z.string().url(M.redirectUrlInvalid).max(2000, M.redirectUrlInvalid).optional(),
  successUrl: z.string().url(M.redirectUrlInvalid).max(2000, M.redirectUrlInvalid).optional(),
  /** The draft this browser placed before (a declined card, a return from the gateway): it is replaced. */
  draftOrderUID: z.string().regex(ORDER_UID_RE, M.invalidValue).optional().nullable(),
  source: z.literal('online').default('online'),
  /** Issue 24: the answers to the questions asked once per order (docs/attendee-questions.md). */
  answers: ZAnswerMap.optional(),
  /** Issue 24: each ticket's attendee (name, e-mail, answers), in the cart's order. */
  attendees: z.array(ZAttendeeInput).max(QUESTION_LIMITS.attendeesPerOrder).optional(),
  /** Issue 27: the seats held for the cart's seated tickets (docs/seating.md). */
  seatHold: ZSeatHoldRef.optional().nullable(),
});
export type TCreateOrderRequest = z.input<typeof ZCreateOrderRequest>;

/** spec §7 "answer message holds the payment redirect URL". */
export const ZCreateOrderResponse = z.object({
  message: z.string(),
  orderUID: z.string(),
  draftOrderUID: z.string(),
  /** Shows this order on the success page: GET /api/p/orders/{orderUID}?token=… */
  orderToken: z.string(),
  holdExpiresAt: z.string(),
  breakdown: ZBreakdown,
});
export type TCreateOrderResponse = z.infer<typeof ZCreateOrderResponse>;

/**
 * Issue 21.8: the checkout holds the cart's tickets when it opens, so its timer counts down from the
 * first visit. `draft` is the hold this browser took before (its order id and view token): it gives
 * its tickets back first, as PLACE ORDER's draftOrderUID does.
 */
export const ZHoldCartRequest = z.object({
  lines: z.array(ZCartLine).min(1, M.ticketsNoLongerAvailable).max(MAX_CART_LINES, M.invalidValue),
  draft: z.object({ orderUID: z.string().regex(ORDER_UID_RE, M.invalidValue), token: z.string().min(1).max(100) }).optional().nullable(),
  /** Issue 27: the seats held for the cart's seated tickets. */
  seatHold: ZSeatHoldRef.optional().nullable(),
});
export type THoldCartRequest = z.input<typeof ZHoldCartRequest>;

export const ZHoldCartResponse = z.object({
  /** The held draft: PLACE ORDER sends it as draftOrderUID and takes its place. */
  orderUID: z.string(),
  orderToken: z.string(),
  holdExpiresAt: z.string(),
  breakdown: ZBreakdown,
});
export type THoldCartResponse = z.infer<typeof ZHoldCartResponse>;

/** The 409 when tickets ran out between the cart and PLACE ORDER ('Ticket Availability Issue'). */
export const ZCartConflictDetails = z.object({
  title: z.string(),
  problems: z.array(ZCartProblem),
  blockReason: z.enum(['empty', 'noCapacity', 'overCapacity', 'lineProblems']).nullable(),
  remainingCapacity: z.number().int(),
});
export type TCartConflictDetails = z.infer<typeof ZCartConflictDetails>;
export const ZCartConflict = z.object({
  error: z.object({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional(), domainCode: z.string().optional() }),
  ...ZCartConflictDetails.shape,
});
export type TCartConflict = z.infer<typeof ZCartConflict>;

/** The success page's view of an order: 'processing' until the payment is confirmed. */
export const PUBLIC_PAYMENT_STATUSES = ['processing', 'paid', 'expired', 'cancelled'] as const;
export const ZPublicOrder = z.object({
  orderUID: z.string(),
  paymentStatus: z.enum(PUBLIC_PAYMENT_STATUSES),
  /**
   * A cancelled order whose payment arrived anyway (after its hold, the tickets gone or the event
   * cancelled) is refunded: 'pending' until the gateway confirms, then 'refunded'. 'none' otherwise.
   */
  refund: z.enum(['none', 'pending', 'refunded']),
  eventName: z.string(),
  /** Shown once paid; null before. */
  details: z
    .object({
      email: z.string(),
      fullName: z.string(),
      ticketCount: z.number().int(),
      subtotal: z.number().int(),
      surcharge: z.number().int(),
      processingFee: z.number().int(),
      discount: z.number().int(),
      discountCode: z.string().nullable(),
      vat: z.number().int(),
      donation: z.number().int(),
      donationFee: z.number().int(),
      /** The charity the donation went to, as named when the order was placed; null without a donation. */
      charityName: z.string().nullable(),
      channelCharge: z.number().int(),
      totalAmount: z.number().int(),
      /** Each line with what its discount took off it (issue 21.8): the line sold for price x quantity - discount. */
      orderDetails: z.array(ZBreakdown.shape.orderDetails.element.extend({ discount: z.number().int() })),
      dateCreated: z.string(),
    })
    .nullable(),
});
export type TPublicOrder = z.infer<typeof ZPublicOrder>;
