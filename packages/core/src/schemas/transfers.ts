import { z } from 'zod';
import { M } from '../messages.js';
import { zEmail } from './common.js';

// Ticket transfers (issue 24; ours: the spec has none; docs/transfers.md). The buyer gives one ticket
// of a completed order to another person from the order link; the ticket gets a new Ticket ID (so a
// new signed code) and its new holder a private link of their own.

/** The token in /tickets/{token}, the new holder's link: 256 random bits as 43 base64url characters. */
export const TICKET_LINK_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export const TRANSFER_PATHS = {
  /** The order link's transfer (public, the order link's token is the key). */
  transfer: (token: string) => `/api/p/order-links/${token}/transfers`,
  /** The new holder's page. */
  ticketLink: (token: string) => `/api/p/ticket-links/${token}`,
  ticketLinkDownload: (token: string) => `/api/p/ticket-links/${token}/download`,
  settings: (tenantId: string, eventId: string) => `/api/tenants/${tenantId}/events/${eventId}/transfer-settings`,
  history: (tenantId: string, eventId: string, orderUID: string) => `/api/tenants/${tenantId}/events/${eventId}/orders/${orderUID}/ticket-history`,
} as const;

export const ZTransferTicketRequest = z.object({
  ticketId: z.uuid({ error: M.transferTicketId }),
  fullName: z.string({ error: M.transferNameRequired }).trim().min(1, M.transferNameRequired).max(100, M.transferNameTooLong),
  email: zEmail(M.transferEmailRequired, M.emailFormat),
});
export type TTransferTicketRequest = z.input<typeof ZTransferTicketRequest>;

/** Where a ticket went: shown on the buyer's order link in place of the ticket's code. */
export const ZTransferredTo = z.object({ fullName: z.string(), email: z.string(), at: z.string() });
export type TTransferredTo = z.infer<typeof ZTransferredTo>;

export const ZTransferTicketResponse = z.object({ success: z.literal(true), message: z.string(), transferredTo: ZTransferredTo });
export type TTransferTicketResponse = z.infer<typeof ZTransferTicketResponse>;

/** The event's transfer setting (default: allowed). */
export const ZTransferSettings = z.object({ allowed: z.boolean({ error: 'allowed must be true or false.' }) });
export type TTransferSettings = z.infer<typeof ZTransferSettings>;

export const TICKET_LINK_STATUSES = ['valid', 'used', 'voided', 'transferred'] as const;

/** The new holder's page behind /tickets/{token}: their one ticket, its code, and the event. */
export const ZTicketLinkPage = z.object({
  event: z.object({
    name: z.string(),
    urlName: z.string(),
    status: z.string(),
    startDateTime: z.string().nullable(),
    endDateTime: z.string().nullable(),
    timeZone: z.string(),
    venue: z.array(z.string()),
  }),
  ticket: z.object({
    ticketTypeName: z.string(),
    fullName: z.string(),
    /** Who passed it on (the buyer's name as on the order). */
    fromName: z.string(),
    transferredAt: z.string(),
    /** transferred: passed on again since, this link no longer holds it. */
    status: z.enum(TICKET_LINK_STATUSES),
    ticketUID: z.string().nullable(),
    qrSvg: z.string().nullable(),
  }),
});
export type TTicketLinkPage = z.infer<typeof ZTicketLinkPage>;

export const TICKET_HISTORY_KINDS = ['sold', 'transferred', 'checked_in', 'check_in_undone', 'voided', 'unvoided', 'refunded'] as const;
export type TicketHistoryKind = (typeof TICKET_HISTORY_KINDS)[number];

/** Each ticket of an order with what happened to it, oldest first (the console's order page). */
export const ZTicketHistory = z.object({
  result: z.array(
    z.object({
      ticketId: z.string(),
      ticketUID: z.string(),
      ticketTypeName: z.string(),
      fullName: z.string(),
      email: z.string(),
      entries: z.array(
        z.object({
          kind: z.enum(TICKET_HISTORY_KINDS),
          at: z.string(),
          /** Who did it, as people read it ("the buyer, from the order link", "Dora Door"). */
          by: z.string().nullable(),
          /** transferred: from whom to whom; checked_in: the device; voided: the reason. */
          detail: z.string().nullable(),
        }),
      ),
    }),
  ),
});
export type TTicketHistory = z.infer<typeof ZTicketHistory>;

/**
 * Why no ticket of this event may be passed on now, or null when transfers are open (issue 24): the
 * organiser's setting (default allowed), a cancelled event, an event that is over (its end, or its
 * start when it has no end). The order link's Transfer button and the transfer itself both ask this.
 */
export function eventTransferRefusal(e: {
  allowed: boolean;
  status: string;
  startDateTime: Date | string | null;
  endDateTime: Date | string | null;
  now: Date;
}): 'TRANSFERS_OFF' | 'EVENT_CANCELLED' | 'TRANSFER_EVENT_OVER' | null {
  if (e.status === 'cancelled') return 'EVENT_CANCELLED';
  const over = e.endDateTime ?? e.startDateTime;
  if (over !== null && new Date(over).getTime() <= e.now.getTime()) return 'TRANSFER_EVENT_OVER';
  if (!e.allowed) return 'TRANSFERS_OFF';
  return null;
}
