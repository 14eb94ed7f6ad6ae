import type { TPublicEvent, TPublicEventSettings } from '@marquee/core';
import { useQuery } from '../site/site-query';
import { useMemo } from 'react';
import { withOwnHold } from '../cart/own-hold';
import { getPendingOrder } from '../checkout/checkout-storage';
import { fetchPublicEvent, fetchPublicSettings, fetchPublishedPage } from './api';

export const eventQueryKey = (eventName: string) => ['site', 'event', eventName.toLowerCase()] as const;
export const settingsQueryKey = (eventId: string) => ['site', 'settings', eventId] as const;

/**
 * The event with its ticket types and what is left. Pages that decide on availability (cart,
 * checkout) ask for `fresh`: they refetch on every visit instead of trusting a cached count.
 */
export function useEvent(eventName: string, opts: { fresh?: boolean } = {}) {
  return useQuery({
    queryKey: eventQueryKey(eventName),
    queryFn: () => fetchPublicEvent(eventName),
    staleTime: opts.fresh ? 0 : 30_000,
    refetchOnMount: opts.fresh ? 'always' : true,
  });
}

/**
 * The event as the cart and checkout must judge it: ticket types and the public settings
 * (remaining capacity, delivery wording; spec §7) both fetched on this visit. `fresh` is false
 * until both have answered.
 */
export function useFreshEvent(event: TPublicEvent, eventName: string) {
  const eventQuery = useEvent(eventName, { fresh: true });
  const settingsQuery = useQuery({
    queryKey: settingsQueryKey(event.id),
    queryFn: () => fetchPublicSettings(event.tenantId, event.id),
    staleTime: 0,
    refetchOnMount: 'always',
  });
  const fresh =
    eventQuery.isFetchedAfterMount && !eventQuery.isFetching && (settingsQuery.isError || (settingsQuery.isFetchedAfterMount && !settingsQuery.isFetching));
  const judged = useMemo(() => judge(eventQuery.data, settingsQuery.data, event, eventName), [eventQuery.data, settingsQuery.data, event, eventName]);
  const refetch = async () => {
    const [e, s] = await Promise.all([eventQuery.refetch(), settingsQuery.refetch()]);
    return judge(e.data, s.data, event, eventName);
  };
  return { event: judged, fresh, refetch };
}

/** The server's event with the fresh settings, and this buyer's own held tickets counted as theirs. */
function judge(raw: TPublicEvent | undefined, settings: TPublicEventSettings | undefined, fallback: TPublicEvent, eventName: string): TPublicEvent {
  if (!raw) return fallback;
  const merged = settings ? { ...raw, settings: { ...raw.settings, ...settings } } : raw;
  return withOwnHold(merged, getPendingOrder(eventName));
}

/** The event's published page, if it has one (issue 10); the server puts it in the boot data of the event home. */
export function usePublishedPage(eventName: string) {
  return useQuery({ queryKey: ['site', 'page', eventName.toLowerCase()], queryFn: () => fetchPublishedPage(eventName), staleTime: 30_000, retry: false });
}
