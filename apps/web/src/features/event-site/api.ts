import type { TPublicEvent } from '@marquee/core';
import { api } from '../../ui/api-client';

/** The event home and ticket menu (GET /api/p/events/{eventName}): a published event of this host's tenant. */
export const fetchPublicEvent = (eventName: string) => api.get<TPublicEvent>(`/api/p/events/${encodeURIComponent(eventName)}`);
