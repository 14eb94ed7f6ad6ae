import type { TPublicEventList, TPublicEventSummary } from '@marquee/core';
import { api } from '../../../ui/api-client';

/** What the /events page lists: the wire shape is core's (GET /api/p/events). */
export type PublicEventSummary = TPublicEventSummary;
export type PublicEventList = TPublicEventList;

export const publicEventsQueryKey = ['site', 'events'] as const;
export const fetchPublicEvents = () => api.get<PublicEventList>('/api/p/events');
