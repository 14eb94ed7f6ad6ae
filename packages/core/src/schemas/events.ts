import { z } from 'zod';
import { isValidTimeZone, SALES_AVAILABILITY } from '../availability.js';
import { M } from '../messages.js';
import { isReservedPath } from '../reserved.js';
import { ZPublicCharity } from './charities.js';
import { ZCancellationProgress } from './order-admin.js';
import { zListResponse } from './list.js';

// spec: reports-payouts-checkout §3 (Event, Ticket type details) and the tenant console of issue 4.
// Money is integer cents; a percentage discount is a number such as 12.5.

export const EVENT_STATUSES = ['draft', 'published', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const DEFAULT_TIME_ZONE = 'America/New_York';
// Lives in ../address.ts (zod-free, for the attendee site's bundle).
export { DEFAULT_COUNTRY } from '../address.js';
export const MAX_PRICE_CENTS = 100_000_000;
export const MAX_TICKET_QUANTITY = 1_000_000;
/** spec: reports-payouts-checkout §9 "Quantity input shows max 10": the default per-order maximum. */
export const DEFAULT_MAX_PER_ORDER = 10;
export const MAX_PER_ORDER_LIMIT = 100;
export const SEATMAP_MAX_BYTES = 5 * 1024 * 1024;
export const SEATMAP_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif'] as const;
/** Issue 15 cover image: a phone photo or an exported poster fits; see docs/decisions.md "Event cover image". */
export const COVER_MAX_BYTES = 10 * 1024 * 1024;
export const COVER_MIN_WIDTH = 800;
export const COVER_MIN_HEIGHT = 400;
/** What sharp may decode (width x height): a 50 MP camera photo, never a decompression bomb. */
export const COVER_MAX_PIXELS = 50_000_000;
/** The hero crop's two widths (2:1), for the event page's srcset. */
export const COVER_HERO_WIDTHS = [800, 1600] as const;

/** The cover image's public paths on the event site (all null when the event has none). */
const coverFields = {
  /** The hero crop, 1600x800 WebP. */
  coverImageUrl: z.string().nullable().optional(),
  /** The same crop, 800x400 WebP (phones). */
  coverImageSmallUrl: z.string().nullable().optional(),
  /** The social card, 1200x630 JPEG (Open Graph, Twitter). */
  socialImageUrl: z.string().nullable().optional(),
};

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const zUuid = (message: string = M.invalidValue) => z.string({ error: message }).regex(UUID_PATTERN, message);

// The event's /{eventName}/ path segment: lower-case letters, digits and single hyphens.
export const URL_NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const URL_NAME_MAX = 60;

/** A URL name from an event name: lower-case, special characters removed, spaces become hyphens. */
export function urlNameFrom(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, URL_NAME_MAX)
    .replace(/-+$/, '');
}

export const zUrlName = z
  .string({ error: M.urlNameFormat })
  .trim()
  .min(1, M.urlNameFormat)
  .max(URL_NAME_MAX, M.urlNameFormat)
  .regex(URL_NAME_RE, M.urlNameFormat)
  .refine((v) => !isReservedPath(v), M.urlNameReserved);

const ISO_INSTANT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
/** An instant with its offset, e.g. 2025-08-01T19:00:00-04:00; sent back as UTC ISO. */
export const zInstant = z
  .string({ error: M.dateTimeInvalid })
  .regex(ISO_INSTANT_RE, M.dateTimeInvalid)
  .refine((v) => !Number.isNaN(Date.parse(v)), M.dateTimeInvalid);

const text = (max: number) => z.string().trim().max(max, M.invalidValue);

// ---- events --------------------------------------------------------------------------------

