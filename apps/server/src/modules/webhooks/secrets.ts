import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// An endpoint's signing secret (Standard Webhooks: `whsec_` and 32 random bytes in base64). The
// server must sign with it, so it cannot be kept hashed: it is kept sealed (AES-256-GCM) with a key
// derived from the server's SECRET, so a copy of the database alone does not give it away.

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const keyOf = (serverSecret: string) => createHash('sha256').update(`marquee webhook secrets\0${serverSecret}`).digest();

export function sealSecret(serverSecret: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(serverSecret), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${sealed.toString('base64url')}`;
}

export function openSecret(serverSecret: string, stored: string): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('unreadable webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(serverSecret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}

/** The last four characters, to tell two secrets apart on the screen. */
export const secretHint = (secret: string) => `…${secret.slice(-4)}`;
