// The optional donation at checkout (docs/decisions.md "Donations at checkout"): amounts in cents,
// shared by the checkout form and the server's schema. No zod here: the attendee site's checkout
// imports this module on its first load.
import { M_SITE as M } from './messages-site.js';
import { toCents, type Cents } from './money.js';

/** The largest donation one order can carry: $10,000.00 (M.donationMax names it). */
export const MAX_DONATION_CENTS: Cents = 1_000_000;

/** The amounts the checkout offers with one click: $5, $10 and $25. */
export const DONATION_PRESETS: readonly Cents[] = [500, 1000, 2500];

/** Why a donation in cents is refused, or null: a whole number of cents from 0 to MAX_DONATION_CENTS. */
export function donationProblem(cents: unknown): string | null {
  if (typeof cents !== 'number' || !Number.isSafeInteger(cents) || cents < 0) return M.donationInvalid;
  if (cents > MAX_DONATION_CENTS) return M.donationMax;
  return null;
}

/**
 * A custom amount as the buyer typed it ("15", "$15.50", "1,000"): its cents, or the message to
 * show. A custom amount must be more than $0 (no donation is the None choice).
 */
export function parseDonationInput(text: string): { cents: Cents } | { error: string } {
  const cents = toCents(text);
  if (cents === null || cents <= 0) return { error: M.donationAmount };
  if (cents > MAX_DONATION_CENTS) return { error: M.donationMax };
  return { cents };
}
