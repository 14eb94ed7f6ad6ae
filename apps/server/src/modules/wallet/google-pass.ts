import { importPKCS8, SignJWT } from 'jose';
import type { GoogleWalletConfig } from '../../config.js';
import type { WalletTicket } from './wallet-ticket.js';

// Issue 28: "Save to Google Wallet" as Google's signed link (no call to Google's API): a JWT, RS256
// with the operator's service account key, whose payload carries the event's EventTicketClass and the
// ticket's EventTicketObject; Google creates both when the buyer saves it (docs/wallet.md).

export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';

/** Google's ids are `<issuer id>.<suffix>`, the suffix of letters, digits, '.', '_' or '-'. */
const idPart = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
const localized = (value: string) => ({ defaultValue: { language: 'en-US', value } });

export function eventTicketClassOf(config: GoogleWalletConfig, t: WalletTicket) {
  return {
    id: `${config.issuerId}.marquee-event-${idPart(t.eventId)}`,
    issuerName: t.organizer.name,
    reviewStatus: 'UNDER_REVIEW',
    eventName: localized(t.eventName),
    hexBackgroundColor: t.organizer.color,
    ...(t.venueName || t.venue.length
      ? { venue: { name: localized(t.venueName || t.venue[0]!), address: localized(t.venue.join('\n') || t.venueName) } }
      : {}),
    ...(t.startDateTime ? { dateTime: { start: t.startDateTime.toISOString(), ...(t.endDateTime ? { end: t.endDateTime.toISOString() } : {}) } } : {}),
    homepageUri: { uri: t.organizer.origin, description: t.organizer.name },
  };
}

export function eventTicketObjectOf(config: GoogleWalletConfig, t: WalletTicket) {
  return {
    id: `${config.issuerId}.marquee-ticket-${idPart(t.ticketUid)}`,
    classId: eventTicketClassOf(config, t).id,
    state: 'ACTIVE',
    // The PDF's QR code: the same signed code the door scanner reads.
    barcode: { type: 'QR_CODE', value: t.code, alternateText: t.ticketUid },
    ticketNumber: t.ticketUid,
    ticketType: localized(t.ticketTypeName),
    reservationInfo: { confirmationCode: t.orderUid },
    hexBackgroundColor: t.organizer.color,
    ...(t.fullName ? { ticketHolderName: t.fullName } : {}),
    ...(t.seat ? { seatInfo: { seat: localized(t.seat) } } : {}),
  };
}

/** The signed "Save to Google Wallet" link of one ticket. */
export async function googleSaveUrl(config: GoogleWalletConfig, t: WalletTicket): Promise<string> {
  const key = await importPKCS8(config.privateKey, 'RS256');
  const jwt = await new SignJWT({
    typ: 'savetowallet',
    origins: [t.organizer.origin],
    payload: { eventTicketClasses: [eventTicketClassOf(config, t)], eventTicketObjects: [eventTicketObjectOf(config, t)] },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(config.clientEmail)
    .setAudience('google')
    .setIssuedAt()
    .sign(key);
  return `${GOOGLE_SAVE_URL}${jwt}`;
}
