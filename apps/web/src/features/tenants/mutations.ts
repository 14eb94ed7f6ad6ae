import type { TTenant, TUpdateTenantRequest } from '@marquee/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantsApi } from './api';
import { bucketStatusKey, tenantKey, tenantsKey } from './queries';

function useTenantSaved() {
  const client = useQueryClient();
  return (tenant: TTenant) => {
    client.setQueryData(tenantKey(tenant.id), tenant);
    void client.invalidateQueries({ queryKey: [...tenantsKey, 'list'] });
  };
}

export function useCreateTenant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: tenantsApi.create,
    onSuccess: () => client.invalidateQueries({ queryKey: [...tenantsKey, 'list'] }),
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
      client.removeQueries({ queryKey: tenantKey(tenantId) });
      return client.invalidateQueries({ queryKey: [...tenantsKey, 'list'] });
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
