import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantCharities } from './charities.js';
import { eventSeries, seriesTicketTypes } from './series.js';
import { tenants } from './tenancy.js';

// What is on sale and what was sold. Every table is tenant-owned: tenant_id is NOT NULL and leads
// the primary key, so the schema can be distributed by tenant. Amounts are integer cents.

export const events = pgTable(
  'events',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    /** The attendee site's /{eventName}/ path segment; never a reserved console path. */
    urlName: text('url_name').notNull(),
    /** draft | published | cancelled */
    status: text('status').notNull().default('draft'),
    /**
     * When the event was first published; never cleared. A cancelled event that was once public
     * shows its page as cancelled; one that never was stays hidden like a draft.
     */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    description: text('description').notNull().default(''),
    startDateTime: timestamp('start_date_time', { withTimezone: true }),
    endDateTime: timestamp('end_date_time', { withTimezone: true }),
    timeZone: text('time_zone').notNull().default('America/New_York'),
    venueName: text('venue_name').notNull().default(''),
    address1: text('address1').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zip: text('zip').notNull().default(''),
    country: text('country').notNull().default('USA'),
    /** null = no event-wide cap beyond the ticket types' own quantities */
    capacity: integer('capacity'),
    remainingCapacity: integer('remaining_capacity'),
    covidSafetyEnabled: boolean('covid_safety_enabled').notNull().default(false),
    covidSafetyText: text('covid_safety_text').notNull().default(''),
    emailDeliveryVerbiage: text('email_delivery_verbiage').notNull().default(''),
    seatmapKey: text('seatmap_key'),
    /**
     * Issue 15: the current cover image's id; its crops are stored under
     * tenants/{tenant}/events/{event}/cover/{id}/ (modules/events/cover.ts). A new id per upload,
     * so its public URLs can be cached for good.
     */
    coverImageId: text('cover_image_id'),
    /** The charity donations go to: one the tenant enabled (see the foreign key below); null: none. */
    charityId: uuid('charity_id'),
    /** The tenant's surcharge rule this event is priced with; null: the tenant's default rule. */
    surchargeRuleId: text('surcharge_rule_id'),
    /** Issue 28: the series this event is one date (or slot) of; null: a single event. */
    seriesId: uuid('series_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('events_id_key').on(t.id),
    uniqueIndex('events_url_name_key').on(t.tenantId, t.urlName),
    check('events_remaining_capacity_nonneg', sql`${t.remainingCapacity} is null or ${t.remainingCapacity} >= 0`),
    // Disabling a charity for the tenant clears its events first (modules/charities), so this never blocks it.
    foreignKey({ name: 'events_charity_fk', columns: [t.tenantId, t.charityId], foreignColumns: [tenantCharities.tenantId, tenantCharities.charityId] }),
    foreignKey({ name: 'events_series_fk', columns: [t.tenantId, t.seriesId], foreignColumns: [eventSeries.tenantId, eventSeries.id] }),
    index('events_series_idx').on(t.tenantId, t.seriesId, t.startDateTime),
  ],
);

