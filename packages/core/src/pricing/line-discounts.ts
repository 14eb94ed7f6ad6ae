import type { Cents } from '../money.js';
import { allocateDiscount } from './allocate-discount.js';
import { mulDivFloor } from './integer-math.js';

// What a buyer paid for each line and each ticket of an order, after its discount (issue 21.8): the
// order page shows these instead of the list price.

/**
 * An order's discount shared over its lines, for an order that did not keep it per line (placed
 * before priceOrder answered `orderDetails[].discount`): in proportion to each line's price, to the
 * cent, as an amount discount is shared. Exact when the discount applied to every ticket type.
 */
export function spreadOrderDiscount(lines: ReadonlyArray<{ ticketTypeId: string; unitPrice: Cents; quantity: number }>, discount: Cents): Cents[] {
  if (discount <= 0) return lines.map(() => 0);
  return allocateDiscount(
    lines.map((l) => ({ ticketTypeId: l.ticketTypeId, price: l.unitPrice, quantity: l.quantity })),
    { kind: 'amount', value: discount },
  ).map((l) => l.discount);
}

/**
 * The price each ticket of a line sold for once the line's discount is taken off, first ticket
 * first: every ticket gets the same share and the cents left over go one each to the first tickets,
 * as priceOrder takes a discount off (its per-ticket prices of a line differ by a cent at most).
 */
export function ticketPricesAfterDiscount(unitPrice: Cents, quantity: number, lineDiscount: Cents): Cents[] {
  if (quantity <= 0) return [];
  const discount = Math.max(0, Math.min(lineDiscount, unitPrice * quantity));
  const each = mulDivFloor(discount, 1, quantity);
  const extra = discount - each * quantity;
  return Array.from({ length: quantity }, (_, i) => unitPrice - each - (i < extra ? 1 : 0));
}
