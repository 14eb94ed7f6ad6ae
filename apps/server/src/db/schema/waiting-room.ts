import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy.js';

// The optional waiting room of an event's on-sale (issue 13, modules/waiting-room).

/** One per event that has ever had its waiting room set; `enabled` turns it on and off. */
export const waitingRooms = pgTable(
  'waiting_rooms',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    eventId: uuid('event_id').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    admitPerMinute: integer('admit_per_minute').notNull(),
    /** Visitors who joined before opening (drawn in random order at opening). */
    earlyCount: integer('early_count').notNull().default(0),
    /** The admission time given to the latest visitor who joined after opening. */
    lastAdmitAt: timestamp('last_admit_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventId] })],
);

/** A place in line. Early visitors have a lottery number; the others an admission time at once. */
export const waitingRoomVisitors = pgTable(
  'waiting_room_visitors',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: uuid('id').notNull(),
    eventId: uuid('event_id').notNull(),
    lottery: integer('lottery'),
    /**
     * The draw's round: an early visitor draws in round n when their address already had
     * n × ADDRESS_PLACES_PER_ROUND places in the draw (issue 21 §1); the draw ranks by round, then
     * lottery number.
     */
    drawRound: integer('draw_round').notNull().default(0),
    admitAt: timestamp('admit_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('waiting_room_visitors_draw').on(t.tenantId, t.eventId, t.drawRound, t.lottery, t.id)],
);

/**
 * Places taken in an event's line per client network (an IPv4 address, an IPv6 /64), kept as a
 * keyed hash of the network, never the address itself (issue 21 §1).
 */
export const waitingRoomAddresses = pgTable(
  'waiting_room_addresses',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    eventId: uuid('event_id').notNull(),
    addressKey: text('address_key').notNull(),
    places: integer('places').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventId, t.addressKey] })],
);
