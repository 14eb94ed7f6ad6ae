import type { TCreateDiscountCodeRequest, TUpdateDiscountCodeRequest } from '@marquee/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTenantId } from '../../shared/tenant';
import { discountCodesApi } from './api';
import { discountCodeKeys } from './queries';

function useRefresh(eventId: string) {
  const client = useQueryClient();
  const tenantId = useTenantId();
  return () => client.invalidateQueries({ queryKey: discountCodeKeys.event(tenantId, eventId) });
}

export function useCreateDiscountCode(eventId: string) {
  const tenantId = useTenantId();
  const refresh = useRefresh(eventId);
  return useMutation({ mutationFn: (details: TCreateDiscountCodeRequest['details']) => discountCodesApi.create(tenantId, eventId, details), onSuccess: refresh });
}

export function useUpdateDiscountCode(eventId: string) {
  const tenantId = useTenantId();
  const refresh = useRefresh(eventId);
  return useMutation({
    mutationFn: ({ id, details }: { id: string; details: TUpdateDiscountCodeRequest['details'] }) => discountCodesApi.update(tenantId, eventId, id, details),
    onSuccess: refresh,
  });
}

export function useDeleteDiscountCode(eventId: string) {
  const tenantId = useTenantId();
  const refresh = useRefresh(eventId);
  return useMutation({ mutationFn: (id: string) => discountCodesApi.remove(tenantId, eventId, id), onSuccess: refresh });
}
