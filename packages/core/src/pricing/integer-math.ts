// Exact integer arithmetic for the pricing engine. Products such as price x basis points can pass
// 2^53, so they are taken in BigInt and brought back as safe integers.

export const BASIS_POINTS = 10_000;

/** A percentage with at most 2 decimals (2.9) as integer basis points (290). */
export function toBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}

export function isPercent(value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) return false;
  // 2.9 * 100 is 290.00000000000006 in binary floating point, so compare with a tolerance.
  return Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
}

export function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error('priceOrder: an amount exceeds the largest safe integer number of cents');
  }
  return Number(value);
}

/** floor(a * b / c) for non-negative integers, c > 0. */
export function mulDivFloor(a: number, b: number, c: number): number {
  return toSafeNumber((BigInt(a) * BigInt(b)) / BigInt(c));
}

/** ceil(a * b / c) for non-negative integers, c > 0. */
export function mulDivCeil(a: number, b: number, c: number): number {
  const divisor = BigInt(c);
  return toSafeNumber((BigInt(a) * BigInt(b) + divisor - 1n) / divisor);
}

/** a * b / c rounded half up (0.5 goes up) for non-negative integers, c > 0. */
export function mulDivHalfUp(a: number, b: number, c: number): number {
  const divisor = BigInt(c);
  return toSafeNumber((2n * BigInt(a) * BigInt(b) + divisor) / (2n * divisor));
}

/** (a * b) mod c for non-negative integers, c > 0. */
export function mulMod(a: number, b: number, c: number): number {
  return toSafeNumber((BigInt(a) * BigInt(b)) % BigInt(c));
}

/** The sum of safe integers, refusing a result that is no longer exact. */
export function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  if (!Number.isSafeInteger(total)) {
    throw new Error('priceOrder: an amount exceeds the largest safe integer number of cents');
  }
  return total;
}

export function product(a: number, b: number): number {
  return toSafeNumber(BigInt(a) * BigInt(b));
}
