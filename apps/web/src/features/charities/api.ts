import {
  encodeFilters,
  type CharityStatus,
  type Filter,
  type ListResponse,
  type TCharity,
  type TCharityFields,
  type TTenantCharity,
} from '@marquee/core';
import { api } from '../../ui/api-client';

// spec: accounts-admin-fees §7 templates and charities.

export type CharityListQuery = { cursor?: string; limit: number; search?: string; status?: CharityStatus };
export type TenantCharityListQuery = { cursor?: string; limit: number; search?: string; enabledOnly?: boolean };

const base = '/api/platform/charities';
const one = (charityId: string) => `${base}/${encodeURIComponent(charityId)}`;

export const charitiesApi = {
  list: ({ cursor, limit, search, status }: CharityListQuery, signal?: AbortSignal) => {
    const filters: Filter[] = [];
    if (search) filters.push({ field: 'details.name', op: '=', value: search });
    if (status) filters.push({ field: 'details.status', op: '=', value: status });
    return api.get<ListResponse<TCharity>>(base, { cursor, limit, filters: filters.length ? encodeFilters(filters) : undefined }, signal);
  },
  create: (charityRequest: TCharityFields) => api.post<{ id: string }>(base, { charityRequest }),
  update: (charityId: string, charityRequest: TCharityFields) => api.put<{ success: true }>(one(charityId), { charityRequest }),
  remove: (charityId: string) => api.delete<{ success: true }>(one(charityId)),
  assign: (charityId: string, tenantId: string) => api.post<{ success: true }>(`${one(charityId)}/assign`, { tenantId }),
  unassign: (charityId: string, tenantId: string) => api.post<{ success: true }>(`${one(charityId)}/unassign`, { tenantId }),
  /** The tenant's list: active charities, each with its enabled flag. */
  tenantList: (tenantId: string, { cursor, limit, search, enabledOnly }: TenantCharityListQuery, signal?: AbortSignal) => {
    const filters: Filter[] = [];
    if (search) filters.push({ field: 'details.name', op: '=', value: search });
    if (enabledOnly) filters.push({ field: 'details.enabled', op: '=', value: 'true' });
    return api.get<ListResponse<TTenantCharity>>(
      `/api/tenants/${encodeURIComponent(tenantId)}/charities`,
      { cursor, limit, filters: filters.length ? encodeFilters(filters) : undefined },
      signal,
    );
  },
};
