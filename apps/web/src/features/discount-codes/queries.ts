import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTenantId } from '../../shared/tenant';
import { discountCodesApi, type DiscountCodeListQuery } from './api';

export const discountCodeKeys = {
  event: (tenantId: string, eventId: string) => ['discount-codes', tenantId, eventId] as const,
  list: (tenantId: string, eventId: string, q: DiscountCodeListQuery) => ['discount-codes', tenantId, eventId, 'list', q] as const,
};

export function useDiscountCodes(eventId: string, q: DiscountCodeListQuery) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: discountCodeKeys.list(tenantId, eventId, q),
    queryFn: ({ signal }) => discountCodesApi.list(tenantId, eventId, q, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}
