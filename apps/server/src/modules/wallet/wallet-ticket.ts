// Issue 28: what a wallet pass shows of one ticket, the same for Apple's and Google's. The
// fulfilment module fills it from the order (the same signed code as the PDF's QR) and calls the
// builders here; this module reads no table and knows no order link.

export type WalletTicket = {
  /** The ticket's uid: the pass's serial number and the Ticket ID printed on the PDF. */
  ticketUid: string;
  /** The signed code the door scanner reads (the PDF's QR code). */
  code: string;
  eventId: string;
  eventName: string;
  /** The event's date and time as people read it (core formatEventDateTime), null when unset. */
  when: string | null;
  startDateTime: Date | null;
  endDateTime: Date | null;
  venueName: string;
  /** The venue's name and address, one line each. */
  venue: string[];
  ticketTypeName: string;
  /** Issue 27's reserved seat ('Section · Row · Seat'); null: general admission. */
  seat: string | null;
  /** The attendee's name; empty when the order has none. */
  fullName: string;
  orderUid: string;
  /** The tenant: its name, its accent colour (#rrggbb), its logo (PNG or JPEG bytes) and its site's origin. */
  organizer: { name: string; color: string; logo: Buffer | null; origin: string };
  /** The event's delivery note, as plain text (what the PDF prints). */
  note: string;
  /**
   * Why the ticket no longer admits, when it does not (Apple's pass shows it and is marked void):
   * 'Voided' (voided or refunded), 'Passed on', 'Used', 'Event cancelled'. Null: a valid ticket.
   */
  invalid?: string | null;
  /** Apple's pass web service for this pass (its updates), when the pass is served with one. */
  webService?: { url: string; authenticationToken: string } | null;
};

/** #rrggbb to [r, g, b]; anything else is the default accent. */
export function rgbOf(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  const n = parseInt(m ? m[1]! : '5b3cc4', 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
