/**
 * Ticket settings' autoShowActiveTicketsAsSoldOut (spec accounts-admin-fees §3 names it, without
 * saying what it does; docs/decisions.md "Sold-out ticket types on the menu"): on, an active ticket
 * type with nothing left stays on the attendee menu marked sold out; off, it leaves the menu. A menu
 * where every type is sold out keeps them all, so the buyer reads "sold out" rather than nothing.
 * The buyer's own held tickets count as left for them: pass remaining as the buyer sees it.
 */
export function ticketTypesOnMenu<T>(types: readonly T[], opts: { autoShowActiveTicketsAsSoldOut: boolean; remainingOf: (t: T) => number }): T[] {
  if (opts.autoShowActiveTicketsAsSoldOut) return [...types];
  const left = types.filter((t) => opts.remainingOf(t) > 0);
  return left.length === 0 ? [...types] : left;
}