export const ticketTypes = pgTable(
  'ticket_types',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    eventId: uuid('event_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    price: integer('price').notNull(),
    quantity: integer('quantity').notNull(),
    remaining: integer('remaining').notNull(),
    minPerOrder: integer('min_per_order').notNull().default(1),
    maxPerOrder: integer('max_per_order').notNull().default(10),
    /** SALES_AVAILABILITY_OPT_1 always | _2 within the window | _3 while the linked type is available */
    salesAvailability: text('sales_availability').notNull().default('SALES_AVAILABILITY_OPT_1'),
    /** The window as the organiser typed it, local to the event's time zone (spec fields). */
    startDate: text('start_date'),
    startTime: text('start_time'),
    endDate: text('end_date'),
    endTime: text('end_time'),
    /** The same window as instants, computed with the event's time zone. */
    salesStartAt: timestamp('sales_start_at', { withTimezone: true }),
    salesEndAt: timestamp('sales_end_at', { withTimezone: true }),
    otherTicketTypeId: uuid('other_ticket_type_id'),
    /** Where it is sold (issue 23, core TICKET_SOLD_AT): BOTH, ONLINE (the attendee site only) or BOX_OFFICE. */
    soldAt: text('sold_at').notNull().default('BOTH'),
    sortOrder: integer('sort_order').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /** Issue 28: the series ticket type this date's copy was made from; null: the event's own. */
    seriesTicketTypeId: uuid('series_ticket_type_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ name: 'ticket_types_series_tt_fk', columns: [t.tenantId, t.seriesTicketTypeId], foreignColumns: [seriesTicketTypes.tenantId, seriesTicketTypes.id] }),
    index('ticket_types_event_idx').on(t.tenantId, t.eventId),
    check('ticket_types_remaining_nonneg', sql`${t.remaining} >= 0`),
    check('ticket_types_price_nonneg', sql`${t.price} >= 0`),
    check('ticket_types_sold_at_known', sql`${t.soldAt} in ('BOTH', 'ONLINE', 'BOX_OFFICE')`),
  ],
);

export const discountCodes = pgTable(
  'discount_codes',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    eventId: uuid('event_id').notNull(),
    /** Stored upper-case (spec: discount code shown uppercase). */
    code: text('code').notNull(),
    /** percent (value = percent x 100, i.e. basis points) | amount (value = cents) */
    kind: text('kind').notNull(),
    value: integer('value').notNull(),
    usageLimit: integer('usage_limit'),
    usedCount: integer('used_count').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** Empty = every ticket type of the event. */
    ticketTypeIds: uuid('ticket_type_ids').array().notNull().default(sql`'{}'::uuid[]`),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('discount_codes_code_key').on(t.tenantId, t.eventId, t.code),
    // Like remaining >= 0 on ticket types: a use past the limit is refused by the database itself.
    check('discount_codes_usage_within_limit', sql`${t.usageLimit} is null or ${t.usedCount} <= ${t.usageLimit}`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    /** Human-facing order id (spec: orderUID). */
    orderUid: text('order_uid').notNull(),
    eventId: uuid('event_id').notNull(),
    /** draft (holding tickets) | processing (paid, fulfilling) | completed | expired | cancelled */
    status: text('status').notNull().default('draft'),
    /** online | backend | app */
    source: text('source').notNull().default('online'),
    email: text('email').notNull().default(''),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    phone: text('phone'),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    country: text('country'),
    optInEmail: boolean('opt_in_email').notNull().default(false),
    optInText: boolean('opt_in_text').notNull().default(false),
    discountCode: text('discount_code'),
    discountCodeId: uuid('discount_code_id'),
    ticketCount: integer('ticket_count').notNull().default(0),
    subtotal: integer('subtotal').notNull().default(0),
    surcharge: integer('surcharge').notNull().default(0),
    processingFee: integer('processing_fee').notNull().default(0),
    gatewayProcessingFee: integer('gateway_processing_fee').notNull().default(0),
    discount: integer('discount').notNull().default(0),
    vat: integer('vat').notNull().default(0),
    /** Percent x 100 (basis points) at the time of the order. */
    taxRate: integer('tax_rate').notNull().default(0),
    donation: integer('donation').notNull().default(0),
    /** The fee on the donation, paid by the customer and kept by the platform (docs/pricing.md); reports sum it. */
    donationFee: integer('donation_fee').notNull().default(0),
    /**
     * The charity the donation is for, copied from the event when the order was placed (null without
     * a donation). No foreign key, and the name beside it: reports outlive a charity's deletion.
     */
    charityId: uuid('charity_id'),
    charityName: text('charity_name'),
    totalAmount: integer('total_amount').notNull().default(0),
    tenantTotal: integer('tenant_total').notNull().default(0),
    platformTotal: integer('platform_total').notNull().default(0),
    /** The full breakdown from the pricing engine, as computed (audit). */
    breakdown: text('breakdown'),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    /** sha256 of the token that shows this order on the success page (returned once, at creation). */
    viewTokenHash: text('view_token_hash'),
    /** The signed-in attendee who placed it, if any. */
    userId: uuid('user_id'),
    /**
     * The waiting-room admission (waiting_room_visitors.id) it was placed with, when the event's
     * room was on: an admission is good for a few orders (issue 21 §1, db/functions/mq-take-holds.sql).
     */
    waitingRoomVisitorId: uuid('waiting_room_visitor_id'),
    /**
     * The waiting-list entry (waitlist_entries.id) whose offer this order holds or buys (issue 24):
     * the offer's draft, and the order that takes its place at PLACE ORDER.
     */
    waitlistEntryId: uuid('waitlist_entry_id'),
    /**
     * Where the order was sold (core PASS_ALONG_CHANNELS, seed's serviceFeePassAlongOption{Online,Backend,App}):
     * ONLINE on the attendee site, BACKEND at the box office, APP through an API key. Priced with that
     * channel's pass-along option.
     */
    channel: text('channel').notNull().default('ONLINE'),
    paymentProvider: text('payment_provider'),
    paymentSessionId: text('payment_session_id'),
    /** card | free | (box office, issue 23) cash | card_terminal | complimentary */
    paymentMethod: text('payment_method'),
    /** Box office (issue 23): the staff member (users.id) who sold it; null for every other order. */
    soldBy: uuid('sold_by'),
    /** Box office, card on the venue's own terminal: the terminal's reference for the payment. */
    terminalReference: text('terminal_reference'),
    /** Box office, cash: what the buyer handed over, in cents (the change is this less total_amount). */
    cashTendered: integer('cash_tendered'),
    /** Box office: the sale's idempotency key, unique per tenant, so a retry never sells twice. */
    idempotencyKey: text('idempotency_key'),
    chargeId: text('charge_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /**
     * Kept by database triggers (migration 0006_reports, docs/reports.md): the order's valid tickets
     * priced above 0, priced 0, and used; its succeeded refunds and the organiser's share of them.
     * Never written by the application.
     */
    ticketsSold: integer('tickets_sold').notNull().default(0),
    ticketsComplimentary: integer('tickets_complimentary').notNull().default(0),
    ticketsUsed: integer('tickets_used').notNull().default(0),
    refundsSucceeded: integer('refunds_succeeded').notNull().default(0),
    refundsSucceededTenant: integer('refunds_succeeded_tenant').notNull().default(0),
    refunded: boolean('refunded').notNull().default(false),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('orders_id_key').on(t.id),
    uniqueIndex('orders_order_uid_key').on(t.orderUid),
    index('orders_event_idx').on(t.tenantId, t.eventId, t.createdAt),
    index('orders_hold_idx').on(t.holdExpiresAt).where(sql`status = 'draft'`),
    index('orders_payment_session_idx').on(t.paymentSessionId),
    check('orders_channel_known', sql`${t.channel} in ('ONLINE', 'BACKEND', 'APP')`),
    uniqueIndex('orders_idempotency_key').on(t.tenantId, t.idempotencyKey).where(sql`idempotency_key is not null`),
    index('orders_sold_by_idx').on(t.tenantId, t.soldBy).where(sql`sold_by is not null`),
    index('orders_waiting_room_visitor_idx').on(t.tenantId, t.waitingRoomVisitorId).where(sql`waiting_room_visitor_id is not null`),
    index('orders_waitlist_entry_idx').on(t.tenantId, t.waitlistEntryId).where(sql`waitlist_entry_id is not null`),
  ],
);

export const orderLines = pgTable(
  'order_lines',
  {
    tenantId: uuid('tenant_id').notNull(),
    orderId: uuid('order_id').notNull(),
    ticketTypeId: uuid('ticket_type_id').notNull(),
    ticketName: text('ticket_name').notNull(),
    unitPrice: integer('unit_price').notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.orderId, t.ticketTypeId] }), check('order_lines_quantity_pos', sql`${t.quantity} > 0`)],
);

