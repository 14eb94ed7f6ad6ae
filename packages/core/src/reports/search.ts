// spec: reports-payouts-checkout §5 Search and filters, §4 Refund status, as pure functions that the
// report pages use and the server's tests check against.

export const REPORT_SEARCH_DEBOUNCE_MS = 1600;
export const REPORT_FILTER_DEBOUNCE_MS = 1500;
export const REPORT_PAGE_SIZES = [10, 25, 100] as const;
export const REPORT_DEFAULT_PAGE_SIZE = 10;

/**
 * What a report search box does with its text: fewer than 1 character clears the search, 1 or 2
 * characters do nothing, more than 2 apply it (spec §5).
 */
export function reportSearchAction(text: string): 'clear' | 'ignore' | 'apply' {
  if (text.length < 1) return 'clear';
  if (text.length <= 2) return 'ignore';
  return 'apply';
}

/** spec §5 "Payment-method search is lowercased." */
export const paymentMethodSearchValue = (text: string) => text.toLowerCase();

/** spec §5 "Refund status search is lowercased with the first space replaced by an underscore." */
export const refundStatusSearchValue = (text: string) => text.toLowerCase().replace(' ', '_');

/**
 * spec §5 Ticket Used search: yes or true mean true, no or false mean false, applying from 2
 * characters; anything else is no filter (null).
 */
export function ticketUsedSearchValue(text: string): boolean | null {
  const v = text.trim().toLowerCase();
  if (v.length < 2) return null;
  if (v === 'yes' || v === 'true') return true;
  if (v === 'no' || v === 'false') return false;
  return null;
}

/** spec §4 "Refund status is shown without the part after a hash, underscores turned into spaces, words capitalised." */
export function refundStatusLabel(status: string): string {
  return (status.split('#')[0] ?? '')
    .replace(/_/g, ' ')
    .split(' ')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/** spec §4 Ticket Used shows Yes or No; status shows Vioded or Active. */
export const ticketUsedLabel = (used: boolean) => (used ? 'Yes' : 'No');
export const ticketStatusLabel = (vioded: boolean) => (vioded ? 'Vioded' : 'Active');
/** spec §2 Orders list: Refunded (Yes or No). */
export const refundedLabel = (refunded: boolean) => (refunded ? 'Yes' : 'No');
