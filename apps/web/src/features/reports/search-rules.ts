// spec: reports-payouts-checkout §5 Search and filters, §9 (the report pages' rules).
export const REPORT_SEARCH_DEBOUNCE_MS = 1600;
export const REPORT_FILTER_DEBOUNCE_MS = 1500;

/** How a search field's text becomes the filter value sent to the server. */
export type SearchTransform = 'plain' | 'lower' | 'refundStatus' | 'used';

/**
 * What typing `text` does to an applied report search: '' clears it, a string applies it, and null
 * leaves the search as it was. Fewer than 1 character clears; more than 2 applies; 1 or 2 do
 * nothing. Ticket Used applies from 2 characters (yes/true, no/false), and anything else there
 * does nothing either.
 */
export function nextSearchValue(text: string, transform: SearchTransform = 'plain'): string | null {
  const t = text.trim();
  if (t.length < 1) return '';
  if (transform === 'used') {
    if (t.length < 2) return null;
    return ticketUsedValue(t);
  }
  if (t.length <= 2) return null;
  return transformSearch(t, transform);
}

export function transformSearch(text: string, transform: SearchTransform): string {
  switch (transform) {
    case 'lower':
      // spec §5: payment-method search is lowercased.
      return text.toLowerCase();
    case 'refundStatus':
      // spec §5: refund status search is lowercased with the first space replaced by an underscore.
      return text.toLowerCase().replace(' ', '_');
    case 'used':
      return ticketUsedValue(text) ?? text;
    case 'plain':
      return text;
  }
}

/** spec §5: Ticket Used search accepts yes or true (true) and no or false (false). */
export function ticketUsedValue(text: string): 'true' | 'false' | null {
  const t = text.trim().toLowerCase();
  if (t === 'yes' || t === 'true') return 'true';
  if (t === 'no' || t === 'false') return 'false';
  return null;
}

/** The Ticket Used checkboxes: one of them ticked filters; both or neither show every ticket. */
export function usedFilterValue(used: boolean, unused: boolean): 'true' | 'false' | null {
  if (used === unused) return null;
  return used ? 'true' : 'false';
}
