import { encodeFilters, PLATFORM_ROLES, type TPlatformUser, type TPlatformUserList, type TUpdatePlatformUserRequest } from '@marquee/core';
import { api } from '../../ui/api-client';

export type PlatformUserListQuery = { cursor?: string; limit: number; search?: string };

const id = (email: string) => encodeURIComponent(email);

export const platformUsersApi = {
  // spec: accounts §7 platform users list (filter on id).
  list: ({ cursor, limit, search }: PlatformUserListQuery, signal?: AbortSignal) =>
    api.get<TPlatformUserList>(
      '/api/platform/users',
      { cursor, limit, filters: search ? encodeFilters([{ field: 'details.id', op: '=', value: search }]) : undefined },
      signal,
    ),
  /** spec: accounts §6/§7: a platform invite grants all four roles (Platform Admin). */
  invite: (email: string) => api.post<{ success: true }>('/api/platform/users', { id: email, group: { roles: [...PLATFORM_ROLES] } }),
  verify: (email: string) => api.post<TPlatformUser>(`/api/platform/users/${id(email)}/verify`),
  update: (email: string, group: TUpdatePlatformUserRequest['group']) => api.patch<TPlatformUser>(`/api/platform/users/${id(email)}`, { group }),
  remove: (email: string) => api.delete<{ success: true }>(`/api/platform/users/${id(email)}`),
};
