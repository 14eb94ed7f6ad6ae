import { toE164 } from '@marquee/core';

// spec: reports-payouts-checkout §5 Mobile number format +1 (###) ### #### (core PHONE_MASK), sent
// as digits with a plus prefix. A 25-line formatter instead of an input-mask library: the attendee
// site's first load has a 150 KB budget and the mask library alone is 20 KB gzipped.

/** Formats whatever was typed or pasted as +1 (###) ### ####, as far as the digits go. */
export function maskPhone(input: string): string {
  let digits = input.replace(/\D/g, '');
  // The fixed +1 prefix comes back with every keystroke; US numbers never start with 1 after it.
  if (digits.startsWith('1')) digits = digits.slice(1);
  digits = digits.slice(0, 10);
  if (!digits) return '';
  const area = digits.slice(0, 3);
  const mid = digits.slice(3, 6);
  const last = digits.slice(6);
  if (digits.length <= 3) return `+1 (${area}`;
  if (digits.length <= 6) return `+1 (${area}) ${mid}`;
  return `+1 (${area}) ${mid} ${last}`;
}

/** "+15551234567", or null when the field is empty or incomplete. */
export const phoneForWire = (masked: string) => toE164(masked);

/**
 * The field as the server reads it, for checking before sending: digits with a plus prefix (an
 * incomplete number too, so it gets the spec's message), or null when the field is empty.
 */
export const phoneForCheck = (masked: string) => (masked ? `+${masked.replace(/\D/g, '')}` : null);
