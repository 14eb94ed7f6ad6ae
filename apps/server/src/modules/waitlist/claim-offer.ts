import { M, type TClaimWaitlistResponse } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { DomainError, notFound } from '../../platform/errors.js';
import { toBreakdown } from '../checkout/pricing.js';
import { tokenMatches } from '../orders/public-order.js';
import * as ordersRepo from '../orders/repository.js';
import { holdOfferSeats } from '../seating/offer-seats.js';
import * as repo from './repository.js';

/**
 * Opens a claim link (issue 24): the offer's hold, for the checkout to take over as its own hold.
 * A wrong token or another event's entry is not found; an offer that ran out, was withdrawn or was
 * bought says so (WAITLIST_OFFER_EXPIRED, WAITLIST_OFFER_USED). Writes nothing, except for a seated
 * ticket type (issue 27): the best free seats are held for the offer's checkout (seating/offer-seats.ts).
 */
export async function claimOffer(opts: { deps: Deps; tenantId: string; eventId: string; entryId: string; token: string }): Promise<TClaimWaitlistResponse> {
  const { deps, tenantId, eventId } = opts;
  const entry = await repo.findEntry(deps.db, tenantId, opts.entryId);
  if (!entry || entry.eventId !== eventId || !tokenMatches(entry.claimTokenHash, opts.token)) throw notFound();
  const listed = (await repo.listEntries(deps.db, tenantId, eventId)).find((e) => e.id === entry.id);
  const state = listed?.shownState;
  if (state === 'claimed') throw new DomainError('WAITLIST_OFFER_USED', M.waitlistOfferUsed);
  const draft = entry.offerOrderId ? await repo.findOrder(deps.db, tenantId, entry.offerOrderId) : undefined;
  if (state !== 'offered' || !draft || draft.status !== 'draft' || !draft.holdExpiresAt || draft.holdExpiresAt <= new Date()) {
    throw new DomainError('WAITLIST_OFFER_EXPIRED', M.waitlistOfferExpired);
  }
  const lines = await ordersRepo.findLines(deps.db, tenantId, draft.id);
  const seatHold = await holdOfferSeats(deps, { tenantId, eventId, orderId: draft.id, lines, until: draft.holdExpiresAt });
  return {
    orderUID: draft.orderUid,
    orderToken: opts.token,
    holdExpiresAt: draft.holdExpiresAt.toISOString(),
    email: entry.email,
    lines: lines.map((l) => ({ ticketTypeId: l.ticketTypeId, quantity: l.quantity })),
    // The price the offer was made at, as the checkout's own hold answers it.
    breakdown: toBreakdown(JSON.parse(draft.breakdown ?? '{}') as Parameters<typeof toBreakdown>[0], null),
    seatHold,
  };
}
