import type { Cents } from '../money.js';
import { BASIS_POINTS, mulDivFloor, mulDivHalfUp, mulMod, product, sum, toBasisPoints } from './integer-math.js';

/** `count` tickets of one line that sell at `price` each once the discount is taken off. */
export type UnitGroup = { price: Cents; count: number };

export type DiscountedLine = { discount: Cents; units: UnitGroup[] };

export type DiscountRequest = { kind: 'percent' | 'amount'; value: number; appliesTo?: readonly string[] };

type PricedLine = { ticketTypeId: string; price: Cents; quantity: number };

const undiscounted = (line: PricedLine): DiscountedLine => ({
  discount: 0,
  units: [{ price: line.price, count: line.quantity }],
});

/**
 * Takes the discount off each ticket, so that the service fee can be charged on the price the
 * customer actually pays for that ticket. Only paid tickets of the listed ticket types are
 * discounted; the discount never exceeds their subtotal.
 */
export function allocateDiscount(lines: readonly PricedLine[], discount: DiscountRequest | undefined): DiscountedLine[] {
  if (!discount) return lines.map(undiscounted);
  const eligible = lines.map(
    (line) => line.price > 0 && line.quantity > 0 && (discount.appliesTo?.includes(line.ticketTypeId) ?? true),
  );
  return discount.kind === 'percent'
    ? percentOff(lines, eligible, toBasisPoints(discount.value))
    : amountOff(lines, eligible, discount.value);
}

// Half up per ticket: every ticket of a line gets the same discounted price.
function percentOff(lines: readonly PricedLine[], eligible: readonly boolean[], basisPoints: number): DiscountedLine[] {
  return lines.map((line, i) => {
    if (!eligible[i]) return undiscounted(line);
    const perTicket = mulDivHalfUp(line.price, basisPoints, BASIS_POINTS);
    return { discount: product(perTicket, line.quantity), units: [{ price: line.price - perTicket, count: line.quantity }] };
  });
}

// A fixed amount is shared in proportion to each ticket's price, exactly to the cent: every ticket
// gets the floor of its share and the cents left over go one each to the tickets with the largest
// remainders (earlier lines first on ties), so a line splits into at most two prices.
function amountOff(lines: readonly PricedLine[], eligible: readonly boolean[], value: Cents): DiscountedLine[] {
  const base = sum(lines.map((line, i) => (eligible[i] ? product(line.price, line.quantity) : 0)));
  const amount = Math.min(value, base);
  if (amount === 0) return lines.map(undiscounted);

  const shares = lines.map((line, i) =>
    eligible[i]
      ? { floor: mulDivFloor(amount, line.price, base), remainder: mulMod(amount, line.price, base) }
      : { floor: 0, remainder: 0 },
  );
  let leftover = amount - sum(lines.map((line, i) => product(shares[i]?.floor ?? 0, line.quantity)));
  const extra = lines.map(() => 0);
  const byRemainder = lines
    .map((_, i) => i)
    .filter((i) => (shares[i]?.remainder ?? 0) > 0)
    .sort((a, b) => (shares[b]?.remainder ?? 0) - (shares[a]?.remainder ?? 0) || a - b);
  for (const i of byRemainder) {
    if (leftover === 0) break;
    const take = Math.min(leftover, lines[i]?.quantity ?? 0);
    extra[i] = take;
    leftover -= take;
  }

  return lines.map((line, i) => {
    const floor = shares[i]?.floor ?? 0;
    const plusOne = extra[i] ?? 0;
    if (!eligible[i] || (floor === 0 && plusOne === 0)) return undiscounted(line);
    const units: UnitGroup[] = [{ price: line.price - floor, count: line.quantity - plusOne }];
    if (plusOne > 0) units.push({ price: line.price - floor - 1, count: plusOne });
    return { discount: product(floor, line.quantity) + plusOne, units: units.filter((u) => u.count > 0) };
  });
}
