import { useQuery } from '@tanstack/react-query';
import { accountsApi } from './api';

export const profileQueryKey = (userId: string) => ['accounts', 'profile', userId] as const;
export const inviteQueryKey = (code: string, groupId: string | undefined) => ['accounts', 'invite', code, groupId ?? ''] as const;

/** spec: accounts-admin-fees §7 "Get profile by user id (no revalidation)". */
export function useProfile(userId: string | undefined) {
  return useQuery({
    queryKey: profileQueryKey(userId ?? ''),
    queryFn: () => accountsApi.getProfile(userId!),
    enabled: !!userId,
    staleTime: Infinity,
    refetchOnMount: false,
    refetchOnReconnect: false,
  });
}

export function useInvite(code: string | null, groupId: string | undefined) {
  return useQuery({
    queryKey: inviteQueryKey(code ?? '', groupId),
    queryFn: () => accountsApi.verifyInvite({ code: code!, groupId }),
    enabled: !!code,
    retry: false,
    staleTime: Infinity,
  });
}