/** Every field of an event a console user writes. Create requires the name; update sends any subset. */
export const ZEventFields = z.object({
  name: z
    .string({ error: M.eventNameRequired })
    .trim()
    .min(1, M.eventNameRequired)
    .max(200, M.invalidValue),
  urlName: zUrlName,
  description: text(20_000),
  startDateTime: zInstant.nullable(),
  endDateTime: zInstant.nullable(),
  timeZone: z.string({ error: M.timeZoneInvalid }).refine(isValidTimeZone, M.timeZoneInvalid),
  venueName: text(200),
  address1: text(200),
  city: text(100),
  state: text(100),
  zip: text(12),
  country: text(100),
  /** null: no event-wide cap beyond the ticket types' own quantities. */
  capacity: z.number({ error: M.invalidValue }).int(M.invalidValue).min(1, M.invalidValue).max(MAX_TICKET_QUANTITY, M.invalidValue).nullable(),
  covidSafety: z.boolean(),
  covidSafetyText: text(5_000),
  emailDeliveryVerbiage: text(5_000),
  /** One of the charities the tenant enabled (active ones only); null: no charity. */
  charityId: z.string().trim().max(100, M.eventCharityInvalid).nullable(),
  /** One of the tenant's active surcharge rules; null prices with the tenant's default rule. */
  surchargeRuleId: z.string().trim().min(1, M.invalidValue).max(100, M.invalidValue).nullable(),
});

export const ZCreateEventRequest = z.object({
  details: ZEventFields.partial().required({ name: true }),
});
export type TCreateEventRequest = z.input<typeof ZCreateEventRequest>;

export const ZUpdateEventRequest = z.object({ details: ZEventFields.partial() });
export type TUpdateEventRequest = z.input<typeof ZUpdateEventRequest>;

export const ZEventDetails = z.object({
  name: z.string(),
  urlName: z.string(),
  status: z.enum(EVENT_STATUSES),
  description: z.string(),
  startDateTime: z.string().nullable(),
  endDateTime: z.string().nullable(),
  timeZone: z.string(),
  venueName: z.string(),
  address1: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
  capacity: z.number().int().nullable(),
  remainingCapacity: z.number().int().nullable(),
  covidSafety: z.boolean(),
  covidSafetyText: z.string(),
  emailDeliveryVerbiage: z.string(),
  charityId: z.string().nullable(),
  surchargeRuleId: z.string().nullable(),
  /** The public path of the seat map on the event site, or null. */
  seatMap: z.string().nullable(),
  ...coverFields,
  dateCreated: z.string(),
  dateModified: z.string(),
});

export const ZEvent = z.object({
  id: z.string(),
  tenantId: z.string(),
  details: ZEventDetails,
  /** A cancelled event's refunds of its paid orders (one event's GET only; absent in lists). */
  cancellation: ZCancellationProgress.optional(),
  /** Tickets sold (paid, core soldAndHeld) and held by open checkouts (lists and one event's GET). */
  sales: z.object({ sold: z.number().int(), held: z.number().int() }).optional(),
  /**
   * Issue 28: in the Events list grouped by series (filter details.seriesGrouped), a series' one row
   * is one of its dates with the whole series here: its dates (cancelled ones not counted), the next
   * date's start, capacity and left over the dates still to come, and every date's sales summed.
   */
  series: z
    .object({
      id: z.string(),
      name: z.string(),
      urlName: z.string(),
      dates: z.number().int(),
      nextStartDateTime: z.string().nullable(),
      capacity: z.number().int().nullable(),
      remainingCapacity: z.number().int().nullable(),
      sales: z.object({ sold: z.number().int(), held: z.number().int() }),
    })
    .optional(),
});
export type TEvent = z.infer<typeof ZEvent>;
export const ZEventList = zListResponse(ZEvent);

// ---- ticket types --------------------------------------------------------------------------

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const TIME_RE = /^\d{2}:\d{2}$/;

