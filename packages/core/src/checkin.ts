// The signed code printed in every ticket's QR (issue 11): `MQ1.<eventId>.<ticketUid>.<sig>`, sig the
// base64url (no padding) Ed25519 signature of the ASCII bytes `MQ1.<eventId>.<ticketUid>`. The
// server signs with a key derived from SECRET (apps/server modules/checkin/ticket-code.ts); a door
// device verifies offline with the public key from the manifest (WebCrypto `Ed25519`). No personal
// data: an event id and the ticket's random uid. Pure: no I/O, no node:crypto, no DOM.

export const TICKET_CODE_VERSION = 'MQ1';
/** An Ed25519 signature is 64 bytes: 86 base64url characters without padding. */
export const TICKET_CODE_SIGNATURE_BYTES = 64;

const EVENT_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Ticket uids are base32 today (fulfilment newTicketUid); any id without the separator is read. */
const TICKET_UID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const SIGNATURE_RE = /^[A-Za-z0-9_-]{86}$/;

export type ParsedTicketCode = {
  eventId: string;
  ticketUid: string;
  /** The text the signature covers: `MQ1.<eventId>.<ticketUid>`. */
  signed: string;
  signature: Uint8Array;
};

/** The text a ticket's signature covers. */
export function ticketCodePayload(eventId: string, ticketUid: string): string {
  return `${TICKET_CODE_VERSION}.${eventId}.${ticketUid}`;
}

/** The code's parts when it has the MQ1 shape (the signature is not checked here), else null. */
export function parseTicketCode(code: string): ParsedTicketCode | null {
  if (typeof code !== 'string' || code.length > 200) return null;
  const parts = code.trim().split('.');
  if (parts.length !== 4) return null;
  const [version, eventId, ticketUid, sig] = parts as [string, string, string, string];
  if (version !== TICKET_CODE_VERSION || !EVENT_ID_RE.test(eventId) || !TICKET_UID_RE.test(ticketUid) || !SIGNATURE_RE.test(sig)) return null;
  const signature = base64UrlDecode(sig);
  if (!signature || signature.length !== TICKET_CODE_SIGNATURE_BYTES) return null;
  return { eventId, ticketUid, signed: ticketCodePayload(eventId, ticketUid), signature };
}

/** ASCII text as bytes (what the signature covers; every character of a valid payload is ASCII). */
export function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0x7f;
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/**
 * Each ASCII code's value in ALPHABET, -1 where it has none. A typed array read by char code: a
 * lookup by one-character string keys was a megamorphic property load per character in every door
 * scan of a code not seen yet (issue 26, scan5).
 */
const LOOKUP = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

/** RFC 4648 §5 base64url, without padding. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += ALPHABET[(n >>> (18 - 6 * k)) & 63];
  }
  return out;
}

/** The bytes of unpadded base64url text; null when it is not canonical base64url. */
export function base64UrlDecode(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let value = 0;
  let j = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? LOOKUP[code]! : -1;
    if (v < 0) return null;
    value = ((value << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (value >>> bits) & 0xff;
    }
  }
  // Leftover bits must be zero, so that one signature has one spelling.
  if (bits > 0 && (value & ((1 << bits) - 1)) !== 0) return null;
  return out;
}
