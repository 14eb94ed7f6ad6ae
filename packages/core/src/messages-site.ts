// Part of M (messages.ts), word for word from the spec.

/**
 * The attendee site's messages (spec reports-payouts-checkout §5/§8 cart and checkout), also in M:
 * their own object and module so the attendee site's pages carry these few and not every message (issue 13
 * first-load budget). Add a message the attendee site shows here, every other one to M.
 */
export const M_SITE = {
  discountRequired: 'Discount is required.',
  quantityLimitExceeded: 'Quantity Limit Exceeded',
  ticketsRemoved: 'Tickets Removed',
  insufficientCapacity: 'Insufficient Capacity',
  ticketAvailabilityIssue: 'Ticket Availability Issue',
  ticketsNoLongerAvailable: 'Some tickets are no longer available!',
  reviewYourCart: 'Please review and update your cart.',
  updateCartToProceed: 'Please update your cart to proceed with checkout',
  invalidInput: 'Invalid Input',
  invalidInputBody: 'Please check your input values or contact support.',
  discountApplied: 'Discount code applied.',
  eventNotOnSale: 'This event is no longer on sale.',
  donationInvalid: 'The donation must be a whole number of cents, 0 or more.',
  donationMax: 'A donation can be at most $10,000.00.',
  donationAmount: 'Please enter an amount in dollars, such as 15 or 15.50.',
  donationTakenOff: 'Your donation was taken off. Please review your order and place it again.',
  // The waiting list for sold-out tickets (issue 24; ours: the spec has none)
  waitlistJoin: 'Join the waiting list',
  waitlistJoined: "You're on the waiting list. We'll e-mail you if tickets come back.",
  waitlistAlreadyJoined: 'You are already on the waiting list for these tickets.',
  waitlistUnavailable: 'The waiting list is not open for these tickets.',
  waitlistQuantity: 'Choose how many tickets you want.',
  waitlistOfferExpired: 'This offer has expired: the tickets went to the next person on the waiting list.',
  waitlistOfferUsed: 'This offer has already been used.',
  waitlistOfferNotYours: 'This offer is for the e-mail address it was sent to. Please use that address.',
} as const;
