import type { TPublicEvent, TPublicEventSettings } from '@marquee/core';
import { api, isNotFound } from '../../../ui/api-client';

/** The event home and ticket menu (GET /api/p/events/{eventName}): a published event of this host's tenant. */
export const fetchPublicEvent = (eventName: string) =>
  api.get<TPublicEvent>(`/api/p/events/${encodeURIComponent(eventName)}${isPreviewRequested() ? '?preview=1' : ''}`);

/** Issue 15 draft preview: the console opens /{eventName}/?preview=1; the server answers a draft to the event's staff only. */
export const isPreviewRequested = () => typeof window !== 'undefined' && new URLSearchParams(window.location.search).get('preview') === '1';

/** spec §7 GET /p/tenants/{tenantId}/events/{eventId}/setting: remaining capacity and delivery wording. */
export const fetchPublicSettings = (tenantId: string, eventId: string) =>
  api.get<TPublicEventSettings>(`/api/p/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/setting`);

/** The event's published page (issue 10), or null when it has none (NOT_FOUND). */
export const fetchPublishedPage = (eventName: string) =>
  api.get<{ version: number; html: string; css: string }>(`/api/p/events/${encodeURIComponent(eventName)}/page`).catch((e: unknown) => {
    if (isNotFound(e)) return null;
    throw e;
  });
