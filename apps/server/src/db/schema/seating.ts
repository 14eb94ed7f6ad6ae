import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// Issue 27: reserved seating (docs/decisions.md "Issue 27.1: seats are copied per event").
// A venue layout is the tenant's reusable plan (sections generated from a grid, seats with their
// flags); an event that sells seats gets its own copy of the seats (event_seats), with the ticket
// type each category sells as and each seat's state. A seat row holds at most one of: a live seat
// hold (hold_id) or an order's ticket (order_id); a blocked or kept-back seat holds neither. The
// CHECK constraints below say so, and the row is the seat (one per event and seat), so a seat is in
// at most one hold or one ticket whatever the code does.

export const venueLayouts = pgTable(
  'venue_layouts',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

/** A block of seats generated from a grid (core seating.ts generateSeats), in the layout's order. */
export const venueSections = pgTable(
  'venue_sections',
  {
    tenantId: uuid('tenant_id').notNull(),
    layoutId: uuid('layout_id').notNull(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    category: text('category').notNull(),
    rows: integer('rows').notNull(),
    seatsPerRow: integer('seats_per_row').notNull(),
    /** letters | numbers */
    rowLabels: text('row_labels').notNull(),
    firstRow: integer('first_row').notNull().default(1),
    /** ltr | rtl | odd-even */
    numbering: text('numbering').notNull(),
    /** Seat positions (1-based) after which an aisle gap opens, as a comma list. */
    aisleAfter: text('aisle_after').notNull().default(''),
    curve: integer('curve').notNull().default(0),
    angle: integer('angle').notNull().default(0),
    x: integer('x').notNull().default(0),
    y: integer('y').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.layoutId, t.position] })],
);

/** A seat's house flags in a layout, by its key (section|row|seat); seats without flags have no row. */
export const venueSeatFlags = pgTable(
  'venue_seat_flags',
  {
    tenantId: uuid('tenant_id').notNull(),
    layoutId: uuid('layout_id').notNull(),
    seatKey: text('seat_key').notNull(),
    /** open | blocked | kept */
    status: text('status').notNull().default('open'),
    accessible: boolean('accessible').notNull().default(false),
    companion: boolean('companion').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.layoutId, t.seatKey] }), check('venue_seat_flags_status', sql`${t.status} in ('open', 'blocked', 'kept')`)],
);

/** The event's seating: the layout it was copied from and which ticket type each category sells as. */
export const eventSeating = pgTable(
  'event_seating',
  {
    tenantId: uuid('tenant_id').notNull(),
    eventId: uuid('event_id').notNull(),
    layoutId: uuid('layout_id').notNull(),
    layoutName: text('layout_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventId] })],
);

export const eventSeatCategories = pgTable(
  'event_seat_categories',
  {
    tenantId: uuid('tenant_id').notNull(),
    eventId: uuid('event_id').notNull(),
    category: text('category').notNull(),
    ticketTypeId: uuid('ticket_type_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventId, t.category] })],
);

export const eventSeats = pgTable(
  'event_seats',
  {
    tenantId: uuid('tenant_id').notNull(),
    eventId: uuid('event_id').notNull(),
    /** The seat's number in the event (0..n-1): what the map and the API name it by. */
    n: integer('n').notNull(),
    section: text('section').notNull(),
    rowLabel: text('row_label').notNull(),
    seatLabel: text('seat_label').notNull(),
    /** What a ticket and a person read: 'Section · Row C · Seat 12' (core seatLabelOf). */
    label: text('label').notNull(),
    /** Rows across the layout in order, and the seat's position along its row (gaps included): adjacency. */
    rowKey: integer('row_key').notNull(),
    seatIndex: integer('seat_index').notNull(),
    x: real('x').notNull(),
    y: real('y').notNull(),
    category: text('category').notNull(),
    ticketTypeId: uuid('ticket_type_id'),
    accessible: boolean('accessible').notNull().default(false),
    companion: boolean('companion').notNull().default(false),
    /** open | blocked | kept */
    status: text('status').notNull().default('open'),
    /** Lower is better: front and centre (core seatScore). */
    score: integer('score').notNull(),
    holdId: uuid('hold_id'),
    orderId: uuid('order_id'),
    ticketId: uuid('ticket_id'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.eventId, t.n] }),
    uniqueIndex('event_seats_label_key').on(t.tenantId, t.eventId, t.section, t.rowLabel, t.seatLabel),
    uniqueIndex('event_seats_ticket_key').on(t.tenantId, t.ticketId),
    index('event_seats_hold_idx').on(t.tenantId, t.holdId),
    index('event_seats_order_idx').on(t.tenantId, t.orderId),
    index('event_seats_free_idx')
      .on(t.tenantId, t.eventId, t.ticketTypeId, t.score)
      .where(sql`${t.status} = 'open' and ${t.holdId} is null and ${t.orderId} is null`),
    check('event_seats_one_holder', sql`${t.holdId} is null or ${t.orderId} is null`),
    check('event_seats_status', sql`${t.status} in ('open', 'blocked', 'kept')`),
    check('event_seats_closed_free', sql`${t.status} = 'open' or (${t.holdId} is null and ${t.orderId} is null)`),
  ],
);

/** A buyer's seats, held for the checkout with an expiry; attached to the order that buys them. */
export const seatHolds = pgTable(
  'seat_holds',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    eventId: uuid('event_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** live | released | sold */
    status: text('status').notNull().default('live'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    orderId: uuid('order_id'),
    /** The seats a hold attached to an order had when it was released: a payment that arrives late takes them again if they are still free. */
    releasedSeats: integer('released_seats').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('seat_holds_order_idx').on(t.tenantId, t.orderId),
    index('seat_holds_live_idx').on(t.expiresAt).where(sql`${t.status} = 'live'`),
    check('seat_holds_status', sql`${t.status} in ('live', 'released', 'sold')`),
  ],
);
