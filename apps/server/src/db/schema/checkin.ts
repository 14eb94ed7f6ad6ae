import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Every scan at the door (issue 11): admissions, refusals and undos, with the ticket, device, person
 * and time. `tickets.used` stays the truth the reports read; this is the record of how it got there.
 */
export const checkinScans = pgTable(
  'checkin_scans',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    eventId: uuid('event_id').notNull(),
    /** null when the code was unknown or forged. */
    ticketId: uuid('ticket_id'),
    /** The device's own id for the scan: the same one again answers the first answer (offline sync retries). Null for undos. */
    clientScanId: uuid('client_scan_id'),
    deviceId: text('device_id').notNull(),
    userId: uuid('user_id').notNull(),
    /** admit (a scan or a manual check-in) | undo */
    kind: text('kind').notNull(),
    /** admitted | already_used | voided | refunded | other_event | unknown | forged; undone for an undo. */
    result: text('result').notNull(),
    /** The admission an undo took back. */
    undoneOf: uuid('undone_of'),
    /** The device's clock when it scanned (offline scans arrive later). */
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    /** JSON: what the answer needs to be given again (the earlier admission on already_used), or how it was entered. */
    details: text('details'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('checkin_scans_client_scan_key').on(t.tenantId, t.clientScanId),
    // One undo per admission, even when two devices press Undo at once.
    uniqueIndex('checkin_scans_undone_of_key').on(t.tenantId, t.undoneOf),
    index('checkin_scans_event_idx').on(t.tenantId, t.eventId, t.recordedAt),
    index('checkin_scans_ticket_idx').on(t.tenantId, t.ticketId),
  ],
);
