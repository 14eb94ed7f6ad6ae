import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCreateApiKeyRequest } from '@marquee/core';
import { apiKeysApi, type KeyOwner } from './api';

export const apiKeyKeys = {
  all: (owner: KeyOwner) => ['api-keys', owner ?? 'platform'] as const,
  list: (owner: KeyOwner, q: { cursor?: string; limit: number }) => [...apiKeyKeys.all(owner), 'list', q] as const,
};

export function useApiKeys(owner: KeyOwner, q: { cursor?: string; limit: number }) {
  return useQuery({ queryKey: apiKeyKeys.list(owner, q), queryFn: ({ signal }) => apiKeysApi.list(owner, q, signal), placeholderData: keepPreviousData });
}

export function useCreateApiKey(owner: KeyOwner) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateApiKeyRequest) => apiKeysApi.create(owner, body),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all(owner) }),
  });
}

export function useRevokeApiKey(owner: KeyOwner) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => apiKeysApi.revoke(owner, keyId),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all(owner) }),
  });
}
