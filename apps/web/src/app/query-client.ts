import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError, isRetryable } from '../ui/api-client';
import { sessionQueryKey } from '../ui/session';

export function createQueryClient() {
  // A 401 anywhere means the session ended (expired, or signed out in another tab): the session
  // query learns it at once and the console's guard sends the person to /login.
  // (A wrong password on sign-in or account linking is also a 401, with another message.)
  const onError = (error: unknown) => {
    if (isApiError(error) && error.domainCode === 'NOT_SIGNED_IN') client.setQueryData(sessionQueryKey, null);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => isRetryable(error) && failures < 2,
      },
    },
  });
  return client;
}
