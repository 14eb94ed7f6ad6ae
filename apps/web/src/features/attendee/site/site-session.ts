import { fetchCurrentSession, sessionQueryKey } from '../../../ui/session-api';
import { useQuery } from './site-query';

/** Who is signed in on this host, for the attendee site (the consoles use ui/session.ts). */
export function useSiteSession() {
  const query = useQuery({ queryKey: sessionQueryKey, queryFn: fetchCurrentSession, staleTime: 60_000, retry: false });
  const session = query.data ?? null;
  return { session, user: session?.user ?? null };
}
