import { hash, randomBytes, randomInt } from 'node:crypto';

/** 256-bit opaque token, base64url. */
export const newToken = () => randomBytes(32).toString('base64url');
/** Hex SHA-256 of the text's UTF-8 (node:crypto's one-shot `hash`: a third of a Hash object's CPU for a token, on every signed-in request). */
export const sha256 = (text: string) => hash('sha256', text, 'hex');
/** Six digits for codes a person may type. */
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
