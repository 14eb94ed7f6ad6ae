import {
  encodeFilters,
  type Filter,
  type TBucketStatus,
  type TCreateTenantRequest,
  type TTenant,
  type TTenantList,
  type TUpdateTenantRequest,
} from '@marquee/core';
import { api } from '../../ui/api-client';

export type TenantListQuery = { cursor?: string; limit: number; name?: string; status?: string; sort?: string };

const id = (tenantId: string) => encodeURIComponent(tenantId);

export const tenantsApi = {
  list: ({ cursor, limit, name, status, sort }: TenantListQuery, signal?: AbortSignal) => {
    const filters: Filter[] = [];
    // spec: accounts §7 tenant list (cursor, limit, filter on details.name).
    if (name) filters.push({ field: 'details.name', op: '=', value: name });
    if (status) filters.push({ field: 'details.status', op: '=', value: status });
    return api.get<TTenantList>('/api/tenants', { cursor, limit, sort, filters: filters.length ? encodeFilters(filters) : undefined }, signal);
  },
  get: (tenantId: string, signal?: AbortSignal) => api.get<TTenant>(`/api/tenants/${id(tenantId)}`, undefined, signal),
  create: (body: TCreateTenantRequest) => api.post<TTenant>('/api/tenants', body),
  update: (tenantId: string, details: TUpdateTenantRequest['details']) => api.patch<TTenant>(`/api/tenants/${id(tenantId)}`, { details }),
  uploadLogo: (tenantId: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.upload<TTenant>(`/api/tenants/${id(tenantId)}/logo`, form);
  },
  remove: (tenantId: string) => api.delete<{ success: true }>(`/api/tenants/${id(tenantId)}`),
  bucketStatus: (tenantId: string) => api.get<TBucketStatus>(`/api/tenants/${id(tenantId)}/bucket-status`),
  /** spec: accounts §7 "add tenant with retry true (recreates the bucket)". */
  retryBucket: (tenantId: string) => api.post<TBucketStatus>(`/api/tenants/${id(tenantId)}/bucket`),
};