export const ZTicketTypeFields = z.object({
  name: z.string({ error: M.ticketNameRequired }).trim().min(1, M.ticketNameRequired).max(200, M.invalidValue),
  /** The description (spec §3: ticket type `details`). */
  details: text(5_000),
  price: z.number({ error: M.invalidValue }).int(M.invalidValue).min(0, M.invalidValue).max(MAX_PRICE_CENTS, M.invalidValue),
  quantity: z.number({ error: M.invalidValue }).int(M.invalidValue).min(0, M.invalidValue).max(MAX_TICKET_QUANTITY, M.invalidValue),
  minTicketPerOrder: z.number({ error: M.invalidValue }).int(M.invalidValue).min(1, M.invalidValue).max(MAX_PER_ORDER_LIMIT, M.invalidValue),
  maxTicketPerOrder: z.number({ error: M.invalidValue }).int(M.invalidValue).min(1, M.invalidValue).max(MAX_PER_ORDER_LIMIT, M.invalidValue),
  salesAvailability: z.enum(SALES_AVAILABILITY, { error: M.invalidValue }),
  startDate: z.string().regex(DATE_RE, M.dateTimeInvalid).nullable(),
  startTime: z.string().regex(TIME_RE, M.dateTimeInvalid).nullable(),
  endDate: z.string().regex(DATE_RE, M.dateTimeInvalid).nullable(),
  endTime: z.string().regex(TIME_RE, M.dateTimeInvalid).nullable(),
  otherTicketTypeId: zUuid(M.otherTicketTypeRequired).nullable(),
  sortOrder: z.number().int().min(0).max(10_000),
  active: z.boolean(),
  /** Where it is sold (issue 23): BOTH, ONLINE only, or BOX_OFFICE only. */
  soldAt: z.enum(['BOTH', 'ONLINE', 'BOX_OFFICE'], { error: M.invalidValue }),
});
export type TTicketTypeFields = z.output<typeof ZTicketTypeFields>;

/**
 * Rules across fields, checked on the merged ticket type (create, or stored values plus changes):
 * min <= max; min <= quantity, the ticket type's total (sold and held included), unless the
 * quantity is 0 (nothing for sale); OPT_2 needs a complete window that ends after it starts
 * (compared as wall clocks of the one event zone); OPT_3 needs the linked ticket type.
 */
export function ticketTypeProblems(
  t: Pick<TTicketTypeFields, 'quantity' | 'minTicketPerOrder' | 'maxTicketPerOrder' | 'salesAvailability' | 'startDate' | 'startTime' | 'endDate' | 'endTime' | 'otherTicketTypeId'>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (t.minTicketPerOrder > t.maxTicketPerOrder) problems.minTicketPerOrder = M.minAboveMax;
  // No order could ever meet the minimum (docs/decisions.md "A ticket type's minimum per order").
  else if (t.quantity > 0 && t.minTicketPerOrder > t.quantity) problems.minTicketPerOrder = M.minAboveQuantity;
  if (t.salesAvailability === 'SALES_AVAILABILITY_OPT_2') {
    const missing = (['startDate', 'startTime', 'endDate', 'endTime'] as const).find((k) => !t[k]);
    if (missing) problems[missing] = M.salesWindowRequired;
    else if (`${t.endDate}T${t.endTime}` <= `${t.startDate}T${t.startTime}`) problems.endDate = M.salesWindowOrder;
  }
  if (t.salesAvailability === 'SALES_AVAILABILITY_OPT_3' && !t.otherTicketTypeId) problems.otherTicketTypeId = M.otherTicketTypeRequired;
  return problems;
}

export const TICKET_TYPE_DEFAULTS = {
  details: '',
  minTicketPerOrder: 1,
  maxTicketPerOrder: DEFAULT_MAX_PER_ORDER,
  salesAvailability: 'SALES_AVAILABILITY_OPT_1',
  startDate: null,
  startTime: null,
  endDate: null,
  endTime: null,
  otherTicketTypeId: null,
  sortOrder: 0,
  active: true,
  soldAt: 'BOTH',
} as const satisfies Partial<TTicketTypeFields>;

export const ZCreateTicketTypeRequest = z.object({
  details: ZTicketTypeFields.partial().required({ name: true, price: true, quantity: true }),
});
export type TCreateTicketTypeRequest = z.input<typeof ZCreateTicketTypeRequest>;

export const ZUpdateTicketTypeRequest = z.object({ details: ZTicketTypeFields.partial() });
export type TUpdateTicketTypeRequest = z.input<typeof ZUpdateTicketTypeRequest>;

