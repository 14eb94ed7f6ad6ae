import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy.js';

/**
 * Issue 28: Apple Wallet's pass web service (docs/wallet.md). A device that added a pass registers
 * for its updates: the device's library id, the pass (type id and serial number: the ticket's uid)
 * and the push token Apple gave the device. Wallet unregisters when the pass is deleted.
 */
export const applePassRegistrations = pgTable(
  'apple_pass_registrations',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    deviceLibraryId: text('device_library_id').notNull(),
    passTypeId: text('pass_type_id').notNull(),
    serialNumber: text('serial_number').notNull(),
    /** The ticket's event, to find the passes a change of the event touches. */
    eventId: uuid('event_id').notNull(),
    pushToken: text('push_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.deviceLibraryId, t.passTypeId, t.serialNumber] }),
    index('apple_pass_registrations_serial').on(t.tenantId, t.serialNumber),
    index('apple_pass_registrations_event').on(t.tenantId, t.eventId),
  ],
);

/**
 * The last pass served or checked for each registered serial: a digest of what the pass shows, and
 * when that last changed (the pass's Last-Modified and the "updated since" tag Wallet sends back).
 */
export const applePassVersions = pgTable(
  'apple_pass_versions',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    serialNumber: text('serial_number').notNull(),
    digest: text('digest').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.serialNumber] })],
);
