import type { TCartConflictDetails } from './schemas/orders.js';

// Errors as the API answers them (architecture rule 5): {error:{code, message, fields, domainCode}}.
// `code` is the generic kind and decides the HTTP status (ERROR_STATUS, the one table); a domain
// failure that clients act on also carries `domainCode`, and its payload, if any, beside `error`.
// Clients switch on codes, never on message text.

export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Each domain code and the generic code (so the status) it is answered with. */
export const DOMAIN_ERRORS = {
  /** Not signed in (or the session ended): the web forgets the session it had. */
  NOT_SIGNED_IN: 'UNAUTHENTICATED',
  /** The CSRF token is missing or stale: the web fetches the current one once and retries. */
  CSRF_INVALID: 'FORBIDDEN',
  TENANT_URL_TAKEN: 'CONFLICT',
  TENANT_SETTINGS_FAILED: 'UNAVAILABLE',
  POLICY_DUPLICATE: 'CONFLICT',
  /** The event was published but is not on sale any more (unpublished or cancelled). */
  EVENT_NOT_ON_SALE: 'CONFLICT',
  /** The discount code is unknown, not usable now, used up or does not apply to the cart. */
  DISCOUNT_INVALID: 'BAD_REQUEST',
  /** Tickets ran out between the cart and PLACE ORDER; the payload says which lines and why. */
  CART_CONFLICT: 'CONFLICT',
  /** A ticket type in the cart changed (price, name, switched off, off sale) since the cart was priced. */
  CART_CHANGED: 'CONFLICT',
  /** A donation on an event that has no charity (any more). */
  DONATION_NO_CHARITY: 'BAD_REQUEST',
  /** A donation for a charity that is no longer the event's. */
  DONATION_CHARITY_CHANGED: 'BAD_REQUEST',
  /** PLACE ORDER while the event's waiting room is on and this visitor has no admission now (not their turn, their turn has passed, or another visitor's place): into the line. */
  WAITING_ROOM_REQUIRED: 'FORBIDDEN',
  /** This visitor's admission has placed all the orders one admission allows. */
  WAITING_ROOM_ORDER_LIMIT: 'FORBIDDEN',
  /** An offline check-in names someone else as who scanned: a person can only credit themselves (issue 21.13). */
  CHECKIN_SCANNED_BY_OTHER: 'FORBIDDEN',
  /** The event is cancelled, which is final: it and what hangs off it (staff invites too) no longer change (issue 21.14). */
  EVENT_CANCELLED: 'CONFLICT',
  /** Sign-in (or linking an invite to an account) with a wrong e-mail address or password, or a disabled account. */
  CREDENTIALS_INVALID: 'UNAUTHENTICATED',
  /** The password is right but the e-mail address is not verified yet: a new code has been sent. */
  EMAIL_NOT_VERIFIED: 'FORBIDDEN',
  /** The platform has switched 'Allow Tenant to Edit Fees Settings' off: the tenant's fees are read-only for it. */
  FEES_LOCKED: 'FORBIDDEN',
  /** An export with nothing in it (spec §8: an event without refunds). */
  NOTHING_TO_EXPORT: 'CONFLICT',
  /** A message to attendees that nobody would receive now (the audience changed since it was counted). */
  NO_RECIPIENTS: 'CONFLICT',
  /** Another message to the event's attendees is still being sent. */
  MESSAGE_IN_PROGRESS: 'CONFLICT',
  /** The event's messages for the day are used up; the Retry-After header says when the next may go. */
  MESSAGE_LIMIT_REACHED: 'RATE_LIMITED',
  /**
   * A payout transfer the gateway refused because the tenant has no connected account. Not an error
   * answer: a transfer's failures are listed in its 200 result (spec §3 Transfer result), each with its code.
   */
  TRANSFER_DESTINATION_MISSING: 'CONFLICT',
  /** Ticket transfers (issue 24): the event's organiser has switched transfers off. */
  TRANSFERS_OFF: 'CONFLICT',
  /** The ticket was admitted at the door: a used ticket is not passed on. */
  TRANSFER_TICKET_USED: 'CONFLICT',
  /** The ticket was voided by the organiser. */
  TRANSFER_TICKET_VOIDED: 'CONFLICT',
  /** The ticket's money went back (a refund voided it). */
  TRANSFER_TICKET_REFUNDED: 'CONFLICT',
  /** The ticket was already given to someone else: it is theirs now. */
  TRANSFER_ALREADY_TRANSFERRED: 'CONFLICT',
  /** The ticket is already held by this person (the same e-mail address). */
  TRANSFER_SAME_PERSON: 'BAD_REQUEST',
  /** The event has ended (or started and has no end): nothing is passed on any more. */
  TRANSFER_EVENT_OVER: 'CONFLICT',

  /** Joining a waiting list this e-mail address is already on (waiting or offered) for the same ticket type (issue 24). */
  WAITLIST_ALREADY_JOINED: 'CONFLICT',
  /** The waiting list is off, or the tickets are not sold out (buy them instead). */
  WAITLIST_UNAVAILABLE: 'CONFLICT',
  /** A claim link whose offer ran out (or was withdrawn): the tickets went to the next person. */
  WAITLIST_OFFER_EXPIRED: 'GONE',
  /** A claim link whose tickets were already bought. */
  WAITLIST_OFFER_USED: 'CONFLICT',
  /** PLACE ORDER of a waiting-list offer with another e-mail address than the one it was offered to. */
  WAITLIST_OFFER_NOT_YOURS: 'FORBIDDEN',
  /** The organiser's offer by hand: the entry is not waiting any more, or no ticket is free for it. */
  WAITLIST_CANNOT_OFFER: 'CONFLICT',

  /** Issue 23: a cash sale or cash refund by someone with no open cash drawer: open one first. */
  DRAWER_NOT_OPEN: 'CONFLICT',
  /** Issue 23: opening a cash drawer while one's own is still open. */
  DRAWER_ALREADY_OPEN: 'CONFLICT',
  /** Issue 23: closing a cash drawer that is already closed. */
  DRAWER_CLOSED: 'CONFLICT',
  /** Issue 23: settling a refund that is not owed at the box office (settled already, or a gateway's). */
  REFUND_NOT_OWED: 'CONFLICT',
  /** Issue 23: refunding a complimentary order: nothing was paid. */
  REFUND_NOTHING_PAID: 'BAD_REQUEST',
  /** Box office (issue 23): a ticket type sold online only. */
  TICKET_TYPE_NOT_AT_BOX_OFFICE: 'BAD_REQUEST',
  /** Box office: the cash tendered is less than the total. */
  CASH_TENDERED_SHORT: 'BAD_REQUEST',
  /** Box office: a card sale on the venue's terminal without the terminal's reference. */
  TERMINAL_REFERENCE_REQUIRED: 'BAD_REQUEST',
  /** Complimentary tickets past the event's maximum; the payload says the limit and how many are left. */
  COMPLIMENTARY_LIMIT: 'CONFLICT',
  /** A sale's idempotency key was already used for a different sale (another event or cart). */
  IDEMPOTENCY_KEY_REUSED: 'CONFLICT',

  /** Issue 24: the buyer's deadline for changing the attendees' names and answers has passed. */
  ANSWERS_LOCKED: 'CONFLICT',

  /** Issue 27: a seat number that is not in the event's seating plan (or another event's). */
  SEAT_NOT_FOUND: 'BAD_REQUEST',
  /** A seat held or sold by someone else, blocked or kept back by the house: choose others. */
  SEAT_UNAVAILABLE: 'CONFLICT',
  /** A seat whose category does not sell as the ticket type chosen. */
  SEAT_WRONG_TICKET_TYPE: 'BAD_REQUEST',
  /** More seats than the ticket type allows in one order. */
  SEAT_LIMIT: 'BAD_REQUEST',
  /** Best available found no N adjacent free seats. */
  SEATS_NOT_TOGETHER: 'CONFLICT',
  /** The seat hold ran out (or was given back, or is not this browser's): choose the seats again. */
  SEAT_HOLD_EXPIRED: 'GONE',
  /** The cart's seated tickets and the held seats differ (or no seats were chosen for them). */
  SEATS_DO_NOT_MATCH_CART: 'CONFLICT',
  /** The event's seats are held or sold: its seating plan no longer changes. */
  SEATING_IN_USE: 'CONFLICT',

  /** Issue 28: a series' schedule makes no date (no dates, a rule with no end, a rule that matches nothing). */
  SERIES_NO_DATES: 'VALIDATION',
  /** The schedule makes more than SERIES_MAX_DATES dates (slots included). */
  SERIES_TOO_MANY_DATES: 'VALIDATION',
  /** A date's (or slot's) end is not after its start, or the slot length does not fit. */
  SERIES_BAD_TIMES: 'VALIDATION',
  /** The series already has a date starting at that time. */
  SERIES_DATE_TAKEN: 'CONFLICT',
} as const satisfies Record<string, ErrorCode>;
export type DomainErrorCode = keyof typeof DOMAIN_ERRORS;

