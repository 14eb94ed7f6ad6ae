import { encodeFilters, type ListResponse, type TCreatePolicyRequest, type TPolicy, type TUpdatePolicyRequest } from '@marquee/core';
import { api } from '../../ui/api-client';

export type PolicyListQuery = { cursor?: string; limit: number; search?: string };

const id = (policyId: string) => encodeURIComponent(policyId);

export const policiesApi = {
  list: ({ cursor, limit, search }: PolicyListQuery, signal?: AbortSignal) =>
    api.get<ListResponse<TPolicy>>(
      '/api/policies',
      { cursor, limit, filters: search ? encodeFilters([{ field: 'details.name', op: '=', value: search }]) : undefined },
      signal,
    ),
  create: (body: TCreatePolicyRequest) => api.post<TPolicy>('/api/policies', body),
  update: (policyId: string, details: TUpdatePolicyRequest['details']) => api.patch<TPolicy>(`/api/policies/${id(policyId)}`, { details }),
  remove: (policyId: string) => api.delete<{ success: true }>(`/api/policies/${id(policyId)}`),
};
