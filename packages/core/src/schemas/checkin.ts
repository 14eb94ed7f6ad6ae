import { z } from 'zod';
import { M } from '../messages.js';

// Door check-in (issue 11): the API under /api/tenants/:tenantId/events/:eventId/checkin, shared by
// the server (validation, OpenAPI) and the check-in page. A refused scan is an answer (200 with its
// result), not an error.

/** Where a ticket stands at the door. */
export const CHECKIN_TICKET_STATES = ['valid', 'used', 'voided', 'refunded'] as const;
export type CheckinTicketState = (typeof CHECKIN_TICKET_STATES)[number];

/** What a scan answers: admitted, or why not. */
/** transferred (issue 24): the code is a ticket's old one, from before its buyer passed it on. */
export const CHECKIN_SCAN_RESULTS = ['admitted', 'already_used', 'voided', 'refunded', 'transferred', 'other_event', 'unknown', 'forged'] as const;
export type CheckinScanResult = (typeof CHECKIN_SCAN_RESULTS)[number];

/** Most scans a device sends in one sync. */
export const CHECKIN_SYNC_MAX = 500;
/** Results the search answers at most. */
export const CHECKIN_SEARCH_MAX = 20;
export const CHECKIN_SEARCH_MIN_LENGTH = 2;

export const CHECKIN_PATHS = {
  base: (tenantId: string, eventId: string) => `/api/tenants/${tenantId}/events/${eventId}/checkin`,
  manifest: (tenantId: string, eventId: string) => `${CHECKIN_PATHS.base(tenantId, eventId)}/manifest`,
  scans: (tenantId: string, eventId: string) => `${CHECKIN_PATHS.base(tenantId, eventId)}/scans`,
  undo: (tenantId: string, eventId: string, scanId: string) => `${CHECKIN_PATHS.base(tenantId, eventId)}/scans/${scanId}/undo`,
  sync: (tenantId: string, eventId: string) => `${CHECKIN_PATHS.base(tenantId, eventId)}/sync`,
  search: (tenantId: string, eventId: string, q: string) => `${CHECKIN_PATHS.base(tenantId, eventId)}/search?q=${encodeURIComponent(q)}`,
  counters: (tenantId: string, eventId: string) => `${CHECKIN_PATHS.base(tenantId, eventId)}/counters`,
} as const;

/** Who admitted a ticket: the device and the signed-in person's name. */
export const ZCheckinUsedBy = z.object({ deviceId: z.string(), name: z.string() });
export type TCheckinUsedBy = z.infer<typeof ZCheckinUsedBy>;

export const ZCheckinTicket = z.object({
  id: z.string(),
  /** The Ticket ID printed on the ticket. */
  ticketUid: z.string(),
  /** The order's Order ID (orderUID). */
  orderId: z.string(),
  fullName: z.string(),
  email: z.string(),
  ticketTypeId: z.string(),
  ticketTypeName: z.string(),
  /** Issue 27: the reserved seat; null (or absent, in a manifest kept offline from before): general admission. */
  seat: z.string().nullable().optional(),
  state: z.enum(CHECKIN_TICKET_STATES),
  usedAt: z.string().nullable(),
  usedBy: ZCheckinUsedBy.nullable(),
});
export type TCheckinTicket = z.infer<typeof ZCheckinTicket>;

export const ZCheckinTicketTypeCount = z.object({ id: z.string(), name: z.string(), sold: z.number().int(), checkedIn: z.number().int() });

export const ZCheckinManifest = z.object({
  eventId: z.string(),
  /** base64url of the raw 32-byte Ed25519 public key that verifies the tickets' codes. */
  publicKey: z.string(),
  generatedAt: z.string(),
  tickets: z.array(ZCheckinTicket),
  ticketTypes: z.array(ZCheckinTicketTypeCount),
  /** Issue 24: Ticket IDs whose codes no longer admit because the ticket was passed on (a device answers transferred offline). */
  revoked: z.array(z.object({ ticketUid: z.string(), reason: z.literal('transferred'), at: z.string() })),
});
export type TCheckinManifest = z.infer<typeof ZCheckinManifest>;

