import type { TPublicEventList } from '@marquee/core';
import { api } from '../../../ui/api-client';


export const publicEventsQueryKey = ['site', 'events'] as const;
export const fetchPublicEvents = () => api.get<TPublicEventList>('/api/p/events');
