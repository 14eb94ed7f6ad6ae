import type { Deps } from '../../deps.js';

/**
 * Issue 28: where a ticket's wallet passes are, behind an order link (the order page's buttons and the
 * tickets mail's): null for a wallet the operator has not set up, so neither button shows without one.
 */
export function walletPaths(deps: Deps, token: string, ticketId: string, origin = '') {
  const base = `${origin}/api/p/order-links/${encodeURIComponent(token)}/tickets/${encodeURIComponent(ticketId)}`;
  return {
    apple: deps.config.wallet.apple ? `${base}/apple-wallet` : null,
    google: deps.config.wallet.google ? `${base}/google-wallet` : null,
  };
}
