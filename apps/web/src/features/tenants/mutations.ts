import type { TTenant, TUpdateTenantRequest } from '@marquee/core';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { dashboardKey } from '../../shared/query-keys';
import { tenantsApi } from './api';
import { forgetBucketTimer } from './bucket-timer-storage';
import { bucketStatusKey, tenantKey, tenantsKey } from './queries';

/**
 * After a tenant is created, deleted, edited or activated: the tenant lists and the platform
 * dashboard (its tenant count and New Active Tenants) are out of date.
 */
export const refreshTenantLists = (client: QueryClient) =>
  Promise.all([client.invalidateQueries({ queryKey: [...tenantsKey, 'list'] }), client.invalidateQueries({ queryKey: dashboardKey })]);

function useTenantSaved() {
  const client = useQueryClient();
  return (tenant: TTenant) => {
    client.setQueryData(tenantKey(tenant.id), tenant);
    void refreshTenantLists(client);
  };
}

export function useCreateTenant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: tenantsApi.create,
    onSuccess: () => refreshTenantLists(client),
  });
}

export function useUpdateTenant(tenantId: string) {
  const saved = useTenantSaved();
  return useMutation({ mutationFn: (details: TUpdateTenantRequest['details']) => tenantsApi.update(tenantId, details), onSuccess: saved });
}

export function useUploadTenantLogo(tenantId: string) {
  const saved = useTenantSaved();
  return useMutation({ mutationFn: (file: File) => tenantsApi.uploadLogo(tenantId, file), onSuccess: saved });
}

export function useDeleteTenant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tenantId: string) => tenantsApi.remove(tenantId),
    onSuccess: (_ok, tenantId) => {
      // A set-up still saved for this tenant has nothing left to wait for.
      forgetBucketTimer(tenantId);
      client.removeQueries({ queryKey: tenantKey(tenantId) });
      client.removeQueries({ queryKey: bucketStatusKey(tenantId) });
      return refreshTenantLists(client);
    },
  });
}

export function useRetryBucket() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tenantId: string) => tenantsApi.retryBucket(tenantId),
    onSuccess: (status, tenantId) => client.setQueryData(bucketStatusKey(tenantId), status),
  });
}
