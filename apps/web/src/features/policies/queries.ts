import type { TUpdatePolicyRequest } from '@marquee/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { policiesApi, type PolicyListQuery } from './api';

export const policiesKey = ['policies'] as const;

export function usePolicies(q: PolicyListQuery) {
  return useQuery({
    queryKey: [...policiesKey, q],
    queryFn: ({ signal }) => policiesApi.list(q, signal),
    placeholderData: keepPreviousData,
  });
}

function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: policiesKey });
}

export const useCreatePolicy = () => useMutation({ mutationFn: policiesApi.create, onSuccess: useRefresh() });
export const useDeletePolicy = () => useMutation({ mutationFn: policiesApi.remove, onSuccess: useRefresh() });
export const useUpdatePolicy = () =>
  useMutation({
    mutationFn: ({ id, details }: { id: string; details: TUpdatePolicyRequest['details'] }) => policiesApi.update(id, details),
    onSuccess: useRefresh(),
  });
