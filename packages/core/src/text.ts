// Text that came from outside (a request body, a query, a form) must be valid Unicode before it is
// stored: a lone UTF-16 surrogate cannot be encoded as UTF-8, so PostgreSQL's JSON refuses it and
// plain text columns would silently turn it into U+FFFD. U+0000 does not fit in PostgreSQL text.

const LONE_SURROGATE = /\p{Cs}/u;

/** True when the string holds no lone surrogate and no U+0000. */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}
