import { MAX_LIMIT } from '@marquee/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { charitiesApi, type CharityListQuery, type TenantCharityListQuery } from './api';

export const charityKeys = {
  all: ['charities'] as const,
  list: (q: CharityListQuery) => ['charities', 'platform', q] as const,
  tenant: (tenantId: string) => ['charities', 'tenant', tenantId] as const,
  tenantList: (tenantId: string, q: TenantCharityListQuery) => ['charities', 'tenant', tenantId, q] as const,
};

/** The platform's charities (screen 19). */
export function useCharities(q: CharityListQuery) {
  return useQuery({
    queryKey: charityKeys.list(q),
    queryFn: ({ signal }) => charitiesApi.list(q, signal),
    placeholderData: keepPreviousData,
  });
}

/** The tenant's charity list (screen 20): active charities with their enabled flag. */
export function useTenantCharities(tenantId: string, q: TenantCharityListQuery) {
  return useQuery({
    queryKey: charityKeys.tenantList(tenantId, q),
    queryFn: ({ signal }) => charitiesApi.tenantList(tenantId, q, signal),
    placeholderData: keepPreviousData,
    enabled: !!tenantId,
  });
}

/** The charities an event may pick: the ones the tenant enabled (active only). */
export function useEnabledCharities(tenantId: string) {
  return useQuery({
    queryKey: charityKeys.tenantList(tenantId, { limit: MAX_LIMIT, enabledOnly: true }),
    queryFn: ({ signal }) => charitiesApi.tenantList(tenantId, { limit: MAX_LIMIT, enabledOnly: true }, signal),
    select: (list) => list.result,
    staleTime: 30_000,
    retry: false,
    enabled: !!tenantId,
  });
}
