import { useQuery } from '@tanstack/react-query';
import { fetchPublicEvent } from './api';

export const eventQueryKey = (eventName: string) => ['site', 'event', eventName.toLowerCase()] as const;

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
