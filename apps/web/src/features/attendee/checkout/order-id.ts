import { ORDER_UID_FORMAT } from '@marquee/core';

/**
 * The success page's ?orderID= as one of our order ids (12 characters of Crockford base32, read
 * case-insensitively), or null for anything else: the address is anyone's to write, so text that is
 * not an order id is never shown or looked up.
 */
export function parseOrderId(raw: string | null): string | null {
  const id = (raw ?? '').trim().toUpperCase();
  return ORDER_UID_FORMAT.test(id) ? id : null;
}
