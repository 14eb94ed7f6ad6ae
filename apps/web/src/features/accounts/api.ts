import type {
  TChangePasswordRequest,
  TInviteInfo,
  TLinkAccountRequest,
  TLoginRequest,
  TProfile,
  TProfileUpdate,
  TRegisterRequest,
  TResetPasswordRequest,
  TSession,
  TUnlockRequest,
  TVerifyRequest,
} from '@marquee/core';
import { api } from '../../ui/api-client';

export type TOk = { success: true; message?: string };

export const accountsApi = {
  login: (body: TLoginRequest) => api.post<TSession>('/api/auth/login', body),
  logout: () => api.post<TOk>('/api/auth/logout'),
  register: (body: TRegisterRequest) => api.post<TOk>('/api/auth/register', body),
  verifyEmail: (body: TVerifyRequest) => api.post<TOk>('/api/auth/verify', body),
  forgotPassword: (body: { username: string }) => api.post<TOk>('/api/auth/forgot-password', body),
  unlock: (body: TUnlockRequest) => api.post<TOk>('/api/auth/unlock', body),
  resetPassword: (body: TResetPasswordRequest) => api.post<TOk>('/api/auth/reset-password', body),
  changePassword: (body: TChangePasswordRequest) => api.post<TSession>('/api/auth/change-password', body),
  verifyInvite: (query: { code: string; groupId?: string }) => api.get<TInviteInfo>('/api/invites/verify', query),
  linkAccount: (body: TLinkAccountRequest) => api.post<{ success: true; targetUrl: string }>('/api/auth/link-account', body),
  getProfile: (userId: string) => api.get<TProfile>(`/api/users/${encodeURIComponent(userId)}/profile`),
  updateProfile: (userId: string, changes: TProfileUpdate) => api.patch<TProfile>(`/api/users/${encodeURIComponent(userId)}/profile`, changes),
  uploadPicture: (userId: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.upload<TProfile>(`/api/users/${encodeURIComponent(userId)}/picture`, form);
  },
};
