// Postgres error codes as both drivers report them (drizzle may wrap the driver's error in `cause`).
function pgCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** A unique constraint refused the write (two requests raced past the same pre-check). */
export const isUniqueViolation = (err: unknown) => pgCode(err) === '23505';

/** A check constraint refused the write; `name` narrows it to one constraint. */
export function isCheckViolation(err: unknown, name?: string): boolean {
  if (pgCode(err) !== '23514') return false;
  if (!name) return true;
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { constraint?: unknown }).constraint === name || String((e as { message?: unknown }).message ?? '').includes(name)) return true;
  }
  return false;
}

/** A deadlock or serialization failure: the transaction was rolled back and may simply be run again. */
export const isRetryableConflict = (err: unknown) => {
  const code = pgCode(err);
  return code === '40P01' || code === '40001';
};
