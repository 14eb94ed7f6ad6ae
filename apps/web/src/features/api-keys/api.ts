import type { ListResponse, TApiKey, TCreateApiKeyRequest, TCreateApiKeyResponse } from '@marquee/core';
import { api } from '../../ui/api-client';

/** Whose keys: a tenant's, or (null) the platform's. */
export type KeyOwner = string | null;

const base = (owner: KeyOwner) => (owner ? `/api/tenants/${owner}/api-keys` : '/api/platform/api-keys');

export const apiKeysApi = {
  list: (owner: KeyOwner, q: { cursor?: string; limit: number }, signal?: AbortSignal) => api.get<ListResponse<TApiKey>>(base(owner), q, signal),
  create: (owner: KeyOwner, body: TCreateApiKeyRequest) => api.post<TCreateApiKeyResponse>(base(owner), body),
  revoke: (owner: KeyOwner, keyId: string) => api.post<TApiKey>(`${base(owner)}/${keyId}/revoke`),
};
