import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's parameters (19 MiB, 2 iterations, 1 lane).
// algorithm 2 is Argon2id (a const enum in the typings, which isolated modules cannot read).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;

/**
 * Verifies a password. With no stored hash (unknown or password-less user) it still spends the
 * same time on a dummy hash, so response times do not reveal which e-mails have accounts.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hashPassword('not-a-real-password-Aa1!');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
