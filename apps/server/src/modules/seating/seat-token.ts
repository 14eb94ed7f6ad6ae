import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A seat hold's secret: the browser that took it keeps the token, the database its hash. */
export function newSeatToken() {
  const token = randomBytes(24).toString('base64url');
  return { token, hash: hashSeatToken(token) };
}

export const hashSeatToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function seatTokenMatches(hash: string, token: string): boolean {
  const given = Buffer.from(hashSeatToken(token));
  const kept = Buffer.from(hash);
  return given.length === kept.length && timingSafeEqual(given, kept);
}
