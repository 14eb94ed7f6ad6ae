import { NEW_ACTIVE_TENANTS_QUERY, type TPlatformDashboard, type TTenantList } from '@marquee/core';
import { api } from '../../ui/api-client';

export const dashboardApi = {
  get: (signal?: AbortSignal) => api.get<TPlatformDashboard>('/api/platform/reports/dashboard', undefined, signal),
  newActiveTenants: (signal?: AbortSignal) => api.get<TTenantList>('/api/tenants', { ...NEW_ACTIVE_TENANTS_QUERY }, signal),
};
