import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's parameters (19 MiB, 2 iterations, 1 lane).
// algorithm 2 is Argon2id (a const enum in the typings, which isolated modules cannot read).
// Test runs only: vitest's server project sets MARQUEE_TEST_PASSWORD_HASH=cheap (vitest.config.ts), and
// there, under vitest (VITEST), new hashes are argon2id at 256 KiB and one iteration: every login and
// sign-up of the API suite cost about 20 ms of CPU at OWASP's cost (docs/decisions.md "CI time
// (stop 33)"). A hash carries its own parameters, so verifying works either way; a real server
// (npm start, the browser tests, the benches) runs outside vitest and keeps OWASP's cost.
const OWASP = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const CHEAP_FOR_TESTS = { algorithm: 2, memoryCost: 256, timeCost: 1, parallelism: 1 } as const;
const OPTIONS = process.env.VITEST && process.env.MARQUEE_TEST_PASSWORD_HASH === 'cheap' ? CHEAP_FOR_TESTS : OWASP;

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