const ticketTypeDetailsShape = {
  name: z.string(),
  details: z.string(),
  price: z.number().int(),
  remainingQuantity: z.number().int(),
  minTicketPerOrder: z.number().int(),
  maxTicketPerOrder: z.number().int(),
  salesAvailability: z.string(),
  startDate: z.string().nullable(),
  startTime: z.string().nullable(),
  endDate: z.string().nullable(),
  endTime: z.string().nullable(),
  /** The window as instants, computed with the event's time zone. */
  salesStartAt: z.string().nullable(),
  salesEndAt: z.string().nullable(),
  otherTicketTypeId: z.string().nullable(),
  sortOrder: z.number().int(),
  /** The spec's sort key; here the ticket type id. */
  sk: z.string(),
};

export const ZTicketType = z.object({
  id: z.string(),
  details: z.object({
    ...ticketTypeDetailsShape,
    eventId: z.string(),
    quantity: z.number().int(),
    /** Sold or held: quantity - remainingQuantity. */
    soldOrHeld: z.number().int(),
    /** Paid tickets, not voided (core soldAndHeld): what every console calls sold. */
    sold: z.number().int(),
    /** Held by checkouts still open: shown apart as "in checkouts". */
    held: z.number().int(),
    active: z.boolean(),
    /** Where it is sold (issue 23): BOTH, ONLINE or BOX_OFFICE. */
    soldAt: z.string(),
    dateCreated: z.string(),
  }),
});
export type TTicketType = z.infer<typeof ZTicketType>;
export const ZTicketTypeList = z.object({ result: z.array(ZTicketType), count: z.number().int(), cursor: z.string().nullable() });

// ---- discount codes ------------------------------------------------------------------------

export const DISCOUNT_KINDS = ['percent', 'amount'] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];
export const DISCOUNT_CODE_RE = /^[A-Za-z0-9_-]{1,40}$/;

export const zDiscountCode = z
  .string({ error: M.discountRequired })
  .trim()
  .min(1, M.discountRequired)
  .max(40, M.discountCodeFormat)
  .regex(DISCOUNT_CODE_RE, M.discountCodeFormat)
  .transform((v) => v.toUpperCase());

export const ZDiscountCodeFields = z.object({
  code: zDiscountCode,
  kind: z.enum(DISCOUNT_KINDS, { error: M.invalidValue }),
  /** A percentage (10 = 10%, at most 2 decimals) or cents, by kind. */
  value: z.number({ error: M.invalidValue }).positive(M.invalidValue).max(MAX_PRICE_CENTS, M.invalidValue),
  usageLimit: z.number({ error: M.invalidValue }).int(M.invalidValue).min(1, M.invalidValue).max(MAX_TICKET_QUANTITY, M.invalidValue).nullable(),
  startsAt: zInstant.nullable(),
  endsAt: zInstant.nullable(),
  /** Empty: every ticket type of the event. */
  ticketTypeIds: z.array(zUuid(M.discountTicketTypes)).max(200),
  active: z.boolean(),
});
export type TDiscountCodeFields = z.output<typeof ZDiscountCodeFields>;

export function discountCodeProblems(d: Pick<TDiscountCodeFields, 'kind' | 'value' | 'startsAt' | 'endsAt'>): Record<string, string> {
  const problems: Record<string, string> = {};
  if (d.kind === 'percent') {
    const hundredths = d.value * 100;
    if (d.value <= 0 || d.value > 100 || Math.abs(Math.round(hundredths) - hundredths) > 1e-9) problems.value = M.discountPercentRange;
  } else if (!Number.isInteger(d.value) || d.value <= 0) problems.value = M.invalidValue;
  if (d.startsAt && d.endsAt && Date.parse(d.endsAt) <= Date.parse(d.startsAt)) problems.endsAt = M.salesWindowOrder;
  return problems;
}

export const ZCreateDiscountCodeRequest = z.object({
  details: ZDiscountCodeFields.partial().required({ code: true, kind: true, value: true }),
});
export type TCreateDiscountCodeRequest = z.input<typeof ZCreateDiscountCodeRequest>;
export const ZUpdateDiscountCodeRequest = z.object({ details: ZDiscountCodeFields.partial() });
export type TUpdateDiscountCodeRequest = z.input<typeof ZUpdateDiscountCodeRequest>;

