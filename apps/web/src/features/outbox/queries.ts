import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { outboxApi, type OutboxQuery } from './api';

export const outboxQueryKey = (q: OutboxQuery) => ['outbox', 'list', q] as const;

export function useOutbox(q: OutboxQuery) {
  return useQuery({
    queryKey: outboxQueryKey(q),
    queryFn: ({ signal }) => outboxApi.list(q, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}
