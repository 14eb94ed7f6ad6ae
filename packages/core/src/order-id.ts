// Order ids, in a module of their own without zod: the success page and the private order page
// read them, and importing them from schemas/orders.ts brought zod and every schema into those pages
// (issue 21.8, first-load budget).

/** What an order id sent back to us may look like (draftOrderUID, a checkout hold's id). */
export const ORDER_UID_RE = /^[A-Z0-9-]{6,40}$/;
/**
 * The ids PLACE ORDER hands out: 12 characters of Crockford base32 (docs/decisions.md "Holds and
 * orders"). The success page shows nothing for an orderID of any other shape.
 */
export const ORDER_UID_FORMAT = /^[0-9A-HJKMNP-TV-Z]{12}$/;
