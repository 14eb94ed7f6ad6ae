import type { TTicketTypeSales } from '@marquee/core';

/** One bar of "Tickets by ticket type": keyed by the ticket type's id (names repeat across events). */
export type TicketTypeBar = { key: string; type: string; event: string | null; label: string; Sold: number; Complimentary: number };

/**
 * The ten best-selling ticket types (issue 21.12: each bar is labelled with its ticket type's
 * name, not the event's). Across events (`showEvent`) the event's name is a second, quieter line,
 * only when the bars come from more than one event.
 */
export function ticketTypeBars(result: readonly TTicketTypeSales[], showEvent: boolean): TicketTypeBar[] {
  const top = result
    .filter((t) => t.ticketsSold > 0 || t.complimentaryTickets > 0)
    .sort((a, b) => b.ticketsSold + b.complimentaryTickets - (a.ticketsSold + a.complimentaryTickets) || a.ticketTypeName.localeCompare(b.ticketTypeName))
    .slice(0, 10);
  const manyEvents = showEvent && new Set(top.map((t) => t.eventId)).size > 1;
  return top.map((t) => ({
    key: t.ticketTypeId,
    type: t.ticketTypeName,
    event: manyEvents ? t.eventName : null,
    label: manyEvents ? `${t.ticketTypeName} · ${t.eventName}` : t.ticketTypeName,
    Sold: t.ticketsSold,
    Complimentary: t.complimentaryTickets,
  }));
}

/** A name cut to fit the axis, with an ellipsis. */
export const shorten = (name: string, max: number) => (name.length > max ? `${name.slice(0, max - 1)}…` : name);