const zDeviceId = z.string({ error: M.checkinDeviceId }).trim().min(1, M.checkinDeviceId).max(100, M.checkinDeviceId);
const zClientScanId = z.uuid({ error: M.checkinClientScanId });
const zScannedAt = z.iso.datetime({ offset: true, error: M.checkinScannedAt });
/** The scanned QR text; bounded well above a real code's 154 characters. */
const zCode = z.string({ error: M.checkinCodeOrTicket }).max(1000, M.checkinCodeTooLong);
/** The ticket's uuid or its printed Ticket ID (manual check-in). */
const zTicketRef = z.string({ error: M.checkinCodeOrTicket }).trim().min(1, M.checkinCodeOrTicket).max(100, M.checkinTicketIdInvalid);

/**
 * One scan. Exactly one of `code` / `ticketId` (checked by the service, after the access check, so
 * that a caller without access learns nothing from a 400).
 */
export const ZCheckinScanRequest = z.object({
  clientScanId: zClientScanId,
  deviceId: zDeviceId,
  code: zCode.optional(),
  ticketId: zTicketRef.optional(),
  /** The device's clock when the scan was made; the server's time when absent. */
  scannedAt: zScannedAt.optional(),
});
export type TCheckinScanRequest = z.infer<typeof ZCheckinScanRequest>;

export const ZCheckinPrevious = z.object({ usedAt: z.string().nullable(), deviceId: z.string().nullable(), name: z.string().nullable() });
export type TCheckinPrevious = z.infer<typeof ZCheckinPrevious>;

export const ZCheckinScanAnswer = z.object({
  scanId: z.string(),
  clientScanId: z.string(),
  result: z.enum(CHECKIN_SCAN_RESULTS),
  ticket: ZCheckinTicket.nullable(),
  /** On already_used: when, on which device and by whom the ticket was admitted. */
  previous: ZCheckinPrevious.nullable(),
});
export type TCheckinScanAnswer = z.infer<typeof ZCheckinScanAnswer>;

export const ZCheckinScanParams = z.object({ tenantId: z.string(), eventId: z.string().max(100), scanId: z.string().max(100) });

export const ZCheckinUndoRequest = z.object({ deviceId: zDeviceId });
export type TCheckinUndoRequest = z.infer<typeof ZCheckinUndoRequest>;

export const ZCheckinUndoResponse = z.object({ result: z.literal('undone'), ticket: ZCheckinTicket });
export type TCheckinUndoResponse = z.infer<typeof ZCheckinUndoResponse>;

export const ZCheckinSyncRequest = z.object({
  deviceId: zDeviceId,
  scans: z
    .array(
      z.object({
        clientScanId: zClientScanId,
        code: zCode.optional(),
        ticketId: zTicketRef.optional(),
        scannedAt: zScannedAt,
        /**
         * Who scanned: the id of the person signed in on the device when it admitted offline. It
         * must be the caller (a person can only credit themselves); absent, the caller.
         */
        scannedBy: z.uuid({ error: M.checkinScannedBy }).optional(),
      }),
      { error: M.checkinSyncSize },
    )
    .min(1, M.checkinSyncSize)
    .max(CHECKIN_SYNC_MAX, M.checkinSyncSize),
});
export type TCheckinSyncRequest = z.infer<typeof ZCheckinSyncRequest>;

export const ZCheckinSyncResponse = z.object({ results: z.array(ZCheckinScanAnswer) });
export type TCheckinSyncResponse = z.infer<typeof ZCheckinSyncResponse>;

export const ZCheckinSearchQuery = z.object({
  q: z.string({ error: M.checkinSearchShort }).trim().min(CHECKIN_SEARCH_MIN_LENGTH, M.checkinSearchShort).max(100, M.checkinSearchLong),
});

export const ZCheckinSearchResponse = z.object({ result: z.array(ZCheckinTicket), count: z.number().int() });
export type TCheckinSearchResponse = z.infer<typeof ZCheckinSearchResponse>;

export const ZCheckinCounters = z.object({
  checkedIn: z.number().int(),
  sold: z.number().int(),
  byType: z.array(z.object({ ticketTypeId: z.string(), name: z.string(), checkedIn: z.number().int(), sold: z.number().int() })),
});
export type TCheckinCounters = z.infer<typeof ZCheckinCounters>;