export const tickets = pgTable(
  'tickets',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    /** The unguessable id printed in the QR code. */
    ticketUid: text('ticket_uid').notNull(),
    orderId: uuid('order_id').notNull(),
    eventId: uuid('event_id').notNull(),
    ticketTypeId: uuid('ticket_type_id').notNull(),
    ticketTypeName: text('ticket_type_name').notNull(),
    price: integer('price').notNull(),
    fullName: text('full_name').notNull().default(''),
    email: text('email').notNull().default(''),
    contactNumber: text('contact_number'),
    used: boolean('used').notNull().default(false),
    voided: boolean('voided').notNull().default(false),
    voidReason: text('void_reason'),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    /** Who voided (or last unvoided) it; the full history is in order_actions. */
    voidedBy: uuid('voided_by'),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The door device, person and check-in scan that admitted it (modules/checkin); null while not used. */
    usedByDevice: text('used_by_device'),
    usedByUser: uuid('used_by_user'),
    usedByScan: uuid('used_by_scan'),
    /** Issue 27: the reserved seat, 'Section · Row · Seat' (set from event_seats when the ticket is issued); null: general admission. */
    seatLabel: text('seat_label'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('tickets_uid_key').on(t.ticketUid),
    index('tickets_order_idx').on(t.tenantId, t.orderId),
    index('tickets_event_idx').on(t.tenantId, t.eventId, t.createdAt),
  ],
);

/** Provider webhook events already processed: the dedupe that makes webhooks idempotent. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    orderId: uuid('order_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

export const subscribers = pgTable(
  'subscribers',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    eventId: uuid('event_id').notNull(),
    email: text('email').notNull(),
    /**
     * What the buyer opted in to at checkout (issue 21): e-mail news (the messages to attendees'
     * marketing audience), text messages to `phone`, or both. A row has at least one.
     */
    optInEmail: boolean('opt_in_email').notNull().default(true),
    optInText: boolean('opt_in_text').notNull().default(false),
    phone: text('phone'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('subscribers_event_email_key').on(t.tenantId, t.eventId, t.email)],
);
