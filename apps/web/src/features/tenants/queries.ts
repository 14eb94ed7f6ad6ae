import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { tenantsApi, type TenantListQuery } from './api';

export const tenantsKey = ['tenants'] as const;
export const tenantListKey = (q: TenantListQuery) => [...tenantsKey, 'list', q] as const;
export const tenantKey = (tenantId: string) => [...tenantsKey, 'one', tenantId] as const;
export const bucketStatusKey = (tenantId: string) => [...tenantsKey, 'bucket', tenantId] as const;

export function useTenants(q: TenantListQuery) {
  return useQuery({
    queryKey: tenantListKey(q),
    queryFn: ({ signal }) => tenantsApi.list(q, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

export function useTenant(tenantId: string | undefined) {
  return useQuery({
    queryKey: tenantKey(tenantId ?? ''),
    queryFn: ({ signal }) => tenantsApi.get(tenantId!, signal),
    enabled: !!tenantId,
  });
}

/** The site's provisioning status, for the tenant detail page (the set-up timer polls on its own). */
export function useBucketStatus(tenantId: string | undefined, enabled = true) {
  return useQuery({
    queryKey: bucketStatusKey(tenantId ?? ''),
    queryFn: () => tenantsApi.bucketStatus(tenantId!),
    enabled: !!tenantId && enabled,
    staleTime: 10_000,
  });
}