export const ZDiscountCode = z.object({
  id: z.string(),
  details: z.object({
    eventId: z.string(),
    code: z.string(),
    kind: z.enum(DISCOUNT_KINDS),
    value: z.number(),
    usageLimit: z.number().int().nullable(),
    usedCount: z.number().int(),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    ticketTypeIds: z.array(z.string()),
    active: z.boolean(),
    dateCreated: z.string(),
  }),
});
export type TDiscountCode = z.infer<typeof ZDiscountCode>;
export const ZDiscountCodeList = zListResponse(ZDiscountCode);

// ---- the attendee site (public) -------------------------------------------------------------

/** spec: reports-payouts-checkout §3 Event public settings, §7 GET /p/tenants/{tenantId}/events/{eventId}/setting */
export const ZPublicEventSettings = z.object({
  /** Tickets the event can still sell: its remaining capacity, or what its ticket types have left. */
  remainingCapacity: z.number().int(),
  emailDeliveryVerbiage: z.string(),
  covidSafety: z.boolean(),
  covidSafetyText: z.string(),
  timeZone: z.string(),
  seatMap: z.string().nullable(),
  /** The charity that receives donations on this event (active and enabled by the tenant), or null. */
  charity: ZPublicCharity.nullable(),
  /** The tenant's ticket setting: sold-out ticket types stay on the menu as sold out (see ticketTypesOnMenu). */
  autoShowActiveTicketsAsSoldOut: z.boolean(),
});
export type TPublicEventSettings = z.infer<typeof ZPublicEventSettings>;

export const ZPublicTicketType = z.object({
  id: z.string(),
  details: z.object({
    ...ticketTypeDetailsShape,
    available: z.boolean(),
    /**
     * Issue 15: what one ticket of this type costs the buyer online, the fees they pay (and taxes)
     * included, from the one pricing function (docs/pricing.md), in cents.
     */
    allInPrice: z.number().int(),
  }),
});
export type TPublicTicketType = z.infer<typeof ZPublicTicketType>;

export const ZPublicEvent = z.object({
  id: z.string(),
  tenantId: z.string(),
  details: z.object({
    name: z.string(),
    urlName: z.string(),
    status: z.enum(EVENT_STATUSES),
    description: z.string(),
    startDateTime: z.string().nullable(),
    endDateTime: z.string().nullable(),
    timeZone: z.string(),
    venueName: z.string(),
    address1: z.string(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
    country: z.string(),
    covidSafety: z.boolean(),
    covidSafetyText: z.string(),
    seatMap: z.string().nullable(),
    ...coverFields,
    /** The organiser's contact e-mail, on a cancelled event only (issue 15). */
    contactEmail: z.string().nullable().optional(),
    /**
     * Issue 24: the organiser keeps a waiting list for this event (on unless they turned it off), so a
     * sold-out ticket type offers "Join the waiting list". Absent from builds before it: not offered.
     */
    waitlist: z.boolean().optional(),
    /** Issue 28: the date's series (its public page is /series/{seriesUrlName}); null: not a series date. */
    seriesUrlName: z.string().nullable().optional(),
    /**
     * Issue 27 (paint): the event sells seats; `version` is its seating plan's (the map's) version.
     * The ticket menu shows the map's preview image from the first paint. Null or absent: no seats.
     */
    seating: z.object({ version: z.string() }).nullable().optional(),
  }),
  ticketTypes: z.array(ZPublicTicketType),
  settings: ZPublicEventSettings,
});
export type TPublicEvent = z.infer<typeof ZPublicEvent>;

/** One upcoming public event on the tenant host's /events page (issue 13), GET /api/p/events. */
export type TPublicEventSummary = {
  urlName: string;
  name: string;
  startDateTime: string | null;
  timeZone: string;
  venueName: string;
  city: string;
  status: 'published' | 'cancelled';
  /** The lowest all-in price of a ticket on sale now, in cents; null when none is. */
  priceFrom: number | null;
  coverImageUrl: string | null;
};
export type TPublicEventList = { result: TPublicEventSummary[]; count: number; cursor: string | null };
