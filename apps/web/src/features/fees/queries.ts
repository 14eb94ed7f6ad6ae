import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { feesApi, scopeKey, type FeeScope } from './api';

export const feesKey = (scope: FeeScope) => ['fees', scopeKey(scope)] as const;
export const rulesKey = (scope: FeeScope, q: { cursor?: string; limit: number }) => [...feesKey(scope), 'rules', q] as const;
export const settingsKey = (scope: FeeScope) => [...feesKey(scope), 'settings'] as const;

export function useSurchargeRules(scope: FeeScope, q: { cursor?: string; limit: number }) {
  return useQuery({
    queryKey: rulesKey(scope, q),
    queryFn: ({ signal }) => feesApi.listRules(scope, q, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTicketSettings(scope: FeeScope) {
  return useQuery({ queryKey: settingsKey(scope), queryFn: ({ signal }) => feesApi.getSettings(scope, signal) });
}
