import { asciiBytes, base64UrlDecode, parseTicketCode } from '@marquee/core';

// Offline verification of a ticket's signed code (issue 11) with the public key from the manifest:
// WebCrypto Ed25519 (Chromium 137+, Safari 17+, Firefox 129+). A browser without it cannot tell a
// forged code offline, so such a code is then refused as forged rather than admitted unchecked.

const keys = new Map<string, Promise<CryptoKey | null>>();

function importKey(publicKey: string): Promise<CryptoKey | null> {
  let key = keys.get(publicKey);
  if (!key) {
    const raw = base64UrlDecode(publicKey);
    key = raw ? crypto.subtle.importKey('raw', raw as BufferSource, { name: 'Ed25519' }, false, ['verify']).catch(() => null) : Promise.resolve(null);
    keys.set(publicKey, key);
  }
  return key;
}

/** True when `code` is an MQ1 code signed by the key; false for anything else. */
export async function verifyTicketCode(code: string, publicKey: string): Promise<boolean> {
  const parsed = parseTicketCode(code);
  if (!parsed || !globalThis.crypto?.subtle) return false;
  const key = await importKey(publicKey);
  if (!key) return false;
  try {
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, parsed.signature as BufferSource, asciiBytes(parsed.signed) as BufferSource);
  } catch {
    return false;
  }
}