/** What a domain error carries beside `error` in the answer; `undefined`: nothing. */
export type DomainErrorPayloads = {
  [C in DomainErrorCode]: C extends 'CART_CONFLICT' ? TCartConflictDetails : C extends 'COMPLIMENTARY_LIMIT' ? { complimentary: { limit: number; left: number } } : undefined;
};

export const DOMAIN_ERROR_CODES = Object.keys(DOMAIN_ERRORS) as DomainErrorCode[];
export const isDomainErrorCode = (value: unknown): value is DomainErrorCode => typeof value === 'string' && Object.hasOwn(DOMAIN_ERRORS, value);

/** The status a code is answered with: the one table. */
export const statusOf = (code: ErrorCode | DomainErrorCode): number => ERROR_STATUS[Object.hasOwn(DOMAIN_ERRORS, code) ? DOMAIN_ERRORS[code as DomainErrorCode] : (code as ErrorCode)];

/** The code among `codes`, or null: narrows a domain code for an exhaustive switch over the codes one screen handles. */
export const domainCodeAmong = <const L extends readonly DomainErrorCode[]>(code: DomainErrorCode | null, codes: L): L[number] | null =>
  code !== null && (codes as readonly DomainErrorCode[]).includes(code) ? code : null;

/** The domain codes PLACE ORDER answers with (the checkout page handles each of them). */
export const PLACE_ORDER_ERRORS = [
  'WAITING_ROOM_REQUIRED',
  'WAITING_ROOM_ORDER_LIMIT',
  'EVENT_NOT_ON_SALE',
  'DISCOUNT_INVALID',
  'CART_CONFLICT',
  'CART_CHANGED',
  'DONATION_NO_CHARITY',
  'DONATION_CHARITY_CHANGED',
  'WAITLIST_OFFER_NOT_YOURS',
  'SEAT_HOLD_EXPIRED',
  'SEATS_DO_NOT_MATCH_CART',
] as const satisfies readonly DomainErrorCode[];
export type PlaceOrderErrorCode = (typeof PLACE_ORDER_ERRORS)[number];
export const placeOrderErrorOf = (code: DomainErrorCode | null): PlaceOrderErrorCode | null => domainCodeAmong(code, PLACE_ORDER_ERRORS);

