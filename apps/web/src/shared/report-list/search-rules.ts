import { paymentMethodSearchValue, refundStatusSearchValue, reportSearchAction, ticketUsedSearchValue } from '@marquee/core';

// spec: reports-payouts-checkout §5 Search and filters: the rules live in core (reports/search.ts);
// this turns a search box's text into what the list applies.
export { REPORT_FILTER_DEBOUNCE_MS, REPORT_SEARCH_DEBOUNCE_MS } from '@marquee/core';

/** How a search field's text becomes the filter value sent to the server. */
export type SearchTransform = 'plain' | 'lower' | 'refundStatus' | 'used';

/**
 * What typing `text` does to an applied report search: '' clears it, a string applies it, and null
 * leaves the search as it was (1 or 2 characters; Ticket Used applies from 2, yes/true or no/false).
 */
export function nextSearchValue(text: string, transform: SearchTransform = 'plain'): string | null {
  const t = text.trim();
  if (transform === 'used') {
    if (t.length < 1) return '';
    const v = ticketUsedSearchValue(t);
    return v === null ? null : String(v);
  }
  const action = reportSearchAction(t);
  if (action === 'clear') return '';
  if (action === 'ignore') return null;
  return transform === 'lower' ? paymentMethodSearchValue(t) : transform === 'refundStatus' ? refundStatusSearchValue(t) : t;
}

/** The Ticket Used checkboxes: one of them ticked filters; both or neither show every ticket. */
export function usedFilterValue(used: boolean, unused: boolean): 'true' | 'false' | null {
  if (used === unused) return null;
  return used ? 'true' : 'false';
}
