import { z } from 'zod';
import { M } from '../messages.js';
import { zEmail } from './common.js';
import { ZSeatHold } from './seating.js';
import { ZBreakdown } from './orders.js';

// The waiting list for sold-out tickets (issue 24; ours: the spec has none). docs/waiting-list.md.

export const WAITLIST_STATES = ['waiting', 'offered', 'claimed', 'expired', 'removed'] as const;
export type TWaitlistState = (typeof WAITLIST_STATES)[number];
export const WAITLIST_OFFER_MINUTES_MIN = 5;
export const WAITLIST_OFFER_MINUTES_MAX = 7 * 24 * 60;

/** Joining from the ticket menu: how many is checked against the ticket type's per-order maximum by the server. */
export const ZJoinWaitlistRequest = z.object({
  ticketTypeId: z.uuid(),
  email: zEmail(M.checkoutEmailRequired, M.emailFormat),
  quantity: z.number({ error: M.waitlistQuantity }).int(M.waitlistQuantity).min(1, M.waitlistQuantity).max(100, M.waitlistQuantity),
});
export type TJoinWaitlistRequest = z.input<typeof ZJoinWaitlistRequest>;
export const ZJoinWaitlistResponse = z.object({ joined: z.literal(true), position: z.number().int() });
export type TJoinWaitlistResponse = z.infer<typeof ZJoinWaitlistResponse>;

/** Opening a claim link: the offer's hold, as the checkout's own hold (THoldCartResponse) plus its lines and e-mail. */
export const ZClaimWaitlistRequest = z.object({ entryId: z.uuid(), token: z.string().min(1).max(200) });
export const ZClaimWaitlistResponse = z.object({
  orderUID: z.string(),
  orderToken: z.string(),
  holdExpiresAt: z.string(),
  email: z.string(),
  lines: z.array(z.object({ ticketTypeId: z.string(), quantity: z.number().int() })),
  breakdown: ZBreakdown,
  /** Issue 27: an offer of a seated ticket type comes with the best seats free, held for its checkout (null: general admission). */
  seatHold: ZSeatHold.nullable(),
});
export type TClaimWaitlistResponse = z.infer<typeof ZClaimWaitlistResponse>;

/** The organiser's settings for an event's list. */
export const ZWaitlistSettings = z.object({
  enabled: z.boolean(),
  offerMinutes: z
    .number({ error: M.waitlistOfferMinutes })
    .int(M.waitlistOfferMinutes)
    .min(WAITLIST_OFFER_MINUTES_MIN, M.waitlistOfferMinutes)
    .max(WAITLIST_OFFER_MINUTES_MAX, M.waitlistOfferMinutes),
});
export type TWaitlistSettings = z.infer<typeof ZWaitlistSettings>;

export const ZWaitlistEntry = z.object({
  id: z.string(),
  /** The place in join order (1 = first), the order offers go in. */
  position: z.number().int(),
  email: z.string(),
  ticketTypeId: z.string(),
  ticketTypeName: z.string(),
  quantity: z.number().int(),
  state: z.enum(WAITLIST_STATES),
  offeredQuantity: z.number().int().nullable(),
  offerExpiresAt: z.string().nullable(),
  joinedAt: z.string(),
});
export type TWaitlistEntry = z.infer<typeof ZWaitlistEntry>;

/** The organiser's view: the settings, the list in join order and the dashboard's counts. */
export const ZWaitlist = z.object({
  settings: ZWaitlistSettings,
  entries: z.array(ZWaitlistEntry),
  counts: z.object({ joined: z.number().int(), waiting: z.number().int(), offered: z.number().int(), bought: z.number().int() }),
});
export type TWaitlist = z.infer<typeof ZWaitlist>;
