import type { TUpdatePlatformUserRequest } from '@marquee/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { platformUsersApi, type PlatformUserListQuery } from './api';

export const platformUsersKey = ['platform-users'] as const;

export function usePlatformUsers(q: PlatformUserListQuery) {
  return useQuery({
    queryKey: [...platformUsersKey, q],
    queryFn: ({ signal }) => platformUsersApi.list(q, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: platformUsersKey });
}

export const useInvitePlatformUser = () => useMutation({ mutationFn: platformUsersApi.invite, onSuccess: useRefresh() });
export const useVerifyPlatformUser = () => useMutation({ mutationFn: platformUsersApi.verify, onSuccess: useRefresh() });
export const useDeletePlatformUser = () => useMutation({ mutationFn: platformUsersApi.remove, onSuccess: useRefresh() });
export const useUpdatePlatformUser = () =>
  useMutation({
    mutationFn: ({ email, group }: { email: string; group: TUpdatePlatformUserRequest['group'] }) => platformUsersApi.update(email, group),
    onSuccess: useRefresh(),
  });
