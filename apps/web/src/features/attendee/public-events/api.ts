import { api } from '../../../ui/api-client';

/** One upcoming public event of the organiser (GET /api/p/events): what the /events page lists. */
export type PublicEventSummary = {
  urlName: string;
  name: string;
  startDateTime: string | null;
  timeZone: string;
  venueName: string;
  city: string;
  status: 'published' | 'cancelled';
  /** The lowest all-in price on offer, in cents; null when nothing is on sale. */
  priceFrom: number | null;
  /** The event's cover (issue 15, cover helper), when it has one. */
  coverImageUrl?: string | null;
};

export type PublicEventList = { result: PublicEventSummary[]; count: number; cursor: string | null };

export const publicEventsQueryKey = ['site', 'events'] as const;
export const fetchPublicEvents = () => api.get<PublicEventList>('/api/p/events');
