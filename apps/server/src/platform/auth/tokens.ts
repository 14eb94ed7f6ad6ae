import { createHash, randomBytes, randomInt } from 'node:crypto';

/** 256-bit opaque token, base64url. */
export const newToken = () => randomBytes(32).toString('base64url');
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** Six digits for codes a person may type. */
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
