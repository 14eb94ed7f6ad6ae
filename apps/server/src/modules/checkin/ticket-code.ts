import { createHmac, createPrivateKey, createPublicKey, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { asciiBytes, base64UrlEncode, parseTicketCode, ticketCodePayload } from '@marquee/core';

// The ticket's QR code, signed (issue 11; format in packages/core checkin.ts). Ed25519: asymmetric,
// so a door device verifies a code offline with the public key and cannot make one. The key pair is
// derived from SECRET, so every app node has the same one without a key file; rotating SECRET
// therefore invalidates every printed code (docs/operations.md "Door check-in").

const KEY_LABEL = 'marquee-checkin-ed25519';
/** PKCS#8 DER for an Ed25519 private key, up to its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export type CheckinKeys = { privateKey: KeyObject; publicKey: KeyObject; publicKeyRaw: string };

const cache = new Map<string, CheckinKeys>();

export function checkinKeys(secret: string): CheckinKeys {
  let keys = cache.get(secret);
  if (keys) return keys;
  const seed = createHmac('sha256', secret).update(KEY_LABEL).digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const jwk = publicKey.export({ format: 'jwk' });
  keys = { privateKey, publicKey, publicKeyRaw: jwk.x! };
  cache.set(secret, keys);
  return keys;
}

/** The text printed in a ticket's QR code. */
export function signTicketCode(secret: string, eventId: string, ticketUid: string): string {
  const payload = ticketCodePayload(eventId, ticketUid);
  const sig = sign(null, Buffer.from(payload, 'ascii'), checkinKeys(secret).privateKey);
  return `${payload}.${base64UrlEncode(sig)}`;
}

export type ReadTicketCode = { ok: true; eventId: string; ticketUid: string } | { ok: false };

/**
 * Codes whose signature held, so that a code scanned again (the second door of a race, a re-entry, a
 * device retrying) is not verified again: an Ed25519 verification costs 0.1 ms of CPU on this
 * machine, a fifth of a scan's budget (bench/README.md "Door scans"). Per secret, the most recent
 * VERIFIED_MAX codes; a forged code is never kept.
 */
const VERIFIED_MAX = 20_000;
const verified = new Map<string, Map<string, { eventId: string; ticketUid: string }>>();

/**
 * Whether `signature` is our signature of `payload`. Ed25519 signatures are deterministic (RFC 8032
 * §5.1.6: the same key and message give the same bytes), and we sign with the private key we hold,
 * so signing the payload again and comparing (in constant time) decides it for every code we issued:
 * a third of the CPU of a verification on this machine (bench/README.md "Door scans"). Anything else
 * (never issued by us) is verified as before, so the codes accepted are exactly the same.
 */
function signatureHolds(keys: CheckinKeys, payload: Uint8Array, signature: Uint8Array): boolean {
  const ours = sign(null, payload, keys.privateKey);
  if (ours.length === signature.length && timingSafeEqual(ours, signature)) return true;
  return verify(null, payload, keys.publicKey, signature);
}

/**
 * signatureHolds off the event loop (issue 26, scan4): the same signing and, for a signature that
 * differs, the same verification, run by node:crypto on libuv's thread pool (the callback forms of
 * `sign` and `verify`), so that a door scan's server thread does not spend the signature's 0.1 to
 * 0.2 ms of CPU on it while other requests wait their turn.
 */
function signatureHoldsOffThread(keys: CheckinKeys, payload: Uint8Array, signature: Uint8Array): Promise<boolean> {
  return new Promise((resolve, reject) => {
    sign(null, payload, keys.privateKey, (err, ours) => {
      if (err) return reject(err);
      if (ours.length === signature.length && timingSafeEqual(ours, signature)) return resolve(true);
      verify(null, payload, keys.publicKey, signature, (err2, holds) => (err2 ? reject(err2) : resolve(holds)));
    });
  });
}

function remember(secret: string, code: string, read: { eventId: string; ticketUid: string }): void {
  let known = verified.get(secret);
  if (!known) verified.set(secret, (known = new Map()));
  // A Map iterates in insertion order: past the bound, the oldest code goes.
  if (known.size >= VERIFIED_MAX) known.delete(known.keys().next().value!);
  known.set(code, read);
}

/** The event and ticket a code names, when it is ours and its signature holds. */
export function readTicketCode(secret: string, code: string): ReadTicketCode {
  const seen = lookUp(secret, code);
  if (!('signed' in seen)) return seen;
  return answer(secret, code, seen, signatureHolds(checkinKeys(secret), asciiBytes(seen.signed), seen.signature));
}

type ParsedCode = NonNullable<ReturnType<typeof parseTicketCode>>;

/** A remembered code's answer, a code that does not parse refused, or the parsed code whose signature is to be checked. */
function lookUp(secret: string, code: string): ReadTicketCode | ParsedCode {
  const hit = verified.get(secret)?.get(code);
  if (hit) return { ok: true, ...hit };
  return parseTicketCode(code) ?? { ok: false };
}

/** The answer for a parsed code once its signature is checked (a good one remembered). */
function answer(secret: string, code: string, parsed: ParsedCode, holds: boolean): ReadTicketCode {
  if (!holds) return { ok: false };
  remember(secret, code, { eventId: parsed.eventId, ticketUid: parsed.ticketUid });
  return { ok: true, eventId: parsed.eventId, ticketUid: parsed.ticketUid };
}

/**
 * readTicketCode for the server's scans: exactly the same answer, but a code not remembered yet has
 * its signature checked on libuv's thread pool (signatureHoldsOffThread) instead of the event loop.
 * A remembered code or one that does not parse is answered at once (no promise).
 */
export function readTicketCodeOffThread(secret: string, code: string): ReadTicketCode | Promise<ReadTicketCode> {
  const seen = lookUp(secret, code);
  if (!('signed' in seen)) return seen;
  return signatureHoldsOffThread(checkinKeys(secret), asciiBytes(seen.signed), seen.signature).then((holds) => answer(secret, code, seen, holds));
}
