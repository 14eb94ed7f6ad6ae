import { createHmac, timingSafeEqual } from 'node:crypto';

// The unsubscribe link's token (issue 15): the address and an HMAC of it with the tenant, under the
// server's secret. It works with no sign-in and does not expire (an old mail must still let its
// reader leave); a token for one address or one tenant cannot be turned into another's.

const MAX_EMAIL = 254;

const signatureOf = (secret: string, tenantId: string, email: string) =>
  createHmac('sha256', secret).update(`attendee-unsubscribe\n${tenantId}\n${email}`).digest('base64url');

export function unsubscribeToken(secret: string, tenantId: string, email: string): string {
  const address = email.toLowerCase();
  return `${Buffer.from(address, 'utf8').toString('base64url')}.${signatureOf(secret, tenantId, address)}`;
}

/** The address a token was made for, or null when it was not made by us for this tenant. */
export function verifyUnsubscribeToken(secret: string, tenantId: string, token: string): string | null {
  const [encoded, signature, ...rest] = token.split('.');
  if (!encoded || !signature || rest.length > 0 || !/^[A-Za-z0-9_-]+$/.test(encoded)) return null;
  const email = Buffer.from(encoded, 'base64url').toString('utf8');
  if (!email || email.length > MAX_EMAIL || email !== email.toLowerCase() || Buffer.from(email, 'utf8').toString('base64url') !== encoded) return null;
  const expected = Buffer.from(signatureOf(secret, tenantId, email));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? email : null;
}