/** The domain codes pricing a cart answers with (the checkout page handles each of them as PLACE ORDER's). */
export const PRICE_ERRORS = ['DISCOUNT_INVALID', 'DONATION_NO_CHARITY', 'DONATION_CHARITY_CHANGED'] as const satisfies readonly PlaceOrderErrorCode[];
export type PriceErrorCode = (typeof PRICE_ERRORS)[number];

/** The domain codes a message to attendees is refused with (the compose form handles each of them). */
export const SEND_MESSAGE_ERRORS = ['NO_RECIPIENTS', 'MESSAGE_IN_PROGRESS', 'MESSAGE_LIMIT_REACHED'] as const satisfies readonly DomainErrorCode[];
export type SendMessageErrorCode = (typeof SEND_MESSAGE_ERRORS)[number];

/** The domain codes a ticket transfer is refused with (the order link's transfer form handles each of them). */
export const TRANSFER_ERRORS = [
  'TRANSFERS_OFF',
  'TRANSFER_TICKET_USED',
  'TRANSFER_TICKET_VOIDED',
  'TRANSFER_TICKET_REFUNDED',
  'TRANSFER_ALREADY_TRANSFERRED',
  'TRANSFER_SAME_PERSON',
  'TRANSFER_EVENT_OVER',
  'EVENT_CANCELLED',
] as const satisfies readonly DomainErrorCode[];
export type TransferErrorCode = (typeof TRANSFER_ERRORS)[number];

/** The domain codes joining a waiting list answers with (the join form handles each of them). */
export const WAITLIST_JOIN_ERRORS = ['WAITLIST_ALREADY_JOINED', 'WAITLIST_UNAVAILABLE'] as const satisfies readonly DomainErrorCode[];
/** The domain codes opening a claim link answers with (the claim page handles each of them). */
export const WAITLIST_CLAIM_ERRORS = ['WAITLIST_OFFER_EXPIRED', 'WAITLIST_OFFER_USED'] as const satisfies readonly DomainErrorCode[];

/** The domain codes a box-office sale (and a guest list) is refused with; the sale screen handles each of them. */
export const BOX_OFFICE_SALE_ERRORS = [
  'EVENT_NOT_ON_SALE',
  'EVENT_CANCELLED',
  'DISCOUNT_INVALID',
  'CART_CONFLICT',
  'CART_CHANGED',
  'TICKET_TYPE_NOT_AT_BOX_OFFICE',
  'CASH_TENDERED_SHORT',
  'TERMINAL_REFERENCE_REQUIRED',
  'COMPLIMENTARY_LIMIT',
  'IDEMPOTENCY_KEY_REUSED',
] as const satisfies readonly DomainErrorCode[];
export type BoxOfficeSaleErrorCode = (typeof BOX_OFFICE_SALE_ERRORS)[number];

/** For exhaustive switches: a case left out does not compile. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${String(value)}`);
}
