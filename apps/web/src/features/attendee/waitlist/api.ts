import type { TClaimWaitlistResponse, TJoinWaitlistRequest, TJoinWaitlistResponse } from '@marquee/core';
import { api } from '../../../ui/api-client';

const base = (tenantId: string, eventId: string) => `/api/p/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/waitlist`;

/** Issue 24: joins the waiting list of a sold-out ticket type. */
export const joinWaitlist = (tenantId: string, eventId: string, body: TJoinWaitlistRequest) => api.post<TJoinWaitlistResponse>(base(tenantId, eventId), body);

/** Opens a claim link: the offer's hold, which the checkout takes as its own. */
export const claimOffer = (tenantId: string, eventId: string, body: { entryId: string; token: string }) =>
  api.post<TClaimWaitlistResponse>(`${base(tenantId, eventId)}/claim`, body);
